"""Purge a large backlog of expired anonymous sheets through a real Celery worker.

Run from the repo root: ``python bench/purge.py`` (1,000,000 sheets, about 6–10 minutes
with the load) or ``python bench/purge.py --quick`` (20,000 sheets, under a minute).
Needs PostgreSQL (``BENCH_PG``, default postgres://postgres@127.0.0.1:5432) and Redis
(``BENCH_REDIS``, default redis://127.0.0.1:6379/12; the benchmark empties that db).

1. Creates and migrates the database ``numapp_purge`` (``--db``), empties its sheets and
   bulk-loads N expired anonymous sheets (2 seats, 1–2 Num-X rounds each) in SQL.
2. Starts ``celery -A numapp worker --pool solo --concurrency 1`` and a writer process
   that keeps creating sheets and adding rounds through scoring.services at a fixed
   pace, timing each call.
3. Measures the writer alone (idle p99), then sends ``purge_expired_sheets`` and polls
   the count of expired sheets until it reaches zero, sampling the worker's memory.
4. Prints the figures and checks them against the goals: ≥ 20,000 sheets/s, ≤ 100 MB
   peak worker memory, writer p99 during the purge ≤ 2 × idle p99, no writer error.
   Exit status 1 if a goal is missed, 2 if the run failed.
"""

import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time

# Python puts bench/ first on sys.path; a module there could shadow the
# standard library, so import from the repo root instead.
_BENCH = pathlib.Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _BENCH]
sys.path.insert(0, str(_BENCH.parent))

from bench._common import ROOT, connect, django_setup, ensure_database, fmt_ms, machine, percentile  # noqa: E402

REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/12")
PLAYERS = ["Ana", "Bo"]
OPTIONS = {"mode": "xgame", "same_colour": False, "teams": None}
ROUND = {
    "entries": {
        "Ana": {"cards": [{"kind": "red", "value": 3}, {"kind": "blue", "value": 7}, {"kind": "green", "value": 11}]},
        "Bo": {"cards": [{"kind": "yellow", "value": 5}, {"kind": "red", "value": 9}]},
    }
}
WRITER_OWNER = "bench-writer"
GOAL_RATE, GOAL_MB, GOAL_P99_RATIO = 20_000, 100, 2.0


# -- data -------------------------------------------------------------------------


def load(url: str, n: int) -> float:
    """Replace all sheets by `n` expired anonymous ones with their seats and rounds."""
    start = time.monotonic()
    players = json.dumps(PLAYERS)
    options = json.dumps(OPTIONS)
    data = json.dumps(ROUND)
    with connect(url) as conn:
        conn.execute("TRUNCATE scoring_sheet, django_session CASCADE")
        with conn.transaction():
            conn.execute("SET LOCAL synchronous_commit = off")
            # Random-looking ids (the app's are random too), so a batch of consecutive
            # primary keys is scattered over the heap of every table.
            conn.execute(
                """
                INSERT INTO scoring_sheet (id, game, players, options, owner_key, user_id, edit_token_hash,
                                           version, finished, round_count, created_at, updated_at, expires_at)
                SELECT left(md5('s' || i), 22), 'numx', %s::jsonb, %s::jsonb, md5('o' || (i / 3)), NULL,
                       md5('t' || i) || md5('u' || i), 2 + i %% 2, i %% 2 = 1, 1 + i %% 2,
                       now() - interval '3 days' + (i %% 7200) * interval '1 second',
                       now() - interval '3 days' + (i %% 7200) * interval '1 second',
                       now() - interval '1 day' - (i %% 43200) * interval '1 second'
                FROM generate_series(1, %s) AS i
                """,
                [players, options, n],
            )
            conn.execute(
                """
                INSERT INTO scoring_player (sheet_id, seat, name, total, winner, records, user_id)
                SELECT s.id, k, (%s::jsonb) ->> k, 21 * (2 - k), s.finished AND k = 0, '{"xtrem": 0}', NULL
                FROM scoring_sheet s CROSS JOIN generate_series(0, 1) AS k
                """,
                [players],
            )
            conn.execute(
                """
                INSERT INTO scoring_round (sheet_id, number, data, created_at)
                SELECT s.id, k, %s::jsonb, s.created_at
                FROM scoring_sheet s CROSS JOIN generate_series(1, 2) AS k
                WHERE k <= s.round_count
                """,
                [data],
            )
        conn.execute("VACUUM ANALYZE scoring_sheet")
        conn.execute("VACUUM ANALYZE scoring_player")
        conn.execute("VACUUM ANALYZE scoring_round")
        conn.execute("CHECKPOINT")
    return time.monotonic() - start


def counts(url: str) -> dict:
    with connect(url) as conn:
        row = conn.execute(
            """
            SELECT (SELECT count(*) FROM scoring_sheet), (SELECT count(*) FROM scoring_player),
                   (SELECT count(*) FROM scoring_round),
                   (SELECT pg_size_pretty(pg_total_relation_size('scoring_sheet')
                         + pg_total_relation_size('scoring_player') + pg_total_relation_size('scoring_round')))
            """
        ).fetchone()
    return {"sheets": row[0], "players": row[1], "rounds": row[2], "size": row[3]}


# -- processes --------------------------------------------------------------------


def proc_kb(pid: int, field: str) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def tree(pid: int) -> list[int]:
    """Return `pid` and its descendants (a solo-pool worker has none, but check)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in pathlib.Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


class MemorySampler(threading.Thread):
    """Sample the RSS of a process tree every `interval` seconds; keep the peak."""

    def __init__(self, pid: int, interval: float = 0.05):
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak_kb, self.stop = pid, interval, 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.peak_kb = max(self.peak_kb, sum(proc_kb(p, "VmRSS") for p in tree(self.pid)))
            time.sleep(self.interval)


def stop(proc: subprocess.Popen | None, sig=signal.SIGTERM, wait: float = 15) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def wait_for(predicate, timeout: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


# -- writer (a separate process) ----------------------------------------------------


def writer(out_path: str, interval: float) -> None:
    """Create a sheet, add its two rounds, repeat, one call every `interval` seconds.

    Writes one JSON line per call: [monotonic start, seconds, op, error or null].
    SIGTERM stops it after the current call.
    """
    django_setup(os.environ["DATABASE_URL"], os.environ["VAR_DIR"])
    from scoring import services

    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    created = 0
    with open(out_path, "w", buffering=1) as out:
        next_at = time.monotonic()
        sheet = None
        step = 0
        while not stopping.is_set():
            op = "sheet_create" if step == 0 else "round_add"
            t0 = time.monotonic()
            error = None
            try:
                if step == 0:
                    sheet = services.sheet_create(
                        game="numx", players=PLAYERS, options=OPTIONS, owner_key=WRITER_OWNER
                    ).sheet
                    created += 1
                else:
                    sheet = services.round_add(sheet=sheet, data=ROUND)
            except Exception as exc:  # every error counts against the goal
                error = f"{type(exc).__name__}: {exc}"
                step = -1  # start a new sheet
            out.write(json.dumps([t0, time.monotonic() - t0, op, error]) + "\n")
            step = (step + 1) % 3
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))
            if next_at < time.monotonic() - 1:  # far behind: do not burst to catch up
                next_at = time.monotonic()
    print(json.dumps({"created": created}), flush=True)


def read_writer(path: str) -> list:
    rows = []
    for line in pathlib.Path(path).read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass  # a line cut by the stop
    return rows


def latency(rows: list, t_from: float, t_to: float) -> dict:
    window = [r for r in rows if t_from <= r[0] <= t_to]
    ok = [r[1] for r in window if r[3] is None]
    errors = [r[3] for r in window if r[3] is not None]
    stats = {"calls": len(window), "errors": len(errors), "first_errors": errors[:3]}
    if ok:
        stats.update(p50=percentile(ok, 50), p95=percentile(ok, 95), p99=percentile(ok, 99), max=max(ok))
    for op in ("sheet_create", "round_add"):
        mine = [r[1] for r in window if r[2] == op and r[3] is None]
        if mine:
            stats[f"{op}_p99"] = percentile(mine, 99)
    return stats


# -- the run ------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="smoke run: 20,000 sheets, 5 s idle")
    parser.add_argument("--db", default="numapp_purge")
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--writer-interval", type=float, default=0.05, help="seconds between writer calls")
    parser.add_argument("--batch-size", type=int, help="PURGE_BATCH_SIZE for the worker (app default if unset)")
    parser.add_argument("--no-load", action="store_true", help="keep the rows of the previous load (must be N)")
    parser.add_argument("--timeout", type=float, help="seconds to wait for the purge (default N/2000 + 60)")
    parser.add_argument("--debug", action="store_true", help="run worker and writer with DEBUG on (default off)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--writer", nargs=2, metavar=("OUT", "INTERVAL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        writer(args.writer[0], float(args.writer[1]))
        return 0
    if args.quick:
        args.sheets, args.idle_seconds = min(args.sheets, 20_000), min(args.idle_seconds, 5)
    timeout = args.timeout or args.sheets / 2000 + 60

    work = pathlib.Path(tempfile.mkdtemp(prefix="numapp-bench-purge-"))
    env = {**os.environ, "VAR_DIR": str(work / "var"), "REDIS_URL": REDIS, "LOG_LEVEL": "INFO"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if not args.debug:  # as in production: with DEBUG on, Django keeps every query's SQL
        env.update(DEBUG="0", SECRET_KEY=env.get("SECRET_KEY") or "bench-purge-" + "x" * 40)
    if args.batch_size:
        env["PURGE_BATCH_SIZE"] = str(args.batch_size)
    print(machine())
    url = ensure_database(args.db, env)
    env["DATABASE_URL"] = url
    if args.no_load:
        print("load: skipped (--no-load)")
    else:
        print(f"load: {args.sheets:,} expired anonymous sheets …", flush=True)
        print(f"load: {load(url, args.sheets):.0f} s")
    before = counts(url)
    print(f"before: {before}")

    import redis

    redis.Redis.from_url(REDIS).flushdb()  # no stale task from an earlier run
    os.environ.update(env)
    django_setup(url, env["VAR_DIR"])
    from scoring.tasks import purge_expired_sheets

    worker_log = work / "worker.log"
    writer_out = work / "writer.jsonl"
    worker = writer_proc = sampler = None
    result: dict = {
        "sheets": args.sheets,
        "machine": machine(),
        "batch_size": args.batch_size or "default",
        "debug": args.debug,
        "command": " ".join(sys.argv),
    }
    try:
        worker = subprocess.Popen(
            [str(pathlib.Path(sys.executable).with_name("celery")), "-A", "numapp", "worker", "--pool", "solo",
             "--concurrency", "1", "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=open(worker_log, "w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        if not wait_for(lambda: "ready." in worker_log.read_text(), 60) or worker.poll() is not None:
            raise RuntimeError(f"the worker did not start:\n{worker_log.read_text()[-2000:]}")
        sampler = MemorySampler(worker.pid)
        sampler.start()
        writer_proc = subprocess.Popen(
            [sys.executable, __file__, "--writer", str(writer_out), str(args.writer_interval)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        if not wait_for(lambda: writer_out.exists() and writer_out.stat().st_size > 0, 60):
            raise RuntimeError("the writer did not start")
        time.sleep(2)  # warm-up calls are not counted
        idle_from = time.monotonic()
        time.sleep(args.idle_seconds)
        idle_to = time.monotonic()
        idle_rss = sum(proc_kb(p, "VmRSS") for p in tree(worker.pid))

        # Counting the expired sheets while they go would cost the database more than the
        # writer's calls: progress comes from the statistics' delete counter (a catalog
        # read), the end from the worker's log, and the exact count is taken once after.
        cutoff_sql = "SELECT count(*) FROM scoring_sheet WHERE user_id IS NULL AND expires_at <= now()"
        deleted_sql = "SELECT n_tup_del FROM pg_stat_user_tables WHERE relname = 'scoring_sheet'"
        with connect(url) as conn:
            deleted_before = conn.execute(deleted_sql).fetchone()[0]
            sent = time.monotonic()
            purge_expired_sheets.delay()
            last, finished = sent, False
            while time.monotonic() - sent < timeout:
                time.sleep(0.25)
                finished = "succeeded" in worker_log.read_text()
                if finished:
                    break
                if time.monotonic() - last >= 10:
                    gone = conn.execute(deleted_sql).fetchone()[0] - deleted_before
                    print(f"  {time.monotonic() - sent:6.1f} s  about {gone:>9,} deleted", flush=True)
                    last = time.monotonic()
            done = time.monotonic()
            remaining = conn.execute(cutoff_sql).fetchone()[0]
            print(f"  {done - sent:6.1f} s  task done, {remaining:,} expired left", flush=True)
        if not finished or remaining:
            raise RuntimeError(f"timeout or leftovers: {remaining:,} expired sheets left after {done - sent:.0f} s")
        time.sleep(1)
        hwm = proc_kb(worker.pid, "VmHWM")
        sampler.stop.set()
        stop(writer_proc)
        created = json.loads(writer_proc.stdout.read().strip().splitlines()[-1])["created"]
        rows = read_writer(str(writer_out))
        elapsed = done - sent
        with connect(url) as conn:
            kept = conn.execute("SELECT count(*) FROM scoring_sheet WHERE owner_key = %s", [WRITER_OWNER]).fetchone()[0]
        idle, during = latency(rows, idle_from, idle_to), latency(rows, sent, done)
        succeeded = [ln for ln in worker_log.read_text().splitlines() if "succeeded" in ln or "purge: removed" in ln]
        task = [float(ln.split("succeeded in ")[1].split("s:")[0]) for ln in succeeded if "succeeded in " in ln]
        result.update(
            task_seconds=round(task[-1], 1) if task else None,
            seconds=round(elapsed, 1),
            rate=round(args.sheets / elapsed),
            worker_idle_rss_mb=round(idle_rss / 1024, 1),
            worker_peak_rss_mb=round(max(sampler.peak_kb, hwm) / 1024, 1),
            worker_vmhwm_mb=round(hwm / 1024, 1),
            writer_idle=idle,
            writer_purge=during,
            writer_created=created,
            writer_sheets_kept=kept,
            worker_log=succeeded[-2:],
            after=counts(url),
        )
    finally:
        if sampler:
            sampler.stop.set()
        stop(writer_proc)
        stop(worker)
    report(result, before)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1, default=str))
    return 0 if result["goals_met"] else 1


def report(r: dict, before: dict) -> None:
    idle, during = r["writer_idle"], r["writer_purge"]
    ratio = during["p99"] / idle["p99"]
    errors = idle["errors"] + during["errors"] + (r["writer_created"] - r["writer_sheets_kept"])
    goals = {
        f"rate ≥ {GOAL_RATE:,} sheets/s": r["rate"] >= GOAL_RATE,
        f"peak worker memory ≤ {GOAL_MB} MB": r["worker_peak_rss_mb"] <= GOAL_MB,
        f"writer p99 during purge ≤ {GOAL_P99_RATIO:g} × idle": ratio <= GOAL_P99_RATIO,
        "no writer error, no writer sheet lost": errors == 0,
    }
    r["p99_ratio"], r["goals"], r["goals_met"] = round(ratio, 2), goals, all(goals.values())
    print()
    print(r["machine"])
    print(f"rows before: {before['sheets']:,} sheets, {before['players']:,} seats, {before['rounds']:,} rounds "
          f"({before['size']}); after: {r['after']}")  # fmt: skip
    print(f"command: {r['command']} (DEBUG {'on' if r['debug'] else 'off'})")
    print(f"purge: {r['sheets']:,} sheets in {r['seconds']} s = {r['rate']:,} sheets/s (batch {r['batch_size']}); "
          f"the worker's own task time: {r['task_seconds']} s")  # fmt: skip
    print(
        f"worker memory: {r['worker_idle_rss_mb']} MB idle RSS, {r['worker_peak_rss_mb']} MB peak (VmHWM {r['worker_vmhwm_mb']} MB)"
    )
    for label, s in (("idle", idle), ("during purge", during)):
        print(f"writer {label:<13} {s['calls']:>5} calls, {s['errors']} errors, p50 {fmt_ms(s['p50'])}, "
              f"p95 {fmt_ms(s['p95'])}, p99 {fmt_ms(s['p99'])} (create {fmt_ms(s.get('sheet_create_p99', 0))}, "
              f"round {fmt_ms(s.get('round_add_p99', 0))}), max {fmt_ms(s['max'])}")  # fmt: skip
        if s["first_errors"]:
            print(f"  errors: {s['first_errors']}")
    print(
        f"writer p99 ratio during/idle: {ratio:.2f}; sheets created {r['writer_created']}, kept {r['writer_sheets_kept']}"
    )
    print(f"worker log: {r['worker_log']}")
    for goal, ok in goals.items():
        print(f"  [{'met' if ok else 'MISSED'}] {goal}")


if __name__ == "__main__":
    sys.exit(main())
