"""What the pages a table asks for cost in process: CPU per request through Django's test client.

Run from the repo root: ``python bench/pages.py`` (SQLite in a temporary directory, the
local-memory cache). About 20 seconds. Runs on older checkouts too, to compare in one
session: each page is requested 20 times per repetition after one unmeasured request,
5 repetitions, and the median is printed in ms of CPU (this process: the view, the
engine, the templates, the SQLite queries). ``--calls`` prints the Python calls of each
request instead (cProfile): a count that does not move with the machine's load, to compare
two versions of the code on a busy machine.

- an 8 × 18 short-rules sheet (8 players, 18 rounds), as ``bench/load.py`` seeds it: the
  share page, the watchers' poll after a round (``?fragment=1``, no ``If-None-Match``),
  the creator's page;
- a new 6-player Num-X speed run: the creator's page, whose entry form is six card pickers;
- the creator's page as a phone lands on it after a round: 8 × 11 short-rules sheets, each
  page seen once, take their 12th round through the service, then the page of that new
  version is asked once (median of 20 sheets).
"""

import cProfile
import os
import pathlib
import pstats
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


def seat_page(sheet):
    """Return the address of the third player's own page (None on checkouts without players' links)."""
    try:
        from scoring.tokens import entry_token
    except ImportError:
        return None
    return f"/p/{sheet.pk}/2/{entry_token(sheet.pk, 2, sheet.links_epoch)}/"


def cpu_ms(client, url) -> float:
    """Return the CPU ms of one request (this process: the view, the engine, the templates, the queries)."""
    start = time.process_time()
    assert client.get(url).status_code == 200, url
    return (time.process_time() - start) * 1000


def calls(client, url) -> int:
    """Return the Python calls of one request: a count that the machine's load does not move."""
    profile = cProfile.Profile()
    profile.enable()
    status = client.get(url).status_code
    profile.disable()
    assert status == 200, url
    return pstats.Stats(profile).total_calls


def repeated(measure, client, url) -> float:
    """Return the median of `measure` over REPS × REQUESTS requests of one page, after one unmeasured."""
    client.get(url)
    per_rep = []
    for _ in range(REPS):
        per_rep.append(sorted(measure(client, url) for _ in range(REQUESTS))[REQUESTS // 2])
    return sorted(per_rep)[REPS // 2]


def landing(measure, creator, sheets=20) -> float:
    """Return the median `measure` of the creator's page at the version a round just made (the phone's landing)."""
    ready = []
    for i in range(sheets):
        sheet = new_sheet(creator, "numx-malus", load.NAMES8)
        rng, totals = random.Random(i), dict.fromkeys(load.NAMES8, 0)
        for _ in range(11):
            sheet = services.round_add(sheet=sheet, data=load._malus_round(rng, load.NAMES8, totals))
        creator.get(f"/sheets/{sheet.pk}/")  # the page of 11 rounds, as the phone saw it
        ready.append((sheet, rng, totals))
    values = []
    for sheet, rng, totals in ready:
        sheet = services.round_add(sheet=sheet, data=load._malus_round(rng, load.NAMES8, totals))
        values.append(measure(creator, f"/sheets/{sheet.pk}/"))
    return sorted(values)[len(values) // 2]


def main():
    count = "--calls" in sys.argv[1:]
    measure = calls if count else cpu_ms
    call_command("migrate", verbosity=0)
    creator = Client(HTTP_HOST="127.0.0.1")
    sheet = new_sheet(creator, "numx-malus", load.NAMES8)
    rng, totals = random.Random(2), dict.fromkeys(load.NAMES8, 0)
    for _ in range(18):
        sheet = services.round_add(sheet=sheet, data=load._malus_round(rng, load.NAMES8, totals))
    share = f"/w/{sheet.pk}/{share_token(sheet.pk)}/"
    seat = seat_page(sheet)
    numx = new_sheet(creator, "numx", ["Léa", "Marc", "Hugo", "Paul", "Zoé", "Inès"], mode="speedrun")
    pages = [
        ("share page, 8 × 18", Client(HTTP_HOST="127.0.0.1"), share),
        ("watchers' poll after a round, 8 × 18", Client(HTTP_HOST="127.0.0.1"), share + "?fragment=1"),
        ("creator's page, 8 × 18 short rules", creator, f"/sheets/{sheet.pk}/"),
        *([("a player's page, 8 × 18", Client(HTTP_HOST="127.0.0.1"), seat)] if seat else []),
        ("creator's page, new 6-player Num-X", creator, f"/sheets/{numx.pk}/"),
    ]
    unit = "Python calls" if count else "ms of CPU"
    print(f"pages in process, {unit} per request (median of {REPS} × {REQUESTS}; the landing: of 20 sheets):")
    for name, client, url in pages:
        print(f"  {name:40} {repeated(measure, client, url):8.{0 if count else 2}f}")
    print(f"  {'landing after a round, 8 × 12':40} {landing(measure, creator):8.{0 if count else 2}f}")


if __name__ == "__main__":
    main()
