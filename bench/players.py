"""Time « Mes joueurs », « Ma table » and the table's ratings for one account with 10,000 finished games.

Run from the repo root: ``python bench/players.py`` (10,000 games, SQLite in a temporary
VAR_DIR) or ``--games 1000``; ``--db-url postgres://…/numapp_players`` runs on PostgreSQL
(created if missing, migrated first; only the account "bench-players" and what it owns are replaced).

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
5. With ``--load`` (``make bench-players``): starts the app as the Procfile's `web:` line
   does (uvicorn, ``--workers 2``, DEBUG=0, bench/load.py's settings and helpers) on the
   same database, logs in as the account (its session cookie) and drives each page with
   wrk, ``--connections`` connections (8,16 by default) for ``--seconds`` seconds (15)
   each, while a thread finishes one more game of the account every ``--write-every``
   seconds (1; 0: no writes): requests/s and p50/p90/p99 per page. Debian's wrk is
   installed if missing (bench/load.py find_wrk); PostgreSQL with ``--db-url``, Redis as
   the cache when REDIS_URL is set.
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

from bench import load as http  # noqa: E402
from bench._common import fmt_ms, percentile  # noqa: E402

PEOPLE = ["Zoé", "Léa", "lea", "Max", "Tom", "Iris", "Hugo", "Lina", "Ravi"]


def create_database(db_url: str) -> None:
    """Create the PostgreSQL database of `db_url` if it is missing (migrate fills it)."""
    from urllib.parse import urlsplit

    from bench._common import connect

    parts = urlsplit(db_url)
    name = parts.path.lstrip("/")
    with connect(parts._replace(path="/postgres").geturl()) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup(db_url: str, var_dir: str) -> None:
    if db_url:
        create_database(db_url)
        os.environ["DATABASE_URL"] = db_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ["VAR_DIR"] = var_dir
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if os.environ.get("DEBUG") == "0":  # --load: the production settings want the collected files
        call_command("collectstatic", interactive=False, verbosity=0)


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
    parser.add_argument("--load", action="store_true", help="then drive each page with wrk under uvicorn")
    parser.add_argument("--connections", default="8,16", help="wrk connections, one run per value (8,16)")
    parser.add_argument("--seconds", type=int, default=15, help="length of each wrk run (15)")
    parser.add_argument("--write-every", type=float, default=1.0, help="a game finishes every N s (1; 0: none)")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (2, the Procfile's default)")
    parser.add_argument("--timeout", type=int, default=30, help="wrk's timeout per request in seconds (30)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-players-") as var_dir:
        if args.load:
            # The app's server and this process: one SECRET_KEY (the session cookie), one database, one cache.
            os.environ.update(http.bench_env(pathlib.Path(var_dir)))
            os.environ["ALLOWED_HOSTS"] += ",testserver"  # this process's test client
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
    print("\n| request | first | p50 | p95 | p99 | queries |\n|---|---:|---:|---:|---:|---:|")
    for label, url in cases.items():
        first = timed(client.get, url, secure=True)  # the first request after the writes above
        times, queries = [], set()
        for _ in range(args.requests):
            with CaptureQueriesContext(connection) as captured:
                t = time.perf_counter()
                response = client.get(url, secure=True)
                times.append(time.perf_counter() - t)
            assert response.status_code == 200, (url, response.status_code)
            queries.add(len(captured))
        print(
            f"| {label} | {fmt_ms(first)} | {fmt_ms(percentile(times, 50))} | {fmt_ms(percentile(times, 95))} | "
            f"{fmt_ms(percentile(times, 99))} | {'/'.join(map(str, sorted(queries)))} |"
        )
    if args.load:
        load_test(args, user, client.cookies, cases)


def finish_a_game(user, n: int) -> None:
    """Finish one more Num-X Malus speed game of the account (its rounds until the sheet says finished)."""
    from scoring import services as scoring

    names = ["Zoé", "Léa", "Max"] if n % 2 else ["Zoé", "Tom", "Iris"]
    sheet = scoring.sheet_create(game="numx-malus", players=names, options={"mode": "speedgame"}, user=user).sheet
    while not sheet.finished:
        points = {name: {"points": (n + i) % 7} for i, name in enumerate(names)}
        sheet = scoring.round_add(sheet=sheet, data={"entries": points})


def drain(base: str, workers: int) -> None:
    """Wait until the server has answered what wrk left in flight: a sync view runs to its end after its client left.

    Each uvicorn worker runs the sync views one at a time, in order: a cheap request answered
    by each (a few, on new connections) comes after that backlog, so the next case starts clean.
    """
    answered, deadline = 0, time.monotonic() + 900
    while answered < 3 * workers and time.monotonic() < deadline:
        try:
            http.get(base + "/bench/bare", http.PROXY_HEADERS, timeout=600)
            answered += 1
        except OSError:  # a connection the busy server closed: ask again
            time.sleep(0.5)


def load_test(args, user, cookies, cases: dict) -> None:
    """Drive each page with wrk under uvicorn (the Procfile's web line) while games finish in the background."""
    import threading
    import types

    from django.conf import settings
    from django.db import close_old_connections, connection

    wrk = http.find_wrk()
    if not wrk:
        print("load: SKIPPED — wrk is not installed (Debian: apt-get install -y wrk).")
        return
    connection.close()  # SQLite: leave the file to the server's workers between writes
    tmp = pathlib.Path(settings.VAR_DIR)
    env = dict(os.environ)  # setup() set DATABASE_URL, or removed it for SQLite in VAR_DIR
    port = http.free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp / "uvicorn.log"
    cookie = {settings.SESSION_COOKIE_NAME: cookies[settings.SESSION_COOKIE_NAME].value}
    specs = {label: {"method": "GET", "path": url, "cookies": cookie} for label, url in cases.items()}
    written = {"games": 0, "errors": 0}
    stop = threading.Event()

    def writer():
        while not stop.wait(args.write_every):
            try:
                finish_a_game(user, written["games"])
                written["games"] += 1
            except Exception as exc:  # reported, the run goes on
                written["errors"] += 1
                print(f"load: a background write failed: {exc!r}", flush=True)
            finally:
                close_old_connections()
        connection.close()

    loads = [" ".join(f"{x:.2f}" for x in os.getloadavg())]
    proc = http.start_procfile_web(env, port, args.workers, log)
    thread = None
    try:
        http.wait_ready(base, proc, log, seconds=300)  # a busy machine starts the workers slowly
        scripts = {}
        for i, (label, spec) in enumerate(specs.items()):
            http.preflight(base, label, spec)
            scripts[label] = tmp / f"case{i}.lua"
            scripts[label].write_text(http.static_lua(spec))
        if args.write_every > 0:
            thread = threading.Thread(target=writer, daemon=True)
            thread.start()
        rows = []
        started = time.monotonic()
        for connections in [int(c) for c in args.connections.split(",")]:
            # A request slower than wrk's timeout is counted an error, not a latency: a busy machine needs room.
            opts = types.SimpleNamespace(threads=2, connections=connections, timeout=args.timeout)
            for label, script in scripts.items():
                http.wrk_once(wrk, base, script, 2, opts, master=proc.pid)  # warm-up
                drain(base, args.workers)
                r = http.wrk_once(wrk, base, script, args.seconds, opts, master=proc.pid)
                drain(base, args.workers)
                bad = r["status"] + r["connect"] + r["read"] + r["write"] + r["timeout"]
                rows.append((label, connections, r, bad))
                print(
                    f"load: {label} -c{connections}: {r['rps']:.1f} req/s, p99 {r['p99_us'] / 1000:.0f} ms",
                    flush=True,
                )
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        if thread:
            thread.join(timeout=60)
        http.stop_all()
    if any(bad for *_rest, bad in rows):  # what the server said about its failed answers
        failed = [ln for ln in log.read_text(errors="replace").splitlines() if "Error" in ln or "error" in ln]
        print("load: the server's log on errors:\n" + "\n".join(failed[-20:]), flush=True)
    loads.append(" ".join(f"{x:.2f}" for x in os.getloadavg()))
    info = http.machine()
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"\nLoad: {connection.vendor}, cache {cache}; uvicorn as in the Procfile, {args.workers} workers, DEBUG=0; "
        f"wrk 2 threads, {args.seconds} s per case after 2 s of warm-up, timeout {args.timeout} s; {info['nproc']} CPUs ({info['cpu']}); "
        f"load average before/after {loads[0]} / {loads[1]}; background: {written['games']} games finished "
        f"in {elapsed:.0f} s ({written['errors']} failed writes)\n"
    )
    print("| request | connections | req/s | p50 ms | p90 ms | p99 ms | errors |\n|---|---:|---:|---:|---:|---:|---:|")
    for label, connections, r, bad in rows:
        if not r["requests"]:  # every request still in flight when the run ended: no latency to show
            print(f"| {label} | {connections} | 0 | none answered within {args.seconds} s | | | {bad} |")
            continue
        print(
            f"| {label} | {connections} | {r['rps']:.1f} | {r['p50_us'] / 1000:.0f} | {r['p90_us'] / 1000:.0f} | "
            f"{r['p99_us'] / 1000:.0f} | {bad} |"
        )


if __name__ == "__main__":
    main()
