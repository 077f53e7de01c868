"""Server-rendered pages: thin views over the same services as the API."""

import json

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import access, device, forms, services, tokens
from scoring.access import EDITOR, PLAYER, get_sheet, grant_edit_link, owner_key
from scoring.charts import PALETTE, chart_series, progression_svg
from scoring.exceptions import ServiceError, VersionMismatch
from scoring.fragments import FRAGMENT_KEEP, digest
from scoring.games import GAMES
from scoring.qr import qr_svg
from web.cache import keep_after_commit
from web.i18n import request_lang
from web.parsing import parse_int
from web.ratelimit import limit_posts
from web.release import release

MAX_FORM_PLAYERS = 12


def tell_refused(request, exc: ServiceError) -> None:
    """Say on the next page why a write was refused: the pages' one reading of the services' refusals.

    A refused form (InvalidInput) is shown again with its errors instead, by the view that drew it.
    """
    messages.add_message(request, exc.page_level, exc.page_message())


def _form_options(game: dict, post) -> list[dict]:
    """Return the game's options as the new-sheet form shows them, keeping posted values."""
    mode_names = {m["slug"]: m["name"] for m in game.get("modes", [])}
    out = []
    for name, spec in game["options"].items():
        if name == "teams":
            continue
        posted = post.get(f"opt-{name}") if post else None
        item = {"name": name, "label": spec.get("label", name), "min": spec.get("min"), "max": spec.get("max")}
        if spec.get("choices"):
            current = posted or spec.get("default")
            item["kind"] = "choice"
            item["choices"] = [
                {
                    "value": c,
                    "label": mode_names.get(c) or spec.get("choice_labels", {}).get(c, c),
                    "checked": c == current,
                }
                for c in spec["choices"]
            ]
            if spec.get("default") is None:
                # No fixed default: the game picks by mode (Num-X short rules' scoring).
                item["choices"].insert(0, {"value": "", "label": _("As the mode says"), "checked": not current})
        elif spec.get("type") == "seat":
            # A player's place: the rows above are numbered the same way.
            current = posted if post else str(spec.get("default") or 0)
            typed = [n.strip() for n in post.getlist("player")] if post else []
            item["kind"] = "seat"
            item["choices"] = [
                {
                    "value": str(seat),
                    # A place is named by the name typed in its row (the page's script follows the typing).
                    "label": (typed[seat] if seat < len(typed) and typed[seat] else "")
                    or _("Player %(n)s") % {"n": seat + 1},
                    "checked": str(seat) == current,
                }
                for seat in range(min(game["players"]["max"], MAX_FORM_PLAYERS))
            ]
        elif spec.get("type") == "bool":
            item["kind"] = "bool"
            item["checked"] = (posted == "on") if post else bool(spec.get("default"))
        else:
            item["kind"] = "int"
            item["value"] = posted if post else ("" if spec.get("default") is None else spec["default"])
        out.append(item)
    return out


def _described(game, lang):
    """Return a game's catalogue entry in ``lang`` with its name in that language (``title``), as the pages show it."""
    return {**game.describe(lang), "title": game.title(lang)}


def _games(lang):
    return [_described(game, lang) for game in GAMES.values()]


def home(request):
    lang = request_lang()
    recent = list(access.my_sheets(request)[:5])
    return render(request, "scoring/home.html", {"games": _games(lang), "recent": recent})


@require_http_methods(["GET", "POST"])
@limit_posts("sheet_create")
def sheet_new(request, slug):
    if slug not in GAMES:
        raise Http404
    lang = request_lang()
    game = _described(GAMES[slug], lang)
    errors, values = [], {}
    if request.method == "POST":
        names = [n for n in request.POST.getlist("player")][: MAX_FORM_PLAYERS * 2]
        values = {"players": names, "post": request.POST}
        players = services.clean_players([n for n in names if n.strip()])
        try:
            options = forms.sheet_options(request.POST, game)
            # The page's form says whether teams are played; team choices left behind a
            # "play in teams" box unticked count for nothing. Other clients send teams only when played.
            in_teams = request.POST.get("play-teams") == "on" or "teams-asked" not in request.POST
            teams = forms.sheet_teams(request.POST, names) if "teams" in game["options"] and in_teams else None
            if teams:
                options["teams"] = teams
            user = request.user if request.user.is_authenticated else None
            created = services.sheet_create(
                game=slug,
                players=players,
                options=options,
                owner_key="" if user else owner_key(request, create=True),
                user=user,
                lang=lang,
            )
        except services.InvalidInput as exc:
            errors = exc.errors
        else:
            return redirect("sheet", created.sheet.pk)
    # The form keeps the names typed on this device, for this browser's identity.
    device.ensure(request)
    post = request.POST if request.method == "POST" else None
    names = values.get("players", [])
    filled = max((i + 1 for i, n in enumerate(names) if n.strip()), default=0)
    rows = [
        {
            "seat": seat,
            "name": names[seat] if seat < len(names) else "",
            "team": post.get(f"team-{seat}", "") if post else "",
            # Rows past the minimum (or past the names typed) wait for "add a player";
            # hiding them here rather than in the script keeps the page from shifting.
            "hidden": seat >= max(game["players"]["min"], filled),
        }
        for seat in range(min(game["players"]["max"], MAX_FORM_PLAYERS))
    ]
    return render(
        request,
        "scoring/new.html",
        {
            "game": game,
            "errors": errors,
            "rows": rows,
            "options": _form_options(game, post),
            "teams": "teams" in game["options"],
            "play_teams": bool(post and post.get("play-teams") == "on"),
            "team_names": [_("Team %(t)s") % {"t": t} for t in "ABCDEF"],
        },
        status=400 if errors else 200,
    )


def _score_rows(players: list[str], result: dict, engine, lang: str) -> list[dict]:
    """Return the table's rows: each round's points, running totals, details, marks and display facts per player.

    A cell's marks (a penalty, a bonus) are the engine's reading of its detail lines.

    A tie-break round decides among the tied and adds to no total: its row shows the
    hands and what they decided, never running totals.
    """
    running = {name: 0 for name in players}
    rows = []
    for number, r in enumerate(result["rounds"], start=1):
        tiebreak = bool(r.get("tiebreak"))
        facts = r.get("facts") or {}
        cells = []
        for name in players:
            if not tiebreak:
                running[name] += r["points"].get(name, 0)
            cells.append(
                {
                    "points": r["points"].get(name),
                    "total": None if tiebreak else running[name],
                    "details": r["details"].get(name, []),
                    "marks": engine.cell_marks(r["details"].get(name, []), lang),
                    "name": name,
                    "facts": facts.get(name) or {},
                    "dealer": r.get("dealer") == name,
                }
            )
        rows.append({"number": number, "cells": cells, "round": r, "tiebreak": tiebreak})
    return rows


def _team_rows(result: dict) -> list[dict]:
    """Return the teams' own table: per round each team's score and its detail, then its total.

    The team score decides and may differ from its members' sum (Num-X scores the
    members' cards together): its detail says how it was counted.
    """
    teams = result.get("teams") or {}
    rows = []
    running = {team: 0 for team in teams}
    for number, r in enumerate(result["rounds"], start=1):
        if r.get("tiebreak") or "teams" not in r:
            continue
        cells = []
        for team, t in teams.items():
            points = r["teams"].get(team)
            if points is None:
                cells.append({"points": None, "name": team})
                continue
            running[team] += points
            members = t["members"]
            own = r.get("team_details", {}).get(team)
            if own is not None:
                head = _("Cards together: %(names)s") % {"names": ", ".join(members)}
                lines = [head, *(d["text"] for d in own)]
            else:
                parts = " + ".join(f"{r['points'][m]} ({m})" for m in members)
                lines = [_("Sum of the members: %(parts)s = %(total)s") % {"parts": parts, "total": points}]
            cells.append({"points": points, "total": running[team], "name": team, "lines": lines})
        rows.append({"number": number, "cells": cells})
    return rows


# A rendered board is kept this long in Django's cache: the watchers' phones fetch it within
# seconds of a round, and a sheet's next version has another key (docs/performance.md).
BOARD_KEEP = 60


def board_key(request, sheet, lang: str, *, can_edit: bool, editing) -> str:
    """Return the cache key of a board: everything its HTML depends on, named.

    The sheet and the version its result belongs to, the release that renders it, the
    language and the time zone (the "kept 48 hours" line's date), whether the reader may edit
    (edit links, the login prompt of an anonymous editor), the round being edited (no round
    in progress is shown then), and the sheet's owner, expiry and the hours the banner says.
    """
    editor = ("editor-user" if request.user.is_authenticated else "editor") if can_edit else "reader"
    expires = int(sheet.expires_at.timestamp()) if sheet.expires_at else 0
    parts = (
        sheet.pk,
        sheet.version,
        release(),
        lang,
        settings.TIME_ZONE,
        editor,
        editing or 0,
        sheet.user_id or 0,
        expires,
        services.anonymous_keep_hours() if expires else 0,
    )
    return "board:" + ":".join(map(str, parts))


def board_html(request, context: dict, lang: str) -> str:
    """Return the score board (the table, the teams' table and the chart), rendered once per key."""
    key = board_key(request, context["sheet"], lang, can_edit=context["can_edit"], editing=context["editing"])
    html = cache.get(key)
    if html is None:
        html = _render_board(request, context)
        # Kept only once the version it shows is committed (a write's own request renders it before).
        keep_after_commit(key, html, BOARD_KEEP)
    return mark_safe(html)


def _render_board(request, context: dict) -> str:
    sheet, result = context["sheet"], context["result"]
    series = chart_series(sheet.players, result)
    cell_template = f"scoring/cells/{context['game']['cell']}.html"
    board = {
        **context,
        "rows": _keyed_rows(_score_rows(sheet.players, result, sheet.engine, request_lang()), context, cell_template),
        "team_rows": _team_rows(result),
        "chart": progression_svg(series),
        "chart_series": series,
        "cell_template": cell_template,
        # A row is named by its content (_keyed_rows): kept as long as a round may last, so a phone
        # landing after a long hand does not draw the earlier rows again.
        "row_keep": FRAGMENT_KEEP,
    }
    return render_to_string("scoring/_board.html", board, request)


def _keyed_rows(rows: list[dict], context: dict, cell_template: str) -> list[dict]:
    """Give each row of the table the key of its HTML: a digest of everything the row shows.

    A row's HTML depends on the row (its round, points, running totals, marks, explanations),
    the sheet (its edit link), whether the reader may edit, the game's cell, its noun for a row
    and whether it has one result for the whole table, the language and the release. Named by
    their digest, a row drawn once is not drawn again for the next version
    (a round added leaves the rows before it as they were), and a key can never name an
    older drawing: the same key is the same HTML, whatever transaction drew it.
    """
    game, entry = context["game"], context["entry"]
    common = [
        context["sheet"].pk,
        context["can_edit"],
        cell_template,
        game.get("round_noun"),
        bool(entry.get("table_result")),
        translation.get_language(),
        release(),
    ]
    for row in rows:
        row["key"] = digest([common, row])
    return rows


def _sheet_context(
    request, sheet, role, *, lang, form_errors=(), form_data=None, posted=None, editing=None, question="", state=None
):
    """Return a sheet page's context; the entry form holds `posted` (a refused round, as sent) or `form_data`.

    Everything the page shows comes from one committed version: ``state`` is
    (result, rounds) as `services.sheet_state` returned them, read here when not given.
    """
    result, datas = state or services.sheet_state(sheet, lang)
    # The cards the sheet's options play (a mode may leave some out): the picker offers only those.
    game = {**_described(GAMES[sheet.game], lang), "cards": sheet.engine.cards_for(sheet.options, lang)}
    players = sheet.players
    # A session's highlight follows its summary's leaders (Adversaire: most games won), else the winners.
    leaders = set(result.get("session_leaders", result["winners"]))
    team_of = {m: t for t, team in (result.get("teams") or {}).items() for m in team["members"]}
    columns = [
        {
            "name": name,
            "seat": seat,
            "total": result["totals"][name],
            "bonus": result["bonuses"].get(name, 0),
            "bonus_details": (result.get("bonus_details") or {}).get(name, []),
            # When teams decide, the team is highlighted (in its own table), not each member.
            "lead": name in leaders,
            "colour": PALETTE[seat % len(PALETTE)],
            "team": team_of.get(name),
        }
        for seat, name in enumerate(players)
    ]
    share_url = request.build_absolute_uri(sheet.share_path())
    next_round = result.get("next_round")
    context = {
        "sheet": sheet,
        "game": game,
        # How this sheet's rounds are entered and shown: the engine's description, never the slug.
        "entry": sheet.engine.entry_form(sheet.options),
        "result": result,
        "columns": columns,
        "has_bonus": any(result["bonuses"].values()),
        "teams": [
            {"name": team, "members": t["members"], "total": t["total"], "lead": team in leaders, "seat": i}
            for i, (team, t) in enumerate((result.get("teams") or {}).items())
        ],
        "can_edit": role == EDITOR,
        "share_url": share_url,
        "qr": qr_svg(share_url) if role == EDITOR else "",
        "next_round": next_round,
        "form_errors": form_errors,
        # The next round's form starts from the round in progress (what the players' phones sent).
        "form": forms.posted_values(sheet, posted)
        if posted is not None
        else forms.form_values(
            sheet, form_data if editing or not sheet.draft else form_data or services.draft_round(sheet)
        ),
        "editing": editing,
        "deck": (result.get("summary") or {}).get("deck"),
        "entry_players": (next_round or {}).get("players") or players,
        "game_json": json.dumps(
            {
                "slug": sheet.game,
                "players": players,
                "options": sheet.options,
                "cards": game["cards"],
                "preview": sheet.engine.preview_options,
            }
        ),
        "question": question,
    }
    entry_players = context["entry_players"]
    context["draft_rows"] = services.draft_rows(sheet, entry_players) if next_round and not editing else []
    context["draft_entered"] = sum(1 for r in context["draft_rows"] if r["entered"])
    bids = [r["entry"]["bid"] for r in context["draft_rows"] if isinstance(r["entry"], dict) and "bid" in r["entry"]]
    context["draft_bids"] = sum(b for b in bids if isinstance(b, int)) if bids else None
    # Every bid in: the hand is being played (Num King's phases); until then, whose bids are awaited.
    context["bids_waiting"] = [
        r["name"] for r in context["draft_rows"] if not (isinstance(r["entry"], dict) and "bid" in r["entry"])
    ]
    context["bids_in"] = bool(context["draft_rows"]) and not context["bids_waiting"]
    # The hand's tricks as the referee resolved them (games with a referee), shown on every phone.
    draft_fields = (sheet.draft or {}).get("fields") or {}
    referee = (
        sheet.engine.draft_referee(players, sheet.options, datas, draft_fields, lang)
        if next_round and not editing
        else None
    )
    context["referee"] = referee
    if referee is not None and role in (EDITOR, PLAYER) and (context["bids_in"] or referee["tricks"]):
        # The sheet's phone and each player's own phone referee the hand (static/js/referee.js;
        # docs/rules.md, « Who may write the hand's tricks »): what they send back with each trick.
        context["referee_data"] = {
            "sheet": sheet.pk,
            "slug": sheet.game,
            "players": players,
            "options": sheet.options,
            "number": next_round["number"],
            "version": sheet.version,
            "cards": referee["cards"],
            "fields": draft_fields,
            "next_leader": referee["next_leader"],
            "first_leader": referee["first_leader"],
            "urls": {
                "draft": reverse("api-draft", args=[sheet.pk]),
                # Trick n of the hand is stored at this address followed by "n/".
                "tricks": reverse("api-draft", args=[sheet.pk]) + "tricks/",
                "trick": reverse("api-trick", args=[sheet.game]),
            },
        }
    context["entry_values"] = _entry_values(context)
    if role == EDITOR and next_round and not editing:
        context["seat_links"] = [
            {"name": name, "url": request.build_absolute_uri(sheet.seat_path(sheet.players.index(name)))}
            for name in entry_players
        ]
    context["board"] = board_html(request, context, lang)
    if role == EDITOR:
        context["sheet_data"] = _sheet_data(request, sheet, game, result, datas, lang, editing)
    return context


def _entry_values(context: dict) -> dict:
    """Return what the entry form shows, and all it may read (the `{% kept %}` tag draws it once per content).

    Built from the page's context once its round is settled: the next round's, or the one
    being edited (`round_edit`), so a phone landing on the next round's empty form does not
    draw it again and an edited round's form is that round's.
    """
    sheet = context["sheet"]
    return {
        "sheet": {"pk": sheet.pk, "players": sheet.players},
        "game": context["game"],
        "entry": context["entry"],
        "entry_players": context["entry_players"],
        "form": context["form"],
        "next_round": {"cards": (context["next_round"] or {}).get("cards")},
        "editing": context["editing"],
        "deck": context["deck"],
        "referee": context.get("referee"),
        "referee_data": context.get("referee_data"),
    }


def _sheet_data(request, sheet, game: dict, result: dict, datas: list, lang: str, editing: int | None) -> dict:
    """Return what the page's script needs to keep drafts and score rounds waiting for the network.

    Sent as a JSON data block (`<script type="application/json">`, never run): the
    stored rounds, so that a round saved offline can be scored on the phone with
    the rest of the game, and the engine's rule of what an empty round is.
    """
    return {
        "id": sheet.pk,
        "version": sheet.version,
        "game": sheet.game,
        "entry": game["entry"],
        "players": sheet.players,
        "options": sheet.options,
        "rounds": datas,
        "round_count": sheet.round_count,
        "next_round": result.get("next_round"),
        # How many rounds the game deals in all (Num King), for the next round's title offline.
        "schedule": result.get("schedule"),
        "finished": result["finished"],
        "editing": editing,
        "lang": lang,
        "urls": {
            "page": sheet.page_path(),
            "rounds": reverse("api-rounds", args=[sheet.pk]),
            "round": reverse("api-round", args=[sheet.pk, editing]) if editing else "",
        },
    }


def _asked(exc: services.InvalidInput, sheet) -> tuple[str, list[dict]]:
    """Return what a refused round asks first (nothing entered: "save anyway?"), and what is wrong with it."""
    asked = [e["message"] for e in exc.errors if e.get("code") == "empty_round"]
    if asked:
        return asked[0], []
    return "", services.name_players(exc.errors, sheet.players)


def sheet_page(request, sheet_id):
    token = request.GET.get("edit")
    if token is not None:
        grant_edit_link(request, sheet_id, token)
    sheet, role = get_sheet(request, sheet_id, write=False)
    if role != EDITOR:
        raise Http404
    if token is not None:
        # Whatever the token was, the address bar and the history keep the bare address.
        return redirect("sheet", sheet.pk)
    context = _sheet_context(request, sheet, role, lang=request_lang())
    context["undone"] = _undone(request, sheet)
    return render(request, "scoring/sheet.html", context)


def sheet_watch(request, sheet_id, token):
    sheet, role = get_sheet(request, sheet_id, write=False, share=token)
    # The page changes with the sheet and with the language (a browser revalidating
    # after the language switch must not be told its French copy is current).
    # Compared weakly (RFC 9110): GZipMiddleware sends the ETag of a compressed page as W/"…".
    if request.headers.get("If-None-Match", "").removeprefix("W/") == _watch_etag(sheet):
        return HttpResponseNotModified()

    lang = request_lang()
    if request.GET.get("fragment"):
        # The watchers' poll after a round: the board of this version, as the first of them had it drawn.
        kept = cache.get(board_key(request, sheet, lang, can_edit=role == EDITOR, editing=None))
        board = kept if kept is not None else _sheet_context(request, sheet, role, lang=lang)["board"]
        response = HttpResponse(board)
    else:
        response = render(request, "scoring/watch.html", _sheet_context(request, sheet, role, lang=lang))
    patch_vary_headers(response, ("Cookie",))  # the session and the language cookie change the page
    response["ETag"] = _watch_etag(sheet)  # rendering may have moved `sheet` to a newer version
    response["Cache-Control"] = "no-cache"
    return response


def _watch_etag(sheet) -> str:
    return f'"{sheet.version}-{request_lang()}"'


@require_http_methods(["GET", "POST"])
@limit_posts("round_write")
def seat_entry(request, sheet_id, seat, token):
    """A player's own phone: the sheet, live, and their own entry of the round in progress."""
    sheet = access.get_seat_sheet(sheet_id, seat, token)
    lang = request_lang()
    name = sheet.players[seat]
    errors, late = [], None
    if request.method == "POST":
        number = request.POST.get("number", "")
        try:
            entry = forms.seat_entry(request.POST, sheet, seat)
            services.draft_entry_put(sheet=sheet, player=name, entry=entry, lang=lang, number=parse_int(number))
        except services.InvalidInput as exc:
            errors = exc.errors
        except services.DraftMoved as exc:  # the page says it in its own words, beside the next round's form
            late = exc.current
        else:
            messages.success(request, _("Your entry is in."))
            return redirect(request.path)
    context = _sheet_context(request, sheet, access.PLAYER, lang=lang, form_errors=errors)
    players_now = context["entry_players"]
    context.update(
        {
            "me": name,
            "seat": seat,
            "playing": name in players_now,
            "mine": (sheet.draft.get("entries") or {}).get(name) if sheet.draft else None,
            "late": late,
            "watch_url": sheet.share_path() + "?fragment=1",
            "entry_players": [name],
        }
    )
    if context.get("referee_data"):
        context["referee_data"]["auth"] = {"X-Seat-Token": token}  # the trick is stored as this player's phone
    if request.method == "POST" and errors:
        context["form"] = forms.posted_values(sheet, request.POST)
    response = render(request, "scoring/seat.html", context, status=400 if errors else 409 if late else 200)
    # The phone's service worker may keep it (for a player opening their link offline); caches in between may not.
    response["Cache-Control"] = "private, no-cache"
    return response


@require_POST
@limit_posts("round_write")
def draft_save(request, sheet_id):
    """Keep the entry form as the round in progress (e.g. the bids, announced before the hand)."""
    sheet, role = get_sheet(request, sheet_id, write=True)
    lang = request_lang()
    number = request.POST.get("number", "")
    only = {"bid"} if request.POST.get("step") == "bids" else None
    try:
        if request.POST.get("clear"):
            services.draft_clear(sheet=sheet, lang=lang)
        else:
            entries = dict((sheet.draft or {}).get("entries") or {})
            for seat, name in enumerate(sheet.players):
                entry = forms.seat_entry(request.POST, sheet, seat)
                if only is not None:
                    entry = {**(entries.get(name) or {}), **{k: v for k, v in entry.items() if k in only}}
                if entry:
                    entries[name] = entry
            fields = {
                k: v
                for k, v in forms.round_data(request.POST, sheet, complete=False).items()
                if k in sheet.engine.draft_fields
            }
            # The hand's tricks (the referee's) are not in the form: they stay as stored.
            services.draft_put(
                sheet=sheet, entries=entries, fields=fields, lang=lang, number=parse_int(number), keep_own_fields=True
            )
    except services.InvalidInput as exc:
        context = _sheet_context(request, sheet, role, lang=lang, form_errors=exc.errors, posted=request.POST)
        return render(request, "scoring/sheet.html", context, status=400)
    except ServiceError as exc:
        tell_refused(request, exc)
    else:
        messages.success(request, _("Bids saved: every phone sees them.") if only else _("Entries kept."))
    return redirect(reverse("sheet", args=[sheet.pk]) + "#entry")


@require_POST
@limit_posts("round_write")
def round_add(request, sheet_id):
    sheet, role = get_sheet(request, sheet_id, write=True)
    lang = request_lang()
    try:
        # The round the page meant to add; without a readable one, the round is added at the end.
        number = parse_int(request.POST.get("number", ""))
        services.round_add(sheet=sheet, data={"form": forms.posted_form(request.POST)}, lang=lang, number=number)
    except services.InvalidInput as exc:
        # Nothing stored: the page says what is wrong, or asks first (the same form answers "save anyway").
        question, errors = _asked(exc, sheet)
        context = _sheet_context(
            request, sheet, role, lang=lang, form_errors=errors, posted=request.POST, question=question
        )
        return render(request, "scoring/sheet.html", context, status=400)
    except ServiceError as exc:
        tell_refused(request, exc)
    return redirect(reverse("sheet", args=[sheet.pk]) + "#totals")


@require_http_methods(["GET", "POST"])
@limit_posts("round_write")
def round_edit(request, sheet_id, number):
    sheet, role = get_sheet(request, sheet_id, write=True)
    lang = request_lang()
    state = services.sheet_state(sheet, lang)
    datas = state[1]
    if not 1 <= number <= len(datas):
        raise Http404
    data, errors, question = datas[number - 1], [], ""
    if request.method == "POST":
        try:
            version = parse_int(request.POST.get("version", ""))
            form = {"form": forms.posted_form(request.POST)}
            services.round_edit(sheet=sheet, number=number, data=form, lang=lang, if_version=version)
        except services.InvalidInput as exc:
            question, errors = _asked(exc, sheet)
        except ServiceError as exc:
            tell_refused(request, exc)
            return redirect("round-edit", sheet.pk, number)
        else:
            messages.success(request, _("Round %(n)d saved.") % {"n": number})
            return redirect(reverse("sheet", args=[sheet.pk]) + "#totals")
    posted = request.POST if errors or question else None
    context = _sheet_context(
        request,
        sheet,
        role,
        lang=lang,
        form_errors=errors,
        form_data=data,
        posted=posted,
        editing=number,
        question=question,
        state=state,
    )
    scored = context["result"]["rounds"][number - 1]
    entries = data.get("entries") or {}
    context["next_round"] = {
        "number": number,
        "cards": scored.get("cards"),  # the cards dealt, where the game deals a number per round
        "players": [p for p in sheet.players if p in entries] or sheet.players,
        "tiebreak": scored.get("tiebreak", False),
    }
    context["entry_players"] = context["next_round"]["players"]
    context["entry_values"] = _entry_values(context)  # the edited round's form, not the next one's
    return render(request, "scoring/edit.html", context, status=400 if errors or question else 200)


UNDONE_KEY = "undone"


def _undone(request, sheet) -> dict | None:
    """Return the round this browser just removed from this sheet, for the toast that offers it back (once)."""
    undone = request.session.get(UNDONE_KEY)
    if not undone or undone.get("sheet") != sheet.pk:
        return None
    del request.session[UNDONE_KEY]
    return undone


@require_POST
@limit_posts("round_write")
def round_undo(request, sheet_id):
    """Remove the last round without asking; the sheet then offers "Restore" (the round, signed, in the form)."""
    sheet, _role = get_sheet(request, sheet_id, write=True)
    # The round removed is the last one of the version the page showed, never a later one.
    shown = parse_int(request.POST.get("version", ""))
    datas = services.stored_rounds(sheet)
    if datas:
        number, data = len(datas), datas[-1]
        try:
            after = services.round_delete(
                sheet=sheet, number=number, lang=request_lang(), if_version=sheet.version if shown is None else shown
            )
        except VersionMismatch:
            messages.error(
                request, _("The sheet changed on another phone: no round was removed. Here it is as it is now.")
            )
        except ServiceError as exc:
            tell_refused(request, exc)
        else:
            # Good once, for the version the removal made (scoring/tokens.py).
            token = tokens.restore_token(sheet.pk, number, data, after.version)
            request.session[UNDONE_KEY] = {"sheet": sheet.pk, "number": number, "token": token}
    return redirect(reverse("sheet", args=[sheet.pk]) + "#totals")


@require_POST
@limit_posts("round_write")
def round_restore(request, sheet_id):
    """Put back the round the toast offers, with the same entries and number, unless the sheet changed since."""
    sheet, _role = get_sheet(request, sheet_id, write=True)
    removed = tokens.restore_token_round(sheet.pk, request.POST.get("token", ""))
    if removed is None:
        messages.error(request, _("This round can no longer be restored."))
        return redirect("sheet", sheet.pk)
    number, data, version = removed
    try:
        services.round_restore(sheet=sheet, number=number, data=data, version=version, lang=request_lang())
    except ServiceError as exc:  # the sheet changed since, or the round is back already
        tell_refused(request, exc)
    else:
        messages.success(request, _("Round %(n)d restored.") % {"n": number})
    return redirect(reverse("sheet", args=[sheet.pk]) + "#totals")


@require_POST
def links_renew(request, sheet_id):
    """End the sheet's share, entry and claim links at once (they were passed too far): the page shows new ones."""
    sheet, _role = get_sheet(request, sheet_id, write=True)
    services.links_renew(sheet=sheet)
    messages.success(request, _("New links: the old ones no longer open this sheet."))
    return redirect(reverse("sheet", args=[sheet.pk]) + "#share-box")


@require_POST
@limit_posts("sheet_create")
def rematch(request, sheet_id):
    sheet, _role = get_sheet(request, sheet_id, write=True)
    user = request.user if request.user.is_authenticated else None
    try:
        created = services.sheet_rematch(
            sheet=sheet, owner_key="" if user else owner_key(request, create=True), user=user, lang=request_lang()
        )
    except ServiceError as exc:  # a name an older rule let through: the new sheet needs it retyped
        tell_refused(request, exc)
        return redirect("sheet", sheet.pk)
    return redirect("sheet", created.sheet.pk)


def my_sheets(request):
    sheets = services.played_at(access.my_sheets(request)).order_by("-played_at", "-created_at")
    sheets = services.with_lines(sheets.prefetch_related("seats")[:200], request_lang())
    return render(request, "scoring/my_sheets.html", {"sheets": sheets})


def rules(request, slug):
    if slug not in GAMES:
        raise Http404
    lang = request_lang()
    # The worked examples are computed by the engine now: the page cannot drift from the scoring.
    engine = GAMES[slug]
    return render(request, "scoring/rules.html", {"game": _described(engine, lang), "sections": engine.reference(lang)})
