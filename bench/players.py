"""Time « Mes joueurs », « Ma table » and the table's ratings for one account with 10,000 finished games.

Run from the repo root: ``python bench/players.py`` (10,000 games, SQLite in a temporary
VAR_DIR) or ``--games 1000``; ``--db-url postgres://…/numapp_players`` runs on PostgreSQL
(migrated first; only the account "bench-players" and what it owns are replaced).

1. Loads one account's finished sheets with the ORM's bulk_create: half Num King, half
   Num-X Malus, four seats each from a table of eight people (one written « Léa » and
   « lea »), one round each (when it was played), spread over two years.
2. Recognises the players (accounts.services.players_register) and recomputes the
   ratings of both games from the whole history (ratings_recount), timed.
3. Times the write that finishes one more game (its round, the standings, the ratings
   recomputed from every finished sheet of its game) and the delete of an old game.
4. Requests each page and API answer ``--requests`` times, one after the other, through
   Django's test client, logged in: p50/p95/p99 and the queries of each (the same on
   every request of a case). Sequential: what one request costs, not a load test.
"""

import argparse
import os
import pathlib
import random
import sys
import tempfile
import time
from datetime import timedelta

_BENCH = pathlib.Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _BENCH]
sys.path.insert(0, str(_BENCH.parent))

from bench._common import fmt_ms, percentile  # noqa: E402

PEOPLE = ["Zoé", "Léa", "lea", "Max", "Tom", "Iris", "Hugo", "Lina", "Ravi"]


def setup(db_url: str, var_dir: str) -> None:
    if db_url:
        os.environ["DATABASE_URL"] = db_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ["VAR_DIR"] = var_dir
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load(games: int):
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import Profile
    from scoring.models import Player, Round, Sheet

    rng = random.Random(42)
    get_user_model().objects.filter(username="bench-players").delete()
    user = get_user_model().objects.create_user("bench-players", "bench-players@example.org", "x")
    Profile.objects.create(user=user, display_name="Zoé")
    now = timezone.now()
    sheets, seats, rounds = [], [], []
    for i in range(games):
        game = "numking" if i % 2 else "numx-malus"
        names = ["Zoé", *rng.sample(PEOPLE[1:], 3)]
        if "Léa" in names and "lea" in names:
            names.remove("lea")
            names.append("Tom" if "Tom" not in names else "Iris" if "Iris" not in names else "Hugo")
        when = now - timedelta(days=730) + timedelta(minutes=i * 100)
        sheet = Sheet(
            id=f"bench{i:011d}",
            game=game,
            players=names,
            options={},
            user=user,
            edit_token_hash="",
            version=3,
            finished=True,
            round_count=1,
            created_at=when - timedelta(minutes=40),
            updated_at=when,
        )
        sheets.append(sheet)
        totals = [rng.randint(-20, 120) for _ in names]
        best = min(totals) if game == "numx-malus" else max(totals)
        for seat, (name, total) in enumerate(zip(names, totals)):
            seats.append(Player(sheet_id=sheet.id, seat=seat, name=name, total=total, winner=total == best, records={}))
        rounds.append(Round(sheet_id=sheet.id, number=1, data={}, created_at=when))
    t = time.perf_counter()
    with transaction.atomic():
        Sheet.objects.bulk_create(sheets, batch_size=2000)
        Player.objects.bulk_create(seats, batch_size=2000)
        Round.objects.bulk_create(rounds, batch_size=2000)
    return user, time.perf_counter() - t


def timed(fn, *args, **kwargs) -> float:
    t = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--db-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-players-") as var_dir:
        setup(args.db_url, var_dir)
        run(args)


def run(args) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts import services
    from accounts.models import TableName
    from scoring import services as scoring
    from scoring.models import Sheet

    user, seconds = load(args.games)
    print(f"{connection.vendor}: {args.games} finished games of one account loaded in {seconds:.1f} s")
    ids = list(Sheet.objects.filter(user=user).values_list("pk", flat=True))
    print(f"players recognised: {timed(services.players_register, user_id=user.pk, sheet_ids=ids):.2f} s")
    for game in ("numking", "numx-malus"):
        n = Sheet.objects.filter(user=user, game=game).count()
        print(
            f"ratings_recount {game} ({n} games): {timed(services.ratings_recount, owner_id=user.pk, game=game):.2f} s"
        )

    # One more game finished: the write that recounts everything it moves.
    sheet = scoring.sheet_create(
        game="numx-malus", players=["Zoé", "Léa", "Max"], options={"mode": "speedgame"}, user=user
    ).sheet
    entries = {"entries": {"Zoé": {"points": 1}, "Léa": {"points": 2}, "Max": {"points": 3}}}
    scoring.round_add(sheet=sheet, data=entries)
    print(
        "the round that finishes a game, the last played (rated onto the kept ratings): "
        f"{timed(scoring.round_add, sheet=sheet, data=entries):.2f} s"
    )
    old = Sheet.objects.get(pk=ids[0])
    print(
        f"an old game deleted: {timed(services.sheet_delete, sheet=old):.2f} s; "
        f"restored: {timed(services.sheet_restore, sheet=old):.2f} s"
    )

    client = Client()
    client.force_login(user)
    lea = TableName.objects.get(owner=user, name="Léa").player_id
    cases = {
        "Mes joueurs `GET /me/players/`": "/me/players/",
        "a player's page `GET /me/players/{id}/`": f"/me/players/{lea}/",
        "`GET /api/v1/players/`": "/api/v1/players/",
        "`GET /api/v1/players/{id}/`": f"/api/v1/players/{lea}/",
        "Ma table, all time `GET /leaderboards/numking/?scope=table`": "/leaderboards/numking/?scope=table",
        "Ma table, this month `…&period=month`": "/leaderboards/numking/?scope=table&period=month",
    }
    print("\n| request | p50 | p95 | p99 | queries |\n|---|---:|---:|---:|---:|")
    for label, url in cases.items():
        client.get(url)  # warm-up
        times, queries = [], set()
        for _ in range(args.requests):
            with CaptureQueriesContext(connection) as captured:
                t = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - t)
            assert response.status_code == 200, (url, response.status_code)
            queries.add(len(captured))
        print(
            f"| {label} | {fmt_ms(percentile(times, 50))} | {fmt_ms(percentile(times, 95))} | "
            f"{fmt_ms(percentile(times, 99))} | {'/'.join(map(str, sorted(queries)))} |"
        )


if __name__ == "__main__":
    main()
