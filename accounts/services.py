"""Account use cases: standings, seats, profile, export, deletion."""

import csv
import io

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import Profile, Standing
from numapp.parsing import same_token
from scoring.games import GAMES
from scoring.games.names import clean_name
from scoring.models import Player, Sheet

ALL = "all"


def profile_of(user) -> Profile:
    """Return the user's profile, creating the private default one on first use."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def game_count(game: str, winner: bool, records: dict) -> tuple[int, int]:
    """Return (games, wins) one seat adds: a sheet is one game, a coop session many."""
    if game == "coop":
        return (records or {}).get("games", 0), (records or {}).get("wins", 0)
    return 1, int(winner)


def standings_recount(*, user_ids, game: str) -> None:
    """Recount these users' standings in `game` from their seats on finished, owned sheets."""
    user_ids = {u for u in user_ids if u}
    if not user_ids:
        return
    seats = Player.objects.filter(user_id__in=user_ids, sheet__game=game, sheet__user__isnull=False)
    if game != "coop":
        seats = seats.filter(sheet__finished=True)
    lowest_wins = GAMES[game].wins == "lowest"
    rows: dict[tuple[int, str], dict] = {}
    for user_id, total, winner, records, created in seats.values_list(
        "user_id", "total", "winner", "records", "sheet__created_at"
    ):
        games, wins = game_count(game, winner, records)
        # Months as the players live them (TIME_ZONE), like the pages ask for them.
        for period in (ALL, timezone.localtime(created).strftime("%Y-%m")):
            row = rows.setdefault((user_id, period), {"games": 0, "wins": 0, "total_sum": 0, "best": None})
            row["games"] += games
            row["wins"] += wins
            row["total_sum"] += total
            if row["best"] is None or (total < row["best"] if lowest_wins else total > row["best"]):
                row["best"] = total
    profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in=user_ids)}
    with transaction.atomic():
        Standing.objects.filter(user_id__in=user_ids, game=game).delete()
        Standing.objects.bulk_create(
            Standing(
                user_id=user_id,
                game=game,
                period=period,
                **row,
                public=bool(profiles.get(user_id) and profiles[user_id].public and profiles[user_id].display_name),
                name=profiles[user_id].display_name if user_id in profiles else "",
            )
            for (user_id, period), row in rows.items()
        )


def sheet_users_recount(sheet: Sheet) -> None:
    """Recount the standings of everyone seated at this sheet."""
    standings_recount(user_ids=set(sheet.seats.exclude(user=None).values_list("user_id", flat=True)), game=sheet.game)


def seat_token(sheet_id: str, seat: int) -> str:
    """Return the token of a seat link, derived from the secret key (nothing stored)."""
    return salted_hmac("numapp.seat", f"{sheet_id}:{seat}", algorithm="sha256").hexdigest()[:32]


def seat_token_matches(sheet_id: str, seat: int, token: str) -> bool:
    return same_token(seat_token(sheet_id, seat), token)


def seat_attach(*, sheet: Sheet, seat: int, user) -> Player:
    """Attach a seat to `user` (their "me" at this table); one seat per user per sheet."""
    with transaction.atomic():
        Player.objects.filter(sheet=sheet, user=user).exclude(seat=seat).update(user=None)
        player = Player.objects.select_for_update().get(sheet=sheet, seat=seat)
        previous = player.user_id
        player.user = user
        player.save(update_fields=["user"])
        standings_recount(user_ids={user.pk, previous}, game=sheet.game)
    return player


def profile_update(*, user, display_name: str, public: bool) -> Profile:
    """Save the public name and the opt-in; the user's standings follow at once.

    The name follows the names rule (scoring/games/names.py): NameRefused otherwise;
    a blank name clears it.
    """
    profile = profile_of(user)
    profile.display_name = clean_name(display_name) if display_name.strip() else ""
    profile.public = public and bool(profile.display_name)
    profile.save()
    Standing.objects.filter(user=user).update(public=profile.public, name=profile.display_name)
    return profile


def sheet_delete(*, sheet: Sheet) -> None:
    """Delete a sheet with its rounds and seats; standings follow."""
    users = set(sheet.seats.exclude(user=None).values_list("user_id", flat=True))
    game = sheet.game
    with transaction.atomic():
        sheet.delete()
        standings_recount(user_ids=users, game=game)


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
    for sheet in Sheet.objects.filter(user=user).order_by("created_at").prefetch_related("seats"):
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


def export_csv(user) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for row in export_rows(user):
        # A name starting with = + - @ would run as a formula in a spreadsheet.
        writer.writerow([f"'{v}" if isinstance(v, str) and v[:1] in "=+-@" else v for v in row])
    return out.getvalue()


def export_json(user) -> list[dict]:
    sheets = Sheet.objects.filter(user=user).order_by("created_at").prefetch_related("seats", "rounds")
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
