"""What the pages a table asks for cost in process: CPU per request through Django's test client.

Run from the repo root: ``python bench/pages.py`` (SQLite in a temporary directory, the
local-memory cache). About 10 seconds. Runs on older checkouts too, to compare in one
session: each page is requested 20 times per repetition after one unmeasured request,
5 repetitions, and the median is printed in ms of CPU (this process: the view, the
engine, the templates, the SQLite queries).

- an 8 × 18 short-rules sheet (8 players, 18 rounds), as ``bench/load.py`` seeds it: the
  share page, the watchers' poll after a round (``?fragment=1``, no ``If-None-Match``),
  the creator's page;
- a new 6-player Num-X speed run: the creator's page, whose entry form is six card pickers.
"""

import os
import pathlib
import random
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="numapp-pages-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")

import django  # noqa: E402

django.setup()

import load  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from scoring import services  # noqa: E402
from scoring.access import OWNER_SESSION_KEY  # noqa: E402
from scoring.models import Sheet  # noqa: E402

REQUESTS, REPS = 20, 5


def share_token(sheet_id):
    try:
        from scoring.tokens import read_token
    except ImportError:  # older checkouts
        return services.share_token(sheet_id)
    return read_token(sheet_id)


def new_sheet(client, slug, players, **options):
    client.post(f"/new/{slug}/", {"player": players, **{f"opt-{k}": v for k, v in options.items()}})
    return Sheet.objects.filter(owner_key=client.session[OWNER_SESSION_KEY]).latest("created_at")


def cpu_ms(client, url):
    assert client.get(url).status_code == 200, url
    times = []
    for _ in range(REPS):
        start = time.process_time()
        for _ in range(REQUESTS):
            client.get(url)
        times.append((time.process_time() - start) / REQUESTS * 1000)
    return sorted(times)[REPS // 2]


def main():
    call_command("migrate", verbosity=0)
    creator = Client(HTTP_HOST="127.0.0.1")
    sheet = new_sheet(creator, "numx-malus", load.NAMES8)
    rng, totals = random.Random(2), dict.fromkeys(load.NAMES8, 0)
    for _ in range(18):
        sheet = services.round_add(sheet=sheet, data=load._malus_round(rng, load.NAMES8, totals))
    share = f"/w/{sheet.pk}/{share_token(sheet.pk)}/"
    numx = new_sheet(creator, "numx", ["Léa", "Marc", "Hugo", "Paul", "Zoé", "Inès"], mode="speedrun")
    pages = [
        ("share page, 8 × 18", Client(HTTP_HOST="127.0.0.1"), share),
        ("watchers' poll after a round, 8 × 18", Client(HTTP_HOST="127.0.0.1"), share + "?fragment=1"),
        ("creator's page, 8 × 18 short rules", creator, f"/sheets/{sheet.pk}/"),
        ("creator's page, new 6-player Num-X", creator, f"/sheets/{numx.pk}/"),
    ]
    print(f"pages in process, ms of CPU per request (median of {REPS} × {REQUESTS}):")
    for name, client, url in pages:
        print(f"  {name:40} {cpu_ms(client, url):6.2f}")


if __name__ == "__main__":
    main()
