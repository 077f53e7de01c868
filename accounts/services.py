"""Account use cases: standings, seats, profile, export, deletion, and the queries of the account pages.

The account pages (accounts/views.py) ask here for what they show; they run no query
of their own. Scoring never calls this module: it announces stored seats with the
`scoring.signals.seats_scored` signal, and accounts/signals.py recounts the standings.
"""

import csv
import hashlib
import io
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import Case, Count, F, IntegerField, JSONField, Max, Min, Q, Subquery, Sum, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from accounts import players as table
from accounts.models import Profile, Rating, SeatAnswer, Standing, TableName, TablePlayer
from scoring import tokens
from scoring.exceptions import InvalidInput, PlayerNotFound, SeatTaken
from scoring.games import GAMES
from scoring.games.names import NameRefused, clean_name
from scoring.models import Player, Sheet, deleted_keep
from scoring.services import played_at
from web.cache import keep_after_commit
from web.parsing import same_token
from web.release import release

ALL = "all"
BOARD_SIZE = 50


def profile_of(user) -> Profile:
    """Return the user's profile, creating the private default one on first use."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def standings_recount(*, user_ids, game: str) -> None:
    """Recount these users' standings in `game` from their seats on finished, owned sheets.

    Writes to different sheets of one account may run at the same moment: each
    recount first locks the users' rows (in id order, so two recounts never wait
    on each other in a cycle), then reads the seats as committed by whoever held
    the lock before, then upserts. The last recount therefore always sees every
    committed seat, and none can fail on the unique (user, game, period).
    """
    user_ids = sorted({u for u in user_ids if u})
    if not user_ids:
        return
    with transaction.atomic():
        # NO KEY UPDATE: rows that merely reference the user (seats, standings) are not blocked.
        list(get_user_model().objects.select_for_update(no_key=True).filter(pk__in=user_ids).order_by("pk"))
        rows = _standing_rows(user_ids, game)
        profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in=user_ids)}
        Standing.objects.bulk_create(
            [
                Standing(
                    user_id=user_id,
                    game=game,
                    period=period,
                    **row,
                    public=bool(profiles.get(user_id) and profiles[user_id].public and profiles[user_id].display_name),
                    name=profiles[user_id].display_name if user_id in profiles else "",
                )
                for (user_id, period), row in rows.items()
            ],
            update_conflicts=True,
            unique_fields=["user", "game", "period"],
            update_fields=["games", "wins", "best", "public", "name"],
        )
        # Periods a user no longer has a game in.
        stale = Q()
        for user_id in user_ids:
            stale |= Q(user_id=user_id) & ~Q(period__in=[period for (u, period) in rows if u == user_id])
        Standing.objects.filter(stale, game=game).delete()


def _standing_rows(user_ids: list[int], game: str) -> dict[tuple[int, str], dict]:
    seats = Player.objects.filter(
        user_id__in=user_ids, sheet__game=game, sheet__user__isnull=False, sheet__deleted_at__isnull=True
    )
    engine = GAMES[game]
    if not engine.session:  # a session is never finished: each of its games counts
        seats = seats.filter(sheet__finished=True)
    lowest_wins = engine.wins == "lowest"
    rows: dict[tuple[int, str], dict] = {}
    for user_id, total, winner, records, created in seats.values_list(
        "user_id", "total", "winner", "records", "sheet__created_at"
    ):
        games, wins = engine.seat_games(winner, records)
        # Months as the players live them (TIME_ZONE), like the pages ask for them.
        for period in (ALL, timezone.localtime(created).strftime("%Y-%m")):
            row = rows.setdefault((user_id, period), {"games": 0, "wins": 0, "best": None})
            row["games"] += games
            row["wins"] += wins
            if row["best"] is None or (total < row["best"] if lowest_wins else total > row["best"]):
                row["best"] = total
    return rows


def seat_attach(*, sheet: Sheet, seat: int, user, take_over: bool = False) -> Player:
    """Attach a seat to `user` (their "me" at this table); one seat per user per sheet.

    A seat another account holds changes hands only with `take_over` (the person was
    asked, or the sheet's owner chose it): otherwise SeatTaken, nothing changed. Checked
    under the seat's lock, so a page drawn while the seat was free cannot take it.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().get(sheet=sheet, seat=seat)
        if player.user_id not in (None, user.pk) and not take_over:
            raise SeatTaken()
        Player.objects.filter(sheet=sheet, user=user).exclude(seat=seat).update(user=None)
        previous = player.user_id
        player.user = user
        player.save(update_fields=["user"])
        standings_recount(user_ids={user.pk, previous}, game=sheet.game)
    return player


def profile_update(*, user, display_name: str, public: bool) -> Profile:
    """Save the public name and the opt-in; the user's standings follow at once.

    The name follows the names rule (scoring/games/names.py); a blank name clears it,
    unless the player asks to be public. InvalidInput says what is wrong, nothing saved.
    """
    if public and not display_name.strip():
        raise InvalidInput.one("display_name", "required", _("Choose a public name to appear on the leaderboards."))
    try:
        name = clean_name(display_name) if display_name.strip() else ""
    except NameRefused as exc:
        raise InvalidInput.one("display_name", exc.code, _name_refused(exc)) from None
    profile = profile_of(user)
    profile.display_name = name
    profile.public = public and bool(profile.display_name)
    profile.save()
    Standing.objects.filter(user=user).update(public=profile.public, name=profile.display_name)
    return profile


def display_name_check(display_name: str) -> str:
    """Return the display name as it would be kept ("" when blank); InvalidInput says why it is refused."""
    try:
        return clean_name(display_name) if display_name.strip() else ""
    except NameRefused as exc:
        raise InvalidInput.one("display_name", exc.code, _name_refused(exc)) from None


def _name_refused(exc: NameRefused) -> str:
    """Return why the public name is refused, naming the field."""
    if exc.code == "control":
        return _("Public name “%(name)s”: it holds an invisible or control character (%(char)s); remove it.") % {
            "name": exc.params["name"],
            "char": exc.params["char"],
        }
    return _("The public name is at most 40 characters.")


def sheet_delete(*, sheet: Sheet) -> bool:
    """Delete a sheet for every reader, restorable for DELETED_SHEET_KEEP; standings and the table's ratings follow.

    The rows stay until the purge (scoring/models.py purge_expired) removes them
    for good once the restore window has passed. Return False if it was deleted already.
    """
    users = set(sheet.seats.exclude(user=None).values_list("user_id", flat=True))
    with transaction.atomic():
        # A new version: the figures kept for the account's sheets (`_sheets_stamp`) are left behind.
        done = Sheet.objects.filter(pk=sheet.pk, deleted_at__isnull=True).update(
            deleted_at=timezone.now(), version=F("version") + 1
        )
        standings_recount(user_ids=users, game=sheet.game)
        if done and sheet.finished:
            ratings_recount(owner_id=sheet.user_id, game=sheet.game)
    return bool(done)


def sheet_restore(*, sheet: Sheet) -> bool:
    """Bring back a sheet its owner deleted, if still in the restore window; standings and the table's ratings follow.

    Return False when it is no longer restorable (restored already, or past the window).
    """
    users = set(sheet.seats.exclude(user=None).values_list("user_id", flat=True))
    with transaction.atomic():
        done = (
            Sheet.objects.restorable(sheet.user_id)
            .filter(pk=sheet.pk)
            .update(deleted_at=None, version=F("version") + 1)
        )
        standings_recount(user_ids=users, game=sheet.game)
        if done and sheet.finished:
            ratings_recount(owner_id=sheet.user_id, game=sheet.game)
    return bool(done)


def account_delete(*, user) -> None:
    """Delete the account and everything it owns; its seats on others' sheets are freed."""
    games = set(Player.objects.filter(user=user).values_list("sheet__game", flat=True))
    others = set(
        Player.objects.filter(sheet__user=user)
        .exclude(user=None)
        .exclude(user=user)
        .values_list("user_id", "sheet__game")
    )
    with transaction.atomic():
        user.delete()  # cascades to owned sheets, their rows, profile and standings
        for game in games | {g for _, g in others}:
            standings_recount(user_ids={u for u, g in others if g == game}, game=game)


def export_rows(user):
    """Yield one row per seat of every sheet the user owns, for CSV, with the player of « Mes joueurs » it is."""
    yield [
        "sheet",
        "game",
        "created_at",
        "finished",
        "rounds",
        "seat",
        "player",
        "total",
        "winner",
        "table_player_id",
        "table_player",
    ]
    player_of = _player_of(user.pk)
    for sheet in Sheet.objects.alive().filter(user=user).order_by("created_at").prefetch_related("seats"):
        for seat in sheet.seats.all():
            pid, shown = player_of.get(seat.name, (None, ""))
            yield [
                sheet.pk,
                sheet.game,
                sheet.created_at.isoformat(),
                sheet.finished,
                sheet.round_count,
                seat.seat + 1,
                seat.name,
                seat.total,
                seat.winner,
                pid or "",
                shown,
            ]


# Columns holding text a person typed; the others are ids, slugs, dates and numbers
# that must stay as they are to match the sheets (an id may start with "-").
CSV_USER_TEXT = {"player", "table_player", "name", "names"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def export_csv(user, rows=None) -> str:
    """Return the user's seats (or other `rows`, header first) as CSV, with typed names kept from running as formulas."""
    out = io.StringIO()
    writer = csv.writer(out)
    rows = iter(rows) if rows is not None else export_rows(user)
    header = next(rows)
    writer.writerow(header)
    guarded = {i for i, name in enumerate(header) if name in CSV_USER_TEXT}
    for row in rows:
        # A spreadsheet runs a cell starting with = + - @ (or tab, CR) as a formula.
        writer.writerow(
            [
                f"'{v}" if i in guarded and isinstance(v, str) and v.startswith(FORMULA_STARTS) else v
                for i, v in enumerate(row)
            ]
        )
    return out.getvalue()


def export_json(user) -> list[dict]:
    """Return every sheet the user owns, with its rounds, and the player of « Mes joueurs » each seat is."""
    player_of = _player_of(user.pk)
    sheets = Sheet.objects.alive().filter(user=user).order_by("created_at").prefetch_related("seats", "rounds")
    return [
        {
            "id": s.pk,
            "game": s.game,
            "created_at": s.created_at.isoformat(),
            "finished": s.finished,
            "players": s.players,
            "options": s.options,
            "rounds": [r.data for r in s.rounds.all()],
            "totals": {p.name: p.total for p in s.seats.all()},
            "winners": [p.name for p in s.seats.all() if p.winner],
            "table_players": {p.name: player_of[p.name][0] for p in s.seats.all() if p.name in player_of},
        }
        for s in sheets
    ]


# The account pages' queries.


def restore_days() -> int:
    """Return for how many days a deleted sheet stays restorable."""
    return deleted_keep().days


def history_sheets(user, *, game: str = "", state: str = ""):
    """Return the user's live sheets, most recently played first (at most 200), of one game and state if asked.

    Each has `played_at` (scoring.services.played_at): a claim at login touches the
    sheet, not when it was played.
    """
    sheets = played_at(Sheet.objects.alive().filter(user=user)).prefetch_related("seats")
    if game in GAMES:
        sheets = sheets.filter(game=game)
    if state == "finished":
        sheets = sheets.filter(finished=True)
    elif state == "ongoing":
        sheets = sheets.filter(finished=False)
    return sheets.order_by("-played_at", "-created_at")[:200]


def deleted_sheets(user):
    """Return the sheets the user deleted that can still be restored (at most 50)."""
    return Sheet.objects.restorable(user).prefetch_related("seats")[:50]


def owned_sheet(user, sheet_id: str, *, deleted_too: bool = False) -> Sheet | None:
    """Return the user's own sheet `sheet_id` (live, or deleted too), or None."""
    sheets = Sheet.objects.all() if deleted_too else Sheet.objects.alive()
    return sheets.filter(pk=sheet_id, user=user).first()


def seat_holder(sheet: Sheet, seat: int) -> int | None:
    """Return the id of the account holding this seat, or None."""
    return Player.objects.filter(sheet=sheet, seat=seat).values_list("user_id", flat=True).first()


def seat_to_claim(sheet_id: str, seat: int, token) -> Sheet | None:
    """Return the owned live sheet whose seat `seat` the claim `token` opens, while its claim links live, or None."""
    sheet = Sheet.objects.alive().filter(pk=sheet_id, user__isnull=False).first()
    if sheet is None or seat >= len(sheet.players):
        return None
    if not tokens.claim_token_matches(sheet_id, seat, token, sheet.links_epoch):
        return None
    if not tokens.claim_link_live(sheet):
        return None
    return sheet


def visible_profile(user_id: int, viewer) -> Profile | None:
    """Return the profile of `user_id` if `viewer` may see their stats (their own, or made public), else None."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return None
    profile = profile_of(user)
    if not (viewer.is_authenticated and viewer.pk == user_id) and not profile.public:
        return None
    return profile


def player_stats(user_id: int, lang: str) -> list[dict]:
    """Return a player's results per game on owned sheets: games, wins, average, best, records, results in order."""
    seats = Player.objects.filter(user_id=user_id, sheet__user__isnull=False, sheet__deleted_at__isnull=True)
    per_game = []
    for slug, game in GAMES.items():
        # A session is a sheet the rules never finish: each of its games counts.
        mine = seats.filter(sheet__game=slug) if game.session else seats.filter(sheet__game=slug, sheet__finished=True)
        agg = mine.aggregate(
            games=Count("id"),
            wins=Count("id", filter=Q(winner=True)),
            total_sum=Sum("total"),
            high=Max("total"),
            low=Min("total"),
        )
        if not agg["games"]:
            continue
        records = game.record_lines(game.combine_records(mine.values_list("records", flat=True)), lang)
        results = list(mine.order_by("sheet__created_at").values_list("total", flat=True)[:100])
        per_game.append(
            {
                "slug": slug,
                "name": game.title(lang),
                "session": game.session,
                "games": agg["games"],
                "wins": agg["wins"],
                "win_rate": round(100 * agg["wins"] / agg["games"], 1),
                "average": round(agg["total_sum"] / agg["games"], 1),
                "best": agg["low"] if game.wins == "lowest" else agg["high"],
                "records": records,
                "results": [] if game.session else results,
                "tables": game.session_rates(mine.values_list("sheet__players", "sheet__options", "records"), lang),
            }
        )
    return per_game


def board_min_games() -> int:
    """Return how many games a public player needs before the global leaderboards rank them (LEADERBOARD_MIN_GAMES)."""
    return settings.LEADERBOARD_MIN_GAMES


def public_board(slug: str, *, month: bool) -> list[dict]:
    """Return the global leaderboard of a game (public standings with enough games, all time or this month), ranked by wins then games."""
    period = timezone.localtime().strftime("%Y-%m") if month else ALL
    return [
        {
            "name": name,
            "games": games,
            "wins": wins,
            "best": best,
            "user_id": user_id,
            "win_rate": round(100 * wins / games, 1) if games else 0,
        }
        for name, games, wins, best, user_id in Standing.objects.filter(
            game=slug, period=period, public=True, games__gte=board_min_games()
        )
        .order_by("-wins", "-games", "name")
        .values_list("name", "games", "wins", "best", "user_id")[:BOARD_SIZE]
    ]


def table_board(user, slug: str, *, month: bool) -> list[dict]:
    """Return « Ma table »: the players of my tables (« Mes joueurs », names merged as the account says), ranked by wins then games.

    The database groups the seats by name; the names are then gathered into their players,
    with each player's rating in the game. A session holds many games: its seat's records
    count them. Four queries, whatever the number of games.
    """
    game = GAMES[slug]
    seats = Player.objects.filter(sheet__user=user, sheet__game=slug, sheet__deleted_at__isnull=True)
    if not game.session:
        seats = seats.filter(sheet__finished=True)
    if month:
        start = timezone.localtime().replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        seats = seats.filter(sheet__created_at__gte=start)
    if game.session:
        counted = {
            "games": Coalesce(Sum(Cast(KT("records__games"), IntegerField())), 0),
            "wins": Coalesce(Sum(Cast(KT("records__wins"), IntegerField())), 0),
        }
    else:
        counted = {
            "games": Count("id"),
            "wins": Count("id", filter=Q(winner=True)),
            "best": Min("total") if game.wins == "lowest" else Max("total"),
        }
    player_of = _player_of(user.pk)
    ratings = _ratings(user.pk, game=slug)
    lowest = game.wins == "lowest"
    rows: dict = {}
    for r in seats.order_by().values("name").annotate(**counted):
        pid, shown = player_of.get(r["name"], (None, r["name"]))
        row = rows.setdefault(
            pid or ("name", r["name"]), {"name": shown, "id": pid, "games": 0, "wins": 0, "best": None}
        )
        row["games"] += r["games"]
        row["wins"] += r["wins"]
        best = r.get("best")
        if best is not None and (row["best"] is None or (best < row["best"] if lowest else best > row["best"])):
            row["best"] = best
    out = sorted(rows.values(), key=lambda r: (-r["wins"], -r["games"], r["name"].casefold()))[:BOARD_SIZE]
    for r in out:
        r["win_rate"] = round(100 * r["wins"] / r["games"], 1) if r["games"] else 0
        r["rating"] = ratings.get(r["id"])
    return out


# « Mes joueurs »: the people of the account's tables, recognised by name across its sheets.


def accounts_lock(user_ids) -> None:
    """Hold these accounts' rows (NO KEY UPDATE, in id order, one statement) to the end of the transaction."""
    ids = sorted({u for u in user_ids if u})
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk"))


def _lock_owner(user_id: int) -> None:
    """Hold the account's row (NO KEY UPDATE) to the end of the transaction: its players change one writer at a time."""
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user_id))


def _player_of(user_id: int) -> dict:
    """Return every name of the account's sheets it recognised: {name as typed: (player id, name shown)}."""
    return {
        name: (pid, shown)
        for name, pid, shown in TableName.objects.filter(owner_id=user_id).values_list(
            "name", "player_id", "player__name"
        )
    }


def _rating_row(mu: float, sigma: float, games: int) -> dict:
    return {"mu": round(mu, 2), "sigma": round(sigma, 2), "games": games, "text": table.rating_text(mu, sigma)}


def _ratings(user_id: int, *, game: str | None = None, player_id: int | None = None) -> dict:
    """Return the table's ratings: {player id: rating} for one game, or {(player id, game): rating}."""
    rows = Rating.objects.filter(player__owner_id=user_id)
    if game is not None:
        rows = rows.filter(game=game)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    found = rows.values_list("player_id", "game", "mu", "sigma", "games")
    if game is not None:
        return {pid: _rating_row(mu, sigma, n) for pid, _g, mu, sigma, n in found}
    return {(pid, g): _rating_row(mu, sigma, n) for pid, g, mu, sigma, n in found}


def players_register(*, user_id: int, sheet_ids) -> None:
    """Recognise the names of these sheets of the account among its players.

    A name seen before stays with its player; a new spelling joins the player its folded
    key belongs to (« lea » after « Léa »), or starts a player of its own. Two names of one
    sheet that fold alike (« Léa » and « Lea » at one table) are two people: the second
    starts its own player.
    """
    seats = list(
        Player.objects.filter(sheet_id__in=list(sheet_ids), sheet__user_id=user_id)
        .order_by("sheet_id", "seat")
        .values_list("sheet_id", "name")
    )
    if not seats:
        return
    with transaction.atomic():
        _lock_owner(user_id)
        known = dict(
            TableName.objects.filter(owner_id=user_id, name__in={n for _s, n in seats}).values_list("name", "player_id")
        )
        by_key: dict = {}
        for key, pid, shown in (
            TableName.objects.filter(owner_id=user_id, key__in={table.fold(n) for _s, n in seats})
            .order_by("player_id")
            .values_list("key", "player_id", "player__name")
        ):
            ids = by_key.setdefault(key, [])
            if pid not in ids:
                # The player whose shown name is this key comes first: « Léa » before a split-off « LEA ».
                ids.insert(0 if table.fold(shown) == key else len(ids), pid)
        by_sheet: dict = {}
        for sheet_id, name in seats:
            by_sheet.setdefault(sheet_id, []).append(name)
        for names in by_sheet.values():
            used = {known[n] for n in names if n in known}
            for name in names:
                if name in known:
                    continue
                key = table.fold(name)
                pid = next((p for p in by_key.get(key, []) if p not in used), None)
                if pid is None:
                    pid = TablePlayer.objects.create(owner_id=user_id, name=name).pk
                    by_key.setdefault(key, []).append(pid)
                TableName.objects.create(owner_id=user_id, name=name, key=key, player_id=pid)
                known[name] = pid
                used.add(pid)


def own_seat_take(*, user_id: int, sheet_ids) -> set:
    """Give the account its own seat on these sheets of its own: the seat named like its display name.

    Case and accents are ignored (« lea » is Léa's). A sheet where the account holds a
    seat already, or whose matching seat another account holds, is left as it is. Return
    the games of the sheets where a seat was taken (their standings are recounted).
    """
    profile = Profile.objects.filter(user_id=user_id).first()
    if profile is None or not profile.display_name:
        return set()
    key = table.fold(profile.display_name)
    sheet_ids = list(sheet_ids)
    held = set(Player.objects.filter(sheet_id__in=sheet_ids, user_id=user_id).values_list("sheet_id", flat=True))
    taken_games = set()
    for pk, sheet_id, name, game in Player.objects.filter(
        sheet_id__in=sheet_ids, sheet__user_id=user_id, user__isnull=True
    ).values_list("pk", "sheet_id", "name", "sheet__game"):
        if sheet_id in held or table.fold(name) != key:
            continue
        if Player.objects.filter(pk=pk, user__isnull=True).update(user_id=user_id):
            held.add(sheet_id)
            taken_games.add(game)
    for game in taken_games:
        standings_recount(user_ids=[user_id], game=game)
    return taken_games


def sheets_entered(*, user_id: int, sheet_ids) -> None:
    """Sheets entered the account (made logged in, claimed, saved): recognise their players, take its seat, rate them.

    Runs in the transaction that gave the sheets (the `sheets_owned` signal).
    """
    sheet_ids = list(sheet_ids)
    players_register(user_id=user_id, sheet_ids=sheet_ids)
    own_seat_take(user_id=user_id, sheet_ids=sheet_ids)
    linked_seats_take(owner_id=user_id, sheet_ids=sheet_ids)
    finished = set(
        Sheet.objects.filter(pk__in=sheet_ids, user_id=user_id, finished=True).values_list("game", flat=True)
    )
    for game in finished:
        ratings_recount(owner_id=user_id, game=game)


def _sides(engine, options, seats, player_of) -> list:
    """Return a finished sheet's sides as the ratings count them: [(player ids, place)], each player once."""
    seen: set = set()
    sides = []
    for members, place in engine.ranked_sides(options, seats):
        ids = [player_of[m] for m in members if m in player_of and player_of[m] not in seen]
        seen.update(ids)
        sides.append((ids, place))
    return sides


def _rate_last(owner_id: int, game: str, engine, finished, sheet_id: str) -> bool:
    """Rate a sheet that just finished onto the kept ratings, if it is the last one played; False otherwise.

    Applying the last game of the history to the ratings the history gave before it is
    the same computation, in the same order, as replaying the whole history: the numbers
    are the same, for one OpenSkill update instead of one per game.
    """
    keyed = played_at(finished)
    this = keyed.filter(pk=sheet_id).values_list("played_at", "created_at", "pk", "options").first()
    if this is None:
        return False
    at, made, pk, options = this
    later = Q(played_at__gt=at) | Q(played_at=at, created_at__gt=made) | Q(played_at=at, created_at=made, pk__gt=pk)
    if keyed.exclude(pk=pk).filter(later).exists():
        return False
    seats = list(Player.objects.filter(sheet_id=pk).values_list("name", "total", "winner"))
    player_of = dict(
        TableName.objects.filter(owner_id=owner_id, name__in=[n for n, _t, _w in seats]).values_list(
            "name", "player_id"
        )
    )
    sides = _sides(engine, options, seats, player_of)
    ids = [pid for members, _place in sides for pid in members]
    before = {
        pid: (mu, sigma, n)
        for pid, mu, sigma, n in Rating.objects.filter(player_id__in=ids, game=game).values_list(
            "player_id", "mu", "sigma", "games"
        )
    }
    after = table.replay([sides], start=before)
    Rating.objects.bulk_create(
        [Rating(player_id=pid, game=game, mu=mu, sigma=sigma, games=n) for pid, (mu, sigma, n) in after.items()],
        update_conflicts=True,
        unique_fields=["player", "game"],
        update_fields=["mu", "sigma", "games"],
    )
    return True


def ratings_recount(*, owner_id: int, game: str, finished_sheet: str = "") -> None:
    """Recompute the table's ratings in `game` from the account's finished sheets, in the order they were played.

    Exact by construction: the same games in the same order give the same ratings
    whatever was deleted, restored or merged before. A game's order is when it was
    played (its last round), then when it was made. Six queries and one OpenSkill update
    per game: docs/performance.md measures it. `finished_sheet`: a sheet that has just
    finished and was never counted; when it is the last one played (the usual case), it
    is rated onto the kept ratings instead, with the same result (`_rate_last`).
    """
    engine = GAMES.get(game)
    if engine is None or not engine.rated or not owner_id:
        return
    with transaction.atomic():
        _lock_owner(owner_id)
        finished = Sheet.objects.filter(user_id=owner_id, game=game, finished=True, deleted_at__isnull=True)
        if finished_sheet and _rate_last(owner_id, game, engine, finished, finished_sheet):
            return
        order = list(played_at(finished).order_by("played_at", "created_at", "pk").values_list("pk", "options"))
        by_sheet: dict = {}
        for sheet_id, name, total, winner in Player.objects.filter(sheet__in=finished).values_list(
            "sheet_id", "name", "total", "winner"
        ):
            by_sheet.setdefault(sheet_id, []).append((name, total, winner))
        player_of = dict(TableName.objects.filter(owner_id=owner_id).values_list("name", "player_id"))
        history = [_sides(engine, options, by_sheet.get(sheet_id, []), player_of) for sheet_id, options in order]
        result = table.replay(history)
        Rating.objects.filter(player__owner_id=owner_id, game=game).delete()
        Rating.objects.bulk_create(
            Rating(player_id=pid, game=game, mu=mu, sigma=sigma, games=n) for pid, (mu, sigma, n) in result.items()
        )


def _rated_games(player_ids) -> set:
    return set(Rating.objects.filter(player_id__in=list(player_ids)).values_list("game", flat=True))


def table_players(user) -> list[dict]:
    """Return « Mes joueurs »: each player with its names, games and wins (every game, and per game) and its ratings.

    Four queries whatever the number of games: the players, their names, the seats
    grouped by name and game in the database, the ratings.
    """
    players = {
        pid: {"id": pid, "name": name, "names": [], "games": 0, "wins": 0, "per_game": {}, "linked": linked is not None}
        for pid, name, linked in TablePlayer.objects.filter(owner=user).values_list("pk", "name", "linked_user_id")
    }
    player_of = {}
    for name, pid in TableName.objects.filter(owner=user).order_by("name").values_list("name", "player_id"):
        if pid in players:
            players[pid]["names"].append(name)
            player_of[name] = pid
    sessions = [slug for slug, g in GAMES.items() if g.session]
    in_session = Q(sheet__game__in=sessions)
    seats = (
        Player.objects.filter(sheet__user=user, sheet__deleted_at__isnull=True)
        .filter(Q(sheet__finished=True) | Q(sheet__game__in=sessions))
        .order_by()
        .values("name", "sheet__game")
        .annotate(
            seats=Count("id"),
            won=Count("id", filter=Q(winner=True)),
            # A session's records count its games: read only on a session's seats.
            session_games=Coalesce(Sum(Case(When(in_session, then=Cast(KT("records__games"), IntegerField())))), 0),
            session_wins=Coalesce(Sum(Case(When(in_session, then=Cast(KT("records__wins"), IntegerField())))), 0),
        )
    )
    for row in seats:
        pid, slug = player_of.get(row["name"]), row["sheet__game"]
        if pid is None or slug not in GAMES:
            continue
        session = GAMES[slug].session
        games = row["session_games"] if session else row["seats"]
        wins = row["session_wins"] if session else row["won"]
        per = players[pid]["per_game"].setdefault(slug, {"games": 0, "wins": 0, "rating": None})
        per["games"] += games
        per["wins"] += wins
        players[pid]["games"] += games
        players[pid]["wins"] += wins
    for (pid, slug), rating in _ratings(user.pk).items():
        if pid in players:
            players[pid]["per_game"].setdefault(slug, {"games": 0, "wins": 0, "rating": None})["rating"] = rating
    out = sorted(players.values(), key=lambda p: (-p["games"], p["name"].casefold(), p["id"]))
    for p in out:
        # In catalogue order, each with the game's slug.
        p["per_game"] = [{"slug": slug, **p["per_game"][slug]} for slug in GAMES if slug in p["per_game"]]
    return out


def table_player_names(user) -> list[str]:
    """Return the names of « Mes joueurs », for a new sheet's name fields to offer (one query)."""
    if not user.is_authenticated:
        return []
    return sorted(set(TablePlayer.objects.filter(owner=user).values_list("name", flat=True)), key=str.casefold)


# A player's figures are kept in the cache under a key naming everything they are computed
# from (`_figures_key`): never stale, and never invalidated by hand.
FIGURES_KEEP = 24 * 3600  # seconds; a key of a past state is never read again, this frees it


def _sheets_stamp(user_id: int) -> tuple:
    """Return what moves with every write to the account's sheets: how many, their versions added up, the last change.

    Every write that changes a sheet's seats, rounds, state or owner moves its version on
    (scoring/services.py `_changed` and `_give`; `sheet_delete` and `sheet_restore` too), and
    a new sheet adds one: versions only grow, so a state the stamp has left never comes back
    with the same stamp (the purge removes sheets deleted a month ago, long after FIGURES_KEEP).
    """
    found = Sheet.objects.filter(user_id=user_id).aggregate(
        sheets=Count("pk"), versions=Coalesce(Sum("version"), 0), last=Max("updated_at")
    )
    return (found["sheets"], found["versions"], found["last"].isoformat() if found["last"] else "")


def _figures_key(user_id: int, player_id: int, lang: str, results: tuple, names: list, stamp: tuple) -> str:
    """Return the cache key of one player's figures: the release that computes them, the language, the results
    kept, the account's names (who is who, as shown) and its sheets' stamp."""
    named = hashlib.sha256(repr((sorted(names), stamp)).encode()).hexdigest()[:32]
    start, stop = results
    return f"players:{release()}:{user_id}:{player_id}:{lang}:{start}:{stop}:{named}"


def _player_figures(user, player_id: int, lang: str, spellings: list, player_of: dict, shown: dict) -> dict:
    """Compute one player's figures from the sheets they sat at: two queries, their sheets and every seat of them."""
    sessions = [slug for slug, g in GAMES.items() if g.session]
    sat = Player.objects.filter(sheet__user=user, sheet__deleted_at__isnull=True, name__in=spellings).filter(
        Q(sheet__finished=True) | Q(sheet__game__in=sessions)
    )
    their_sheets = Subquery(sat.values("sheet_id"))
    sheets = [
        table.Sheet(*row)
        for row in played_at(Sheet.objects.filter(pk__in=their_sheets))
        .order_by("played_at", "created_at", "pk")
        .values_list("pk", "game", "options", "finished", "played_at")
    ]
    seats: dict = {}
    records: dict = {}
    own_records = Case(When(name__in=spellings, then="records"), default=None, output_field=JSONField())
    for sheet_id, name, total, winner, own in Player.objects.filter(sheet_id__in=their_sheets).values_list(
        "sheet_id", "name", "total", "winner", own_records
    ):
        seats.setdefault(sheet_id, []).append((name, total, winner))
        if name in player_of and player_of[name] == player_id:
            records[sheet_id] = own
    return table.player_figures(player_id, sheets, seats, records, player_of, shown, GAMES, lang)


def table_player(user, player_id: int, lang: str, *, results: tuple = (None, None)) -> dict:
    """Return one of « Mes joueurs » with every figure of its page; PlayerNotFound if it is not the account's.

    Per game: games, wins, average, best, the engine's records, results in the order
    played (`results`: the (start, stop) slice of them kept, all by default; `results_count`
    counts them all), the rating; head to head against every other player met.

    Four queries when the figures are in the cache (the player, the account's names, its
    sheets' stamp, the ratings), six when they are not (then also the sheets the player sat
    at, with when each was played, and every seat of them): the count never grows with the
    games, and the cost only on a miss, once per change of the account's sheets or names.
    The figures computed are kept after the transaction commits.
    """
    player = (
        TablePlayer.objects.filter(owner=user, pk=player_id)
        .values("pk", "name", "linked_user_id", "linked_user__profile__display_name", "link_epoch", "link_made_at")
        .first()
    )
    if player is None:
        raise PlayerNotFound()
    names = list(TableName.objects.filter(owner=user).values_list("name", "player_id", "player__name"))
    player_of = {name: pid for name, pid, _shown in names}
    shown = {pid: name for _n, pid, name in names}
    spellings = sorted(name for name, pid, _shown in names if pid == player_id)
    # The stamp before the figures: figures read meanwhile from a newer state go under a stamp
    # that never comes back, never older figures under a newer stamp.
    key = _figures_key(user.pk, player_id, lang, results, names, _sheets_stamp(user.pk))
    figures = cache.get(key)
    if figures is None:
        figures = _player_figures(user, player_id, lang, spellings, player_of, shown)
        for row in figures["per_game"]:
            row["results_count"] = len(row["results"])
            row["results"] = row["results"][slice(*results)]
        keep_after_commit(key, figures, FIGURES_KEEP)
    ratings = _ratings(user.pk, player_id=player_id)
    # New rows: what the caller adds to them never reaches the figures kept.
    per_game = [{**row, "rating": ratings.get((player_id, row["slug"]))} for row in figures["per_game"]]
    link = {
        "linked": player["linked_user_id"] is not None,
        "linked_name": player["linked_user__profile__display_name"] or "",
        "token": player_link_token(player_id, player["link_epoch"]) if _link_live(player["link_made_at"]) else "",
    }
    return {
        "id": player_id,
        "name": player["name"],
        "names": spellings,
        "link": link,
        "per_game": per_game,
        "versus": figures["versus"],
    }


def _refused(path: str, code: str, message: str) -> InvalidInput:
    return InvalidInput.one(path, code, message)


def players_merge(*, user, into: int, other: int) -> None:
    """Make two of « Mes joueurs » one: `other`'s names go to `into`, its figures and ratings follow.

    Two players who sat at the same sheet are two people: refused, nothing changed.
    """
    if into == other:
        raise _refused("other", "same_player", _("Choose two different players to merge."))
    with transaction.atomic():
        _lock_owner(user.pk)
        found = set(TablePlayer.objects.filter(owner=user, pk__in=[into, other]).values_list("pk", flat=True))
        if into not in found:
            raise PlayerNotFound()
        if other not in found:
            raise PlayerNotFound("other")
        names_into = TableName.objects.filter(owner=user, player_id=into).values("name")
        names_other = TableName.objects.filter(owner=user, player_id=other).values("name")
        mine = Player.objects.filter(sheet__user=user, name__in=names_into).values("sheet_id")
        if Player.objects.filter(sheet__user=user, name__in=names_other, sheet_id__in=mine).exists():
            raise _refused("other", "played_together", _("These two played in the same game: they are two people."))
        links = dict(TablePlayer.objects.filter(pk__in=[into, other]).values_list("pk", "linked_user_id"))
        if links[into] and links[other] and links[into] != links[other]:
            raise _refused("other", "linked_apart", _("These two are linked to two different accounts."))
        games = _rated_games([into, other])
        TableName.objects.filter(owner=user, player_id=other).update(player_id=into)
        TablePlayer.objects.filter(owner=user, pk=other).delete()
        if links[other] and not links[into]:
            TablePlayer.objects.filter(pk=into).update(linked_user_id=links[other])
        linked_seats_take(owner_id=user.pk, player_ids=[into])
        for game in games:
            ratings_recount(owner_id=user.pk, game=game)


def players_split(*, user, player_id: int, name: str) -> int:
    """Give one name of a player a player of its own (« LEA » is not Léa); return the new player's id.

    The new player is shown by that name; the figures and ratings of both follow.
    """
    with transaction.atomic():
        _lock_owner(user.pk)
        names = list(TableName.objects.filter(owner=user, player_id=player_id))
        if not names:
            raise PlayerNotFound()
        target = next((n for n in names if n.name == name), None)
        if target is None:
            raise _refused("name", "unknown_name", _("“%(name)s” is not one of this player's names.") % {"name": name})
        if len(names) < 2:
            raise _refused("name", "only_name", _("This is the player's only name: there is nothing to split."))
        games = _rated_games([player_id])
        new = TablePlayer.objects.create(owner=user, name=name)
        target.player = new
        target.save(update_fields=["player"])
        linked = TablePlayer.objects.filter(pk=player_id).values_list("linked_user_id", flat=True).first()
        if linked:
            _linked_seats_free(owner_id=user.pk, user_id=linked, names=[name])
        for game in games:
            ratings_recount(owner_id=user.pk, game=game)
    return new.pk


def players_rename(*, user, player_id: int, name: str) -> None:
    """Show a player by another name on the account's pages (the sheets keep the names they were typed with)."""
    try:
        cleaned = clean_name(name)
    except NameRefused as exc:
        if exc.code == "control":
            message = _("Name “%(name)s”: it holds an invisible or control character (%(char)s); remove it.") % {
                "name": exc.params["name"],
                "char": exc.params["char"],
            }
        elif exc.code == "long":
            message = _("A name is at most 40 characters.")
        else:
            message = _("Type a name.")
        raise _refused("name", exc.code, message) from None
    if not TablePlayer.objects.filter(owner=user, pk=player_id).update(name=cleaned):
        raise PlayerNotFound()


def seat_holders(sheet) -> dict[int, int]:
    """Return the accounts holding a sheet's seats: {seat: user id}, seats nobody holds left out."""
    return dict(sheet.seats.exclude(user=None).values_list("seat", "user_id"))


def seat_question(user, sheet, holders: dict[int, int]) -> bool:
    """Tell whether a sheet's page asks its owner « Qui êtes-vous ? ».

    Once, on a finished sheet of theirs where they hold no seat, until they answer with
    a name or with « aucun » (a game they only kept score of). `holders` are the sheet's
    seats held by an account (`seat_holders`).
    """
    if not user.is_authenticated or sheet.user_id != user.pk or not sheet.finished:
        return False
    if user.pk in holders.values():
        return False
    return not SeatAnswer.objects.filter(user=user, sheet_id=sheet.pk).exists()


def seat_none(*, user, sheet) -> None:
    """Record that the owner sat at none of the seats of their sheet: never asked again, no seat counted.

    A seat the owner held on it is theirs no longer (their standings follow).
    """
    with transaction.atomic():
        SeatAnswer.objects.get_or_create(user=user, sheet_id=sheet.pk)
        if Player.objects.filter(sheet=sheet, user=user).update(user=None):
            standings_recount(user_ids={user.pk}, game=sheet.game)


def seat_answer(*, user, sheet, seat: int | None) -> dict:
    """Answer « Qui êtes-vous ? » on the owner's sheet: a seat that is theirs, or None for « aucun »; return seat_state.

    On their own sheet a seat another account held is theirs on purpose (take_over). A seat
    past the last name is refused, nothing changed.
    """
    if seat is None:
        seat_none(user=user, sheet=sheet)
    elif not 0 <= seat < len(sheet.players):
        count = len(sheet.players)
        message = _("seat: this sheet has %(count)d names, seats 0 to %(last)d.") % {"count": count, "last": count - 1}
        raise _refused("seat", "out_of_range", message)
    else:
        seat_attach(sheet=sheet, seat=seat, user=user, take_over=True)
    return seat_state(user, sheet)


def seat_state(user, sheet) -> dict:
    """Return the owner's answer to « Qui êtes-vous ? » on their sheet.

    {"players": the seats' names in order, "seat": the seat the owner holds or None,
    "none": they answered « aucun », "asked": the sheet's page asks them (seat_question)}.
    """
    seats = list(sheet.seats.order_by("seat").values_list("seat", "name", "user_id"))
    mine = next((seat for seat, _name, user_id in seats if user_id == user.pk), None)
    answered = mine is None and SeatAnswer.objects.filter(user=user, sheet_id=sheet.pk).exists()
    return {
        "players": [name for _seat, name, _user_id in seats],
        "seat": mine,
        "none": answered,
        "asked": bool(sheet.finished) and mine is None and not answered,
    }


def players_export(user) -> list[dict]:
    """Return « Mes joueurs » for the export: each player with its names, games, wins and ratings per game."""
    return table_players(user)


def players_export_rows(user):
    """Yield « Mes joueurs » as CSV rows: one per player and game, with the rating."""
    yield ["player_id", "name", "names", "game", "games", "wins", "mu", "sigma", "rated_games"]
    for p in table_players(user):
        for g in p["per_game"]:
            rating = g["rating"] or {}
            yield [
                p["id"],
                p["name"],
                " | ".join(p["names"]),
                g["slug"],
                g["games"],
                g["wins"],
                rating.get("mu", ""),
                rating.get("sigma", ""),
                rating.get("games", ""),
            ]


def players_rebuild() -> int:
    """Recognise the names of every owned sheet and recompute every account's ratings; return how many accounts.

    For sheets kept before « Mes joueurs » existed (the migration recognises their names;
    this also rates them). Each account in its own transaction.
    """
    owners = Sheet.objects.filter(user__isnull=False).order_by().values_list("user_id", flat=True).distinct()
    count = 0
    for owner_id in list(owners):
        with transaction.atomic():
            sheets = Sheet.objects.alive().filter(user_id=owner_id)
            players_register(user_id=owner_id, sheet_ids=sheets.values_list("pk", flat=True))
            for game in set(sheets.filter(finished=True).values_list("game", flat=True)):
                ratings_recount(owner_id=owner_id, game=game)
        count += 1
    return count


# A link to a player: the person of « Mes joueurs » who has an account counts their games there.

PLAYER_LINK_KEEP = timedelta(days=30)


def player_link_token(player_id: int, epoch: int) -> str:
    """Return the token of a player's link (derived from the secret key and the link's generation)."""
    return salted_hmac("accounts.player-link", f"{player_id}:{epoch}").hexdigest()[:32]


def _link_live(made_at, now=None) -> bool:
    return made_at is not None and (now or timezone.now()) - made_at < PLAYER_LINK_KEEP


def player_link_make(*, user, player_id: int) -> str:
    """Make a new link for one of « Mes joueurs » (the previous one ends); return its token.

    Whoever opens it, logged in, may accept: the player's seats on the account's sheets
    then count in their own stats. The link works once, for 30 days.
    """
    with transaction.atomic():
        player = TablePlayer.objects.select_for_update().filter(owner=user, pk=player_id).first()
        if player is None:
            raise PlayerNotFound()
        player.link_epoch += 1
        player.link_made_at = timezone.now()
        player.save(update_fields=["link_epoch", "link_made_at"])
    return player_link_token(player.pk, player.link_epoch)


def player_to_link(player_id: int, token) -> dict | None:
    """Return what a player's link shows ({"player", "name", "table"}) while it works, else None.

    `table` is the name the owner plays under, if they chose one ("" otherwise): the
    person is told whose table it is, nothing of its other players.
    """
    player = (
        TablePlayer.objects.filter(pk=player_id)
        .values(
            "pk", "name", "owner_id", "owner__profile__display_name", "link_epoch", "link_made_at", "linked_user_id"
        )
        .first()
    )
    if player is None or player["linked_user_id"] is not None or not _link_live(player["link_made_at"]):
        return None
    if not same_token(player_link_token(player["pk"], player["link_epoch"]), token):
        return None
    return {"player": player["pk"], "name": player["name"], "table": player["owner__profile__display_name"] or ""}


def player_link_accept(*, player_id: int, token, user) -> int:
    """Link the player to `user`, who opened its link; return how many games now count in their stats.

    Checked again under the player's lock: a link works once. Their seats on the owner's
    sheets (those no account holds, on sheets where `user` holds none) become theirs, and
    so do the seats of the sheets to come. The sheets stay the owner's.
    """
    with transaction.atomic():
        player = TablePlayer.objects.select_for_update().filter(pk=player_id).first()
        if player is None or player_to_link(player_id, token) is None:
            raise PlayerNotFound()
        if player.owner_id == user.pk:
            raise _refused("player", "own_table", _("This is a player of your own table: send the link to them."))
        player.linked_user = user
        player.link_epoch += 1  # the link is used up
        player.link_made_at = None
        player.save(update_fields=["linked_user", "link_epoch", "link_made_at"])
        return linked_seats_take(owner_id=player.owner_id, player_ids=[player.pk])


def player_unlink(*, user, player_id: int) -> None:
    """End the link of one of « Mes joueurs »: their seats on the account's sheets leave the other account's stats.

    A link made and not yet accepted stops working too.
    """
    with transaction.atomic():
        player = TablePlayer.objects.select_for_update().filter(owner=user, pk=player_id).first()
        if player is None:
            raise PlayerNotFound()
        if player.link_made_at is not None:
            player.link_epoch += 1
            player.link_made_at = None
            player.save(update_fields=["link_epoch", "link_made_at"])
        if player.linked_user_id is None:
            return
        names = list(player.names.values_list("name", flat=True))
        _linked_seats_free(owner_id=user.pk, user_id=player.linked_user_id, names=names)
        player.linked_user = None
        player.save(update_fields=["linked_user"])


def linked_seats_take(*, owner_id: int, sheet_ids=None, player_ids=None) -> int:
    """Give the accounts linked to « Mes joueurs » their seats on the owner's sheets; return how many seats.

    A seat another account holds, or on a sheet where the linked account holds one
    already, stays as it is. Their standings follow.
    """
    linked = TablePlayer.objects.filter(owner_id=owner_id, linked_user__isnull=False)
    if player_ids is not None:
        linked = linked.filter(pk__in=list(player_ids))
    user_of = dict(linked.values_list("pk", "linked_user_id"))
    if not user_of:
        return 0
    name_user = {
        name: user_of[pid]
        for name, pid in TableName.objects.filter(owner_id=owner_id, player_id__in=list(user_of)).values_list(
            "name", "player_id"
        )
    }
    seats = Player.objects.filter(sheet__user_id=owner_id, name__in=list(name_user))
    if sheet_ids is not None:
        seats = seats.filter(sheet_id__in=list(sheet_ids))
    sheets = seats.values("sheet_id")
    held = set(
        Player.objects.filter(sheet_id__in=sheets, user_id__in=set(user_of.values())).values_list("sheet_id", "user_id")
    )
    taken, games = 0, {}
    for pk, sheet_id, name, game in seats.filter(user__isnull=True).values_list(
        "pk", "sheet_id", "name", "sheet__game"
    ):
        uid = name_user[name]
        if (sheet_id, uid) in held:
            continue
        if Player.objects.filter(pk=pk, user__isnull=True).update(user_id=uid):
            held.add((sheet_id, uid))
            games.setdefault(game, set()).add(uid)
            taken += 1
    for game, uids in games.items():
        standings_recount(user_ids=uids, game=game)
    return taken


def _linked_seats_free(*, owner_id: int, user_id: int, names) -> None:
    """Free the seats of these names on the owner's sheets that the linked account holds; its standings follow."""
    seats = Player.objects.filter(sheet__user_id=owner_id, name__in=list(names), user_id=user_id)
    games = set(seats.values_list("sheet__game", flat=True))
    seats.update(user=None)
    for game in games:
        standings_recount(user_ids=[user_id], game=game)
