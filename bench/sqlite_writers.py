"""Writers contending for SQLite's write lock: SQLite's own busy wait against a queue on a file lock.

Run from the repo root: ``python bench/sqlite_writers.py [--writers 2] [--seconds 5]``. Stdlib
only; about 1 minute.

Each writer is a process, as a gunicorn sync worker is: it works on the CPU for a while (the
request outside the database), then runs one write transaction shaped like adding a round
(BEGIN IMMEDIATE, a read, an INSERT of a 1 KB row, five UPDATEs, COMMIT) on a WAL database
with synchronous=NORMAL, as numapp/settings.py opens it. Two ways to wait for the lock:

- ``busy``: SQLite's busy handler (Python's ``timeout``), which Django's SQLite backend uses:
  it sleeps 1, 2, 5, 10 … 100 ms between tries, so a waiter may wake late;
- ``flock``: an exclusive ``fcntl.flock`` on a lock file held from BEGIN to COMMIT, which the
  kernel hands to the next waiter as soon as it is released.

The two are measured alternately, several times, and the medians printed: transactions per
second and the p50/p99 of a transaction's time, waiting included.
"""

import argparse
import fcntl
import multiprocessing
import os
import sqlite3
import statistics
import tempfile
import time

CPU_MS = 3.0  # a request's work outside the database (add a round: ~4.5 ms of CPU in all)


def setup(path: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(
        """
        CREATE TABLE sheet (id INTEGER PRIMARY KEY, version INTEGER, body TEXT);
        CREATE TABLE round (id INTEGER PRIMARY KEY, sheet_id INTEGER, data TEXT);
        CREATE TABLE player (id INTEGER PRIMARY KEY, sheet_id INTEGER, total INTEGER);
        """
    )
    conn.executemany("INSERT INTO sheet VALUES (?, 0, ?)", [(i, "x" * 200) for i in range(1000)])
    conn.executemany("INSERT INTO player VALUES (?, ?, 0)", [(i, i // 5) for i in range(5000)])
    conn.commit()
    conn.close()


def spin(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def writer(path: str, mode: str, seconds: float, seed: int, out) -> None:
    conn = sqlite3.connect(path, timeout=20, isolation_level=None)
    conn.execute("PRAGMA synchronous=NORMAL")
    lock = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600) if mode == "flock" else None
    times = []
    n = seed
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        spin(CPU_MS)
        n += 7
        sheet = n % 1000
        started = time.perf_counter()
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("SELECT version, body FROM sheet WHERE id = ?", (sheet,)).fetchone()
            conn.execute("INSERT INTO round (sheet_id, data) VALUES (?, ?)", (sheet, "r" * 1000))
            for seat in range(5):
                conn.execute("UPDATE player SET total = total + 1 WHERE id = ?", (sheet * 5 + seat,))
            conn.execute("UPDATE sheet SET version = version + 1 WHERE id = ?", (sheet,))
            conn.execute("COMMIT")
        finally:
            if lock is not None:
                fcntl.flock(lock, fcntl.LOCK_UN)
        times.append(time.perf_counter() - started)
    out.put(times)


def measure(path: str, mode: str, writers: int, seconds: float) -> tuple[float, float, float]:
    out = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=writer, args=(path, mode, seconds, i, out)) for i in range(writers)]
    for p in procs:
        p.start()
    times = [t for _ in procs for t in out.get()]
    for p in procs:
        p.join()
    times.sort()
    return len(times) / seconds, times[len(times) // 2] * 1000, times[int(len(times) * 0.99)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writers", type=int, default=2, help="writer processes (default 2, as gunicorn's workers)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "db.sqlite3")
        setup(path)
        results = {"busy": [], "flock": []}
        for rep in range(args.reps):
            for mode in results:
                results[mode].append(measure(path, mode, args.writers, args.seconds))
                rate, p50, p99 = results[mode][-1]
                print(f"rep {rep + 1} {mode}: {rate:.0f} tx/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms", flush=True)
    print(f"\n{args.writers} writers, {CPU_MS} ms of CPU between transactions, medians of {args.reps}:")
    print("| wait | tx/s | p50 ms | p99 ms |\n|---|---:|---:|---:|")
    for mode, rows in results.items():
        cols = [statistics.median(r[i] for r in rows) for i in range(3)]
        print(f"| {mode} | {cols[0]:.0f} | {cols[1]:.1f} | {cols[2]:.1f} |")


if __name__ == "__main__":
    main()
