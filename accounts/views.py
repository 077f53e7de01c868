"""Account pages: history, export, profile, seats, player stats, leaderboards."""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db.models import Count, IntegerField, Max, Min, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.models import Standing
from numapp.parsing import parse_int
from scoring.access import EDITOR, get_sheet
from scoring.api.views import request_lang
from scoring.games import GAMES
from scoring.games.coop import reference_rate as coop_reference_rate
from scoring.games.names import NameRefused
from scoring.models import Player, Sheet, deleted_keep

BOARD_SIZE = 50


@login_required
def history(request):
    sheets = Sheet.objects.alive().filter(user=request.user).prefetch_related("seats")
    game = request.GET.get("game", "")
    state = request.GET.get("state", "")
    if game in GAMES:
        sheets = sheets.filter(game=game)
    if state == "finished":
        sheets = sheets.filter(finished=True)
    elif state == "ongoing":
        sheets = sheets.filter(finished=False)
    lang = request_lang()
    return render(
        request,
        "accounts/history.html",
        {
            "sheets": sheets.order_by("-updated_at")[:200],
            "games": [(slug, g.name[lang]) for slug, g in GAMES.items()],
            "game": game,
            "state": state,
            "profile": services.profile_of(request.user),
            "deleted": Sheet.objects.restorable(request.user).prefetch_related("seats")[:50],
            "keep_days": deleted_keep().days,
        },
    )


def _sheet_label(sheet: Sheet, lang: str) -> str:
    """Return how the history names a sheet: its game, its players and when it was started."""
    when = formats.date_format(timezone.localtime(sheet.created_at), "SHORT_DATETIME_FORMAT")
    return f"{GAMES[sheet.game].name[lang]} — {', '.join(sheet.players)} ({when})"


@login_required
@require_http_methods(["GET", "POST"])
def sheet_delete(request, sheet_id):
    """Ask to confirm, naming the sheet (GET); delete it, restorable for a while (POST)."""
    sheet = get_object_or_404(Sheet.objects.alive(), pk=sheet_id, user=request.user)
    label = _sheet_label(sheet, request_lang())
    if request.method == "POST":
        services.sheet_delete(sheet=sheet)
        messages.success(
            request,
            _("Sheet deleted: %(sheet)s. You can restore it from this page for %(days)d days.")
            % {"sheet": label, "days": deleted_keep().days},
        )
        return redirect("history")
    return render(
        request, "accounts/sheet_delete.html", {"sheet": sheet, "label": label, "keep_days": deleted_keep().days}
    )


@login_required
@require_POST
def sheet_restore(request, sheet_id):
    sheet = get_object_or_404(Sheet, pk=sheet_id, user=request.user)
    label = _sheet_label(sheet, request_lang())
    if services.sheet_restore(sheet=sheet):
        messages.success(request, _("Sheet restored: %(sheet)s.") % {"sheet": label})
    elif sheet.deleted_at is None:
        messages.info(request, _("This sheet was restored already: %(sheet)s.") % {"sheet": label})
    else:
        messages.error(request, _("This sheet can no longer be restored: %(sheet)s.") % {"sheet": label})
    return redirect("history")


@login_required
def export(request, fmt):
    stamp = timezone.now().strftime("%Y%m%d")
    if fmt == "csv":
        response = HttpResponse(services.export_csv(request.user), content_type="text/csv; charset=utf-8")
    else:
        body = json.dumps(services.export_json(request.user), ensure_ascii=False, indent=1)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="num-scores-{stamp}.{fmt}"'
    return response


def _profile_name_message(exc: NameRefused) -> str:
    """Return why the public name is refused, naming the field."""
    if exc.code == "control":
        return _("Public name “%(name)s”: it holds an invisible or control character (%(char)s); remove it.") % {
            "name": exc.params["name"],
            "char": exc.params["char"],
        }
    return _("The public name is at most 40 characters.")


@login_required
@require_POST
def profile(request):
    name = request.POST.get("display_name", "")
    public = request.POST.get("public") == "on"
    if public and not name.strip():
        messages.error(request, _("Choose a public name to appear on the leaderboards."))
        return redirect("history")
    try:
        services.profile_update(user=request.user, display_name=name, public=public)
    except NameRefused as exc:
        messages.error(request, _profile_name_message(exc))
        return redirect("history")
    messages.success(request, _("Profile saved."))
    return redirect("history")


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request):
    if request.method == "POST":
        if request.POST.get("confirm") != "on":
            messages.error(request, _("Tick the box to confirm."))
            return redirect("account-delete")
        user = request.user
        logout(request)
        services.account_delete(user=user)
        messages.success(request, _("Your account and its sheets are deleted."))
        return redirect("home")
    return render(request, "accounts/delete.html")


@login_required
@require_POST
def seat_me(request, sheet_id):
    sheet = get_object_or_404(Sheet.objects.alive(), pk=sheet_id, user=request.user)
    seat = parse_int(request.POST.get("seat", ""))
    if seat is None or seat >= len(sheet.players):
        raise Http404
    services.seat_attach(sheet=sheet, seat=seat, user=request.user)
    messages.success(request, _("Seat saved: this game now counts in your stats."))
    return redirect("sheet", sheet.pk)


@login_required
@require_http_methods(["GET", "POST"])
def seat_join(request, sheet_id, seat, token):
    sheet = Sheet.objects.alive().filter(pk=sheet_id, user__isnull=False).first()
    if sheet is None or seat >= len(sheet.players) or not services.seat_token_matches(sheet_id, seat, token):
        raise Http404
    if request.method == "POST":
        services.seat_attach(sheet=sheet, seat=seat, user=request.user)
        messages.success(request, _("The seat is yours: this game now counts in your stats."))
        return redirect("player", request.user.pk)
    return render(
        request,
        "accounts/seat_join.html",
        {"sheet": sheet, "name": sheet.players[seat], "game": GAMES[sheet.game].name},
    )


@login_required
@require_POST
def save_to_account(request, sheet_id):
    from scoring.services import sheet_save_to_account

    sheet, role = get_sheet(request, sheet_id, write=True)
    if role == EDITOR and sheet_save_to_account(sheet=sheet, user=request.user):
        messages.success(request, _("Sheet saved in your account."))
    return redirect("sheet", sheet.pk)


def player(request, user_id):
    viewer = request.user
    profile = services.profile_of(get_object_or_404(Player.user.field.related_model, pk=user_id))
    if not (viewer.is_authenticated and viewer.pk == user_id) and not profile.public:
        raise Http404
    seats = Player.objects.filter(user_id=user_id, sheet__user__isnull=False, sheet__deleted_at__isnull=True)
    lang = request_lang()
    per_game = []
    for slug, game in GAMES.items():
        # A coop sheet is a session the rules never finish: each of its games counts.
        mine = (
            seats.filter(sheet__game=slug) if slug == "coop" else seats.filter(sheet__game=slug, sheet__finished=True)
        )
        agg = mine.aggregate(
            games=Count("id"),
            wins=Count("id", filter=Q(winner=True)),
            total_sum=Sum("total"),
            high=Max("total"),
            low=Min("total"),
        )
        if not agg["games"]:
            continue
        records = {}
        for rec in mine.values_list("records", flat=True):
            for k, v in (rec or {}).items():
                records[k] = max(records.get(k, 0), v) if k == "longest_streak" else records.get(k, 0) + v
        results = list(mine.order_by("sheet__created_at").values_list("total", flat=True)[:100])
        coop_rows = _coop_rates(mine) if slug == "coop" else []
        per_game.append(
            {
                "slug": slug,
                "name": game.name[lang],
                "games": agg["games"],
                "wins": agg["wins"],
                "win_rate": round(100 * agg["wins"] / agg["games"], 1),
                "average": round(agg["total_sum"] / agg["games"], 1),
                "best": agg["low"] if game.wins == "lowest" else agg["high"],
                "records": records,
                "chart": _results_svg(results) if slug != "coop" else "",
                "coop": coop_rows,
            }
        )
    return render(
        request,
        "accounts/player.html",
        {"profile": profile, "per_game": per_game, "is_me": viewer.is_authenticated and viewer.pk == user_id},
    )


def _table_board(seats, slug: str, lowest_wins: bool) -> list[dict]:
    """Return the players of my tables, by name, ranked by wins then games.

    The database groups the seats and returns at most one board of rows. A coop
    session holds many games: its seat's records count them.
    """
    if slug == "coop":
        counted = {
            "games": Coalesce(Sum(Cast(KT("records__games"), IntegerField())), 0),
            "wins": Coalesce(Sum(Cast(KT("records__wins"), IntegerField())), 0),
        }
    else:
        counted = {
            "games": Count("id"),
            "wins": Count("id", filter=Q(winner=True)),
            "best": Min("total") if lowest_wins else Max("total"),
        }
    rows = list(seats.order_by().values("name").annotate(**counted).order_by("-wins", "-games", "name")[:BOARD_SIZE])
    for r in rows:
        r["win_rate"] = round(100 * r["wins"] / r["games"], 1) if r["games"] else 0
        r.setdefault("best", None)
    return rows


def _coop_rates(seats) -> list[dict]:
    """Return the table's win rate per player count and options, beside the rule book's."""
    groups: dict[tuple, list[int]] = {}
    for players, options, records in seats.values_list("sheet__players", "sheet__options", "records"):
        if (options or {}).get("mode", "cooperatif") != "cooperatif":
            continue
        key = (len(players), bool(options.get("expert")), bool(options.get("decouverte")))
        games_wins = groups.setdefault(key, [0, 0])
        games_wins[0] += (records or {}).get("games", 0)
        games_wins[1] += (records or {}).get("wins", 0)
    return [
        {
            "players": n,
            "expert": expert,
            "decouverte": decouverte,
            "games": g,
            "rate": round(100 * w / g, 1) if g else None,
            "reference": coop_reference_rate(n, expert, decouverte),
        }
        for (n, expert, decouverte), (g, w) in sorted(groups.items())
    ]


def _results_svg(values: list[int], width: int = 300, height: int = 80) -> str:
    """Return a small SVG bar chart of results in order."""
    if not values:
        return ""
    hi, lo = max(max(values), 0), min(min(values), 0)
    span = (hi - lo) or 1
    step = width / len(values)
    bars = []
    for i, v in enumerate(values):
        top = height * (hi - max(v, 0)) / span
        bottom = height * (hi - min(v, 0)) / span
        bars.append(
            f'<rect x="{i * step:.1f}" y="{top:.1f}" width="{max(step - 1, 1):.1f}" height="{max(bottom - top, 1):.1f}" class="bar"/>'
        )
    return f'<svg class="chart bars" viewBox="0 0 {width} {height}" role="img" aria-label="{len(values)}">{"".join(bars)}</svg>'


def leaderboard(request, slug):
    if slug not in GAMES:
        raise Http404
    game = GAMES[slug]
    scope = "table" if request.GET.get("scope") == "table" else "global"
    period = "month" if request.GET.get("period") == "month" else "all"
    month = timezone.localtime().strftime("%Y-%m")
    rows = []
    player_base = reverse("player", args=[0])[: -len("0/")]  # built once, not once per row
    if scope == "global":
        rows = [
            {
                "name": name,
                "games": games,
                "wins": wins,
                "best": best,
                "url": f"{player_base}{user_id}/",
                "win_rate": round(100 * wins / games, 1) if games else 0,
            }
            for name, games, wins, best, user_id in Standing.objects.filter(
                game=slug, period=month if period == "month" else "all", public=True
            )
            .order_by("-wins", "-games", "name")
            .values_list("name", "games", "wins", "best", "user_id")[:BOARD_SIZE]
        ]
    elif request.user.is_authenticated:
        seats = Player.objects.filter(sheet__user=request.user, sheet__game=slug, sheet__deleted_at__isnull=True)
        if slug != "coop":
            seats = seats.filter(sheet__finished=True)
        if period == "month":
            start = timezone.localtime().replace(day=1, hour=0, minute=0, second=0, microsecond=0)
            seats = seats.filter(sheet__created_at__gte=start)
        rows = _table_board(seats, slug, game.wins == "lowest")
    lang = request_lang()
    context = {
        "game": {"slug": slug, "name": game.name[lang]},
        "rows": rows,
        "scope": scope,
        "period": period,
        "games": [(s, g.name[lang]) for s, g in GAMES.items()],
        "login_url": reverse("account_login"),
    }
    return render(request, "accounts/leaderboard.html", context)
