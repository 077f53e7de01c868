"""What reading one live sheet costs: the ORM's query against the one fixed statement.

Run from the repo root: ``python bench/sheet_read.py`` (SQLite in a temporary directory),
or with ``DATABASE_URL=postgres://…/<db>`` (a database of your own: it is migrated and one
sheet is added). About 10 seconds.

Every sheet request starts by reading the sheet if it is still alive (not deleted, owned
or not yet expired). ``Sheet.objects.alive().filter(pk=…).first()`` builds and compiles
the query each time; ``Sheet.objects.read_alive(pk)`` runs the same condition as one fixed
statement through ``Manager.raw`` (scoring/models.py). Both are timed alternately, in µs of
CPU per read (this process only, not the database server's), medians of 5 repetitions.
"""

import os
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="numapp-read-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from scoring import services  # noqa: E402
from scoring.models import Sheet  # noqa: E402

READS, REPS = 2000, 5


def main():
    call_command("migrate", verbosity=0)
    pk = services.sheet_create(game="numx", players=["A", "B", "C", "D"], options={}, owner_key="bench").sheet.pk
    ways = {
        "ORM: alive().filter(pk=…).first()": lambda: Sheet.objects.alive().filter(pk=pk).first(),
        "one statement: read_alive(pk)": lambda: Sheet.objects.read_alive(pk),
    }
    for read in ways.values():
        assert read().pk == pk
    times = {name: [] for name in ways}
    for _ in range(REPS):
        for name, read in ways.items():
            start = time.process_time()
            for _ in range(READS):
                read()
            times[name].append((time.process_time() - start) / READS * 1e6)
    print(f"sheet read, {connection.vendor}, µs of CPU per read (median of {REPS} × {READS}):")
    for name, values in times.items():
        values.sort()
        print(f"  {name:36} {values[REPS // 2]:7.1f}   (range {values[0]:.0f}–{values[-1]:.0f})")


if __name__ == "__main__":
    main()
