"""Shared helpers of the PostgreSQL benchmarks (bench/purge.py, bench/leaderboard.py).

Each benchmark owns a dedicated database, creates and migrates it if needed, and
bulk-loads its rows with set-based SQL (INSERT ... SELECT over generate_series).
"""

import datetime as dt
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def db_url(name: str) -> str:
    return f"{PG}/{name}"


def connect(url: str, **kwargs):
    import psycopg

    return psycopg.connect(url, autocommit=True, **kwargs)


def ensure_database(name: str, env: dict) -> str:
    """Create the database `name` if missing, migrate it, and return its URL."""
    with connect(db_url("postgres")) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    url = db_url(name)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**env, "DATABASE_URL": url},
        check=True,
    )
    return url


def django_setup(url: str, var_dir: str) -> None:
    """Configure Django in this process against `url` (call before importing models)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("VAR_DIR", var_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
    import django

    django.setup()


def percentile(values, q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def machine() -> str:
    """One line naming the machine: cores, memory, PostgreSQL, Python, date."""
    mem = ""
    try:
        mem = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.splitlines()[1].split()[1]
    except Exception:
        pass
    pg = ""
    try:
        with connect(db_url("postgres")) as conn:
            pg = conn.execute("SHOW server_version").fetchone()[0]
    except Exception:
        pass
    return (
        f"nproc={os.cpu_count()} mem={mem} PostgreSQL {pg} Python {platform.python_version()} "
        f"date={dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC"
    )


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"
