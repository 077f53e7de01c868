"""Account pages: history, export, profile, seats, player stats, leaderboards."""

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.charts import results_svg
from scoring import device
from scoring import services as scoring
from scoring.access import EDITOR, get_sheet, owner_key
from scoring.exceptions import PlayerNotFound, SeatTaken, ServiceError
from scoring.games import GAMES
from web.i18n import request_lang
from web.parsing import parse_int


@login_required
def history(request):
    game = request.GET.get("game", "")
    state = request.GET.get("state", "")
    lang = request_lang()
    return render(
        request,
        "accounts/history.html",
        {
            "sheets": scoring.with_lines(services.history_sheets(request.user, game=game, state=state), lang),
            "games": [(slug, g.title(lang)) for slug, g in GAMES.items()],
            "game": game,
            "state": state,
            "profile": services.profile_of(request.user),
            "deleted": scoring.with_lines(services.deleted_sheets(request.user), lang),
            "keep_days": services.restore_days(),
        },
    )


def _owned(request, sheet_id: str, *, deleted_too: bool = False):
    sheet = services.owned_sheet(request.user, sheet_id, deleted_too=deleted_too)
    if sheet is None:
        raise Http404
    return sheet


def _sheet_label(sheet, lang: str) -> str:
    """Return how the history names a sheet: its game, its players and when it was started."""
    when = formats.date_format(timezone.localtime(sheet.created_at), "SHORT_DATETIME_FORMAT")
    return f"{GAMES[sheet.game].title(lang)} — {', '.join(sheet.players)} ({when})"


@login_required
@require_http_methods(["GET", "POST"])
def sheet_delete(request, sheet_id):
    """Ask to confirm, naming the sheet (GET); delete it, restorable for a while (POST)."""
    sheet = _owned(request, sheet_id)
    label = _sheet_label(sheet, request_lang())
    if request.method == "POST":
        services.sheet_delete(sheet=sheet)
        messages.success(
            request,
            _("Sheet deleted: %(sheet)s. You can restore it from this page for %(days)d days.")
            % {"sheet": label, "days": services.restore_days()},
        )
        return redirect("history")
    return render(
        request, "accounts/sheet_delete.html", {"sheet": sheet, "label": label, "keep_days": services.restore_days()}
    )


@login_required
@require_POST
def sheet_restore(request, sheet_id):
    sheet = _owned(request, sheet_id, deleted_too=True)
    label = _sheet_label(sheet, request_lang())
    if services.sheet_restore(sheet=sheet):
        messages.success(request, _("Sheet restored: %(sheet)s.") % {"sheet": label})
    elif sheet.deleted_at is None:
        messages.info(request, _("This sheet was restored already: %(sheet)s.") % {"sheet": label})
    else:
        messages.error(request, _("This sheet can no longer be restored: %(sheet)s.") % {"sheet": label})
    return redirect("history")


def _download(fmt: str, name: str, csv, data) -> HttpResponse:
    """Return an export to save: `csv()` as CSV, or `data()` as JSON (non-ASCII as is), in a file named
    `name` and today's date."""
    if fmt == "csv":
        response = HttpResponse(csv(), content_type="text/csv; charset=utf-8")
    else:
        body = json.dumps(data(), ensure_ascii=False, indent=1)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="{name}-{stamp}.{fmt}"'
    return response


@login_required
def export(request, fmt):
    user = request.user
    return _download(fmt, "num-scores", lambda: services.export_csv(user), lambda: services.export_json(user))


@login_required
@require_POST
def profile(request):
    name = request.POST.get("display_name", "")
    public = request.POST.get("public") == "on"
    try:
        services.profile_update(user=request.user, display_name=name, public=public)
    except ServiceError as exc:
        messages.add_message(request, exc.page_level, exc.page_message())
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
        device.logout(request)
        services.account_delete(user=user)
        messages.success(request, _("Your account and its sheets are deleted."))
        return redirect("home")
    return render(request, "accounts/delete.html")


@login_required
@require_POST
def seat_me(request, sheet_id):
    """The owner says which seat is theirs (« C'est moi », « Qui êtes-vous ? »), or « aucun »: a game they only kept score of."""
    sheet = _owned(request, sheet_id)
    if request.POST.get("seat") == "none":
        services.seat_none(user=request.user, sheet=sheet)
        messages.success(request, _("Noted: you kept score of this game without playing."))
        return redirect("sheet", sheet.pk)
    seat = parse_int(request.POST.get("seat", ""))
    if seat is None or seat >= len(sheet.players):
        raise Http404
    # The owner chooses on their own sheet: a seat someone else held is theirs on purpose.
    services.seat_attach(sheet=sheet, seat=seat, user=request.user, take_over=True)
    messages.success(request, _("Seat saved: this game now counts in your stats."))
    return redirect("sheet", sheet.pk)


@require_http_methods(["GET", "POST"])
def seat_join(request, sheet_id, seat, token):
    sheet = services.seat_to_claim(sheet_id, seat, token)
    if sheet is None:
        raise Http404
    page = {"sheet": sheet, "name": sheet.players[seat], "game": GAMES[sheet.game].title(request_lang())}
    if not request.user.is_authenticated:
        # Say what the link is before asking anyone to log in; the login comes back here.
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        back = urlencode({"next": request.path}, safe="/")
        return render(
            request,
            "accounts/seat_join.html",
            {
                **page,
                "login_url": f"{reverse('account_login')}?{back}",
                "signup_url": f"{reverse('account_signup')}?{back}",
            },
        )
    status = 200
    if request.method == "POST":
        try:
            # A seat another account holds changes hands only once this person answered the page's question.
            take_over = request.POST.get("take_over") == "1"
            services.seat_attach(sheet=sheet, seat=seat, user=request.user, take_over=take_over)
        except SeatTaken:
            status = 409  # taken since the page was drawn: the page asks now
        else:
            messages.success(request, _("The seat is yours: this game now counts in your stats."))
            return redirect("player", request.user.pk)
    holder = services.seat_holder(sheet, seat)
    return render(
        request,
        "accounts/seat_join.html",
        {
            **page,
            "mine": holder == request.user.pk,
            "taken": holder is not None and holder != request.user.pk,
        },
        status=status,
    )


def _next(request) -> str:
    """Return where the answer leads: the page the login was for, on this site only."""
    then = request.POST.get("next") or request.GET.get("next") or "/"
    ok = url_has_allowed_host_and_scheme(then, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return then if ok else "/"


@login_required
@require_http_methods(["GET", "POST"])
def claim_sheets(request):
    """Ask whether this browser's anonymous sheets go into the account that just logged in.

    On a shared phone they may be another person's: « Non » leaves them as they are
    (anonymous, kept 48 hours after their last change, their edit links alive).
    """
    key, then = owner_key(request), _next(request)
    if request.method == "POST":
        if request.POST.get("answer") == "add":
            added = scoring.sheets_claim(owner_key=key, user=request.user)
            if added:
                message = ngettext(
                    "%(count)d sheet added to your account.", "%(count)d sheets added to your account.", added
                )
                messages.success(request, message % {"count": added})
        return redirect(then)
    sheets = scoring.with_lines(scoring.browser_sheets(owner_key=key).prefetch_related("seats")[:50], request_lang())
    if not sheets:
        return redirect(then)
    names = {slug: game.title(request_lang()) for slug, game in GAMES.items()}
    return render(request, "accounts/claim.html", {"sheets": sheets, "names": names, "next": then})


@login_required
@require_POST
def save_to_account(request, sheet_id):
    sheet, role = get_sheet(request, sheet_id, write=True)
    if role == EDITOR and scoring.sheet_save_to_account(sheet=sheet, user=request.user):
        messages.success(request, _("Sheet saved in your account."))
    return redirect("sheet", sheet.pk)


def player(request, user_id):
    viewer = request.user
    profile = services.visible_profile(user_id, viewer)
    if profile is None:
        raise Http404
    per_game = services.player_stats(user_id, request_lang())
    for row in per_game:
        row["chart"] = _results_svg(row.pop("results"))
    return render(
        request,
        "accounts/player.html",
        {"profile": profile, "per_game": per_game, "is_me": viewer.is_authenticated and viewer.pk == user_id},
    )


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


def leaderboards(request):
    """The header's link: the first registered game's leaderboard (each page links to the others)."""
    return redirect("leaderboard", next(iter(GAMES)))


def leaderboard(request, slug):
    if slug not in GAMES:
        raise Http404
    game = GAMES[slug]
    scope = "table" if request.GET.get("scope") == "table" else "global"
    period = "month" if request.GET.get("period") == "month" else "all"
    rows = []
    if scope == "global":
        player_base = reverse("player", args=[0])[: -len("0/")]  # built once, not once per row
        rows = services.public_board(slug, month=period == "month")
        for row in rows:
            row["url"] = f"{player_base}{row.pop('user_id')}/"
    elif request.user.is_authenticated:
        rows = services.table_board(request.user, slug, month=period == "month")
        player_base = reverse("table-player", args=[0])[: -len("0/")]
        for row in rows:
            row["url"] = f"{player_base}{row['id']}/" if row["id"] else ""
    lang = request_lang()
    context = {
        "game": {"slug": slug, "name": game.title(lang)},
        "rows": rows,
        "scope": scope,
        "period": period,
        "games": [(s, g.title(lang)) for s, g in GAMES.items()],
        "login_url": reverse("account_login"),
        "min_games": services.board_min_games(),
        "rated": game.rated,
    }
    return render(request, "accounts/leaderboard.html", context)


CHART_GAMES = 100  # the games a player's chart shows, the latest


@login_required
def players(request):
    """« Mes joueurs »: the people of the account's tables, with merge, split and rename."""
    lang = request_lang()
    return render(
        request,
        "accounts/players.html",
        {
            "players": services.table_players(request.user),
            "game_names": {slug: g.title(lang) for slug, g in GAMES.items()},
        },
    )


@login_required
def table_player(request, player_id):
    """One of « Mes joueurs »: games and wins per game, records, results over time, ratings, head to head."""
    lang = request_lang()
    try:
        # The chart's games only: a phone's width shows no more dots than that.
        player = services.table_player(request.user, player_id, lang, results=(-CHART_GAMES, None))
    except PlayerNotFound:
        raise Http404 from None
    token = player["link"]["token"]
    player["link"]["url"] = (
        request.build_absolute_uri(reverse("player-link", args=[player["id"], token])) if token else ""
    )
    for row in player["per_game"]:
        title = _("%(name)s at %(game)s: results, oldest first") % {"name": player["name"], "game": row["name"]}
        row["chart"] = results_svg(row.pop("results"), title=title)
    return render(request, "accounts/table_player.html", {"player": player})


def _players_answer(request, action, done: str):
    """Run one change of « Mes joueurs » and say how it went on the list."""
    try:
        action()
    except PlayerNotFound:
        raise Http404 from None
    except ServiceError as exc:
        messages.add_message(request, exc.page_level, exc.page_message())
    else:
        messages.success(request, done)
    return redirect("players")


@login_required
@require_POST
def player_merge(request, player_id):
    other = parse_int(request.POST.get("other", ""))
    if other is None:
        raise Http404
    return _players_answer(
        request,
        lambda: services.players_merge(user=request.user, into=player_id, other=other),
        _("Players merged: their games are one player's now."),
    )


@login_required
@require_POST
def player_split(request, player_id):
    name = request.POST.get("name", "")
    return _players_answer(
        request,
        lambda: services.players_split(user=request.user, player_id=player_id, name=name),
        _("“%(name)s” is a player of its own now.") % {"name": name},
    )


@login_required
@require_POST
def player_rename(request, player_id):
    return _players_answer(
        request,
        lambda: services.players_rename(user=request.user, player_id=player_id, name=request.POST.get("name", "")),
        _("Player renamed."),
    )


@login_required
def players_export(request, fmt):
    """« Mes joueurs » with their games, wins and ratings per game, as CSV or JSON."""
    user = request.user
    return _download(
        fmt,
        "num-scores-players",
        lambda: services.export_csv(user, services.players_export_rows(user)),
        lambda: services.players_export(user),
    )


@login_required
@require_POST
def player_link_make(request, player_id):
    """Make a new link for one of « Mes joueurs »: the person opens it and counts their games in their own stats."""
    try:
        services.player_link_make(user=request.user, player_id=player_id)
    except PlayerNotFound:
        raise Http404 from None
    return redirect(f"{reverse('table-player', args=[player_id])}#link")


@login_required
@require_POST
def player_unlink(request, player_id):
    try:
        services.player_unlink(user=request.user, player_id=player_id)
    except PlayerNotFound:
        raise Http404 from None
    messages.success(request, _("Link ended: these games no longer count in the other account's stats."))
    return redirect("table-player", player_id)


@require_http_methods(["GET", "POST"])
def player_link(request, player_id, token):
    """A player's link: the person says « C'est moi » and the games of that player count in their stats."""
    shown = services.player_to_link(player_id, token)
    if shown is None:
        raise Http404
    context = {**shown, "login_url": "", "signup_url": ""}
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        back = urlencode({"next": request.path}, safe="/")
        context["login_url"] = f"{reverse('account_login')}?{back}"
        context["signup_url"] = f"{reverse('account_signup')}?{back}"
        return render(request, "accounts/player_link.html", context)
    if request.method == "POST":
        try:
            counted = services.player_link_accept(player_id=player_id, token=token, user=request.user)
        except PlayerNotFound:
            raise Http404 from None
        except ServiceError as exc:
            messages.add_message(request, exc.page_level, exc.page_message())
            return render(request, "accounts/player_link.html", context)
        message = ngettext(
            "Linked: %(count)d game now counts in your stats.",
            "Linked: %(count)d games now count in your stats.",
            counted,
        )
        messages.success(request, message % {"count": counted})
        return redirect("player", request.user.pk)
    return render(request, "accounts/player_link.html", context)
