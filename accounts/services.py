"""Account use cases: standings, seats, profile, export, deletion, and the queries of the account pages.

The account pages (accounts/views.py) ask here for what they show; they run no query
of their own. Scoring never calls this module: it announces stored seats with the
`scoring.signals.seats_scored` signal, and accounts/signals.py recounts the standings.
"""

import csv
import io

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, IntegerField, Max, Min, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile, Standing
from scoring import tokens
from scoring.exceptions import InvalidInput, SeatTaken
from scoring.games import GAMES
from scoring.games.names import NameRefused, clean_name
from scoring.models import Player, Sheet, deleted_keep
from scoring.services import played_at

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


def _name_refused(exc: NameRefused) -> str:
    """Return why the public name is refused, naming the field."""
    if exc.code == "control":
        return _("Public name “%(name)s”: it holds an invisible or control character (%(char)s); remove it.") % {
            "name": exc.params["name"],
            "char": exc.params["char"],
        }
    return _("The public name is at most 40 characters.")


def sheet_delete(*, sheet: Sheet) -> bool:
    """Delete a sheet for every reader, restorable for DELETED_SHEET_KEEP; standings follow.

    The rows stay until the purge (scoring/models.py purge_expired) removes them
    for good once the restore window has passed. Return False if it was deleted already.
    """
    users = set(sheet.seats.exclude(user=None).values_list("user_id", flat=True))
    with transaction.atomic():
        done = Sheet.objects.filter(pk=sheet.pk, deleted_at__isnull=True).update(deleted_at=timezone.now())
        standings_recount(user_ids=users, game=sheet.game)
    return bool(done)


def sheet_restore(*, sheet: Sheet) -> bool:
    """Bring back a sheet its owner deleted, if still in the restore window; standings follow.

    Return False when it is no longer restorable (restored already, or past the window).
    """
    users = set(sheet.seats.exclude(user=None).values_list("user_id", flat=True))
    with transaction.atomic():
        done = Sheet.objects.restorable(sheet.user_id).filter(pk=sheet.pk).update(deleted_at=None)
        standings_recount(user_ids=users, game=sheet.game)
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
    """Yield one row per seat of every sheet the user owns, for CSV."""
    yield ["sheet", "game", "created_at", "finished", "rounds", "seat", "player", "total", "winner"]
    for sheet in Sheet.objects.alive().filter(user=user).order_by("created_at").prefetch_related("seats"):
        for seat in sheet.seats.all():
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
            ]


# Columns holding text a person typed; the others are ids, slugs, dates and numbers
# that must stay as they are to match the sheets (an id may start with "-").
CSV_USER_TEXT = {"player"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def export_csv(user) -> str:
    """Return the user's seats as CSV, with typed names kept from running as formulas."""
    out = io.StringIO()
    writer = csv.writer(out)
    rows = export_rows(user)
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
        records = {}
        for rec in mine.values_list("records", flat=True):
            for k, v in (rec or {}).items():
                records[k] = max(records.get(k, 0), v) if k == "longest_streak" else records.get(k, 0) + v
        results = list(mine.order_by("sheet__created_at").values_list("total", flat=True)[:100])
        per_game.append(
            {
                "slug": slug,
                "name": game.name[lang],
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


def public_board(slug: str, *, month: bool) -> list[dict]:
    """Return the global leaderboard of a game (public standings, all time or this month), ranked by wins then games."""
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
        for name, games, wins, best, user_id in Standing.objects.filter(game=slug, period=period, public=True)
        .order_by("-wins", "-games", "name")
        .values_list("name", "games", "wins", "best", "user_id")[:BOARD_SIZE]
    ]


def table_board(user, slug: str, *, month: bool) -> list[dict]:
    """Return the players of my tables, by name, ranked by wins then games.

    The database groups the seats and returns at most one board of rows. A session
    holds many games: its seat's records count them.
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
    rows = list(seats.order_by().values("name").annotate(**counted).order_by("-wins", "-games", "name")[:BOARD_SIZE])
    for r in rows:
        r["win_rate"] = round(100 * r["wins"] / r["games"], 1) if r["games"] else 0
        r.setdefault("best", None)
    return rows
