"""What a table's phones send during one round, counted in Chromium: the table model of `make bench-capacity`.

bench/capacity.py (`round_plan`, `Step`) plays tables as these pages do: each player's phone
sends its own entry, the sheet's phone the rest and the save, and every committed change
makes each phone fetch its page once (the sheet's phone shows its own writes from their
answer). If the pages send more or less, this test fails and the model must follow
(docs/performance.md, "Capacity").
"""

import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from scoring import tokens
from scoring.models import Sheet
from tests.e2e.conftest import new_sheet, submit

# The phones load the in-page engine, as players' phones do: what it answers is not asked of the server.
pytestmark = [pytest.mark.browser, pytest.mark.engine, pytest.mark.django_db(transaction=True)]
WAIT_MS = 30000  # five phones and the server on two cores: every step waits for a condition, at most this
PLAYERS = ["Léa", "Marc", "Nina", "Oscar"]  # three with a phone of their own, Oscar's entry on the sheet's phone


def kind(method: str, url: str) -> str | None:
    """Name a request as the model does; None for what a phone fetches once and keeps (service worker, cache).

    The static files, the in-page engine's bundle and the offline page are fetched when a phone
    first opens the app, not at each round.
    """
    path = re.sub(r"^https?://[^/]+", "", url).split("?")[0]
    if path.startswith(("/static/", "/sw.js", "/manifest", "/engine/", "/offline/")) or path.endswith(".ico"):
        return None
    path = re.sub(r"^/api/v1/sheets/[^/]+/", "/api/v1/sheets/{id}/", path)
    path = re.sub(r"/entries/[^/]+/$", "/entries/{player}/", path)
    path = re.sub(r"^/sheets/[^/]+/", "/sheets/{id}/", path)
    path = re.sub(r"^/p/[^/]+/\d+/[^/]+/$", "/p/{id}/{seat}/{token}/", path)
    path = re.sub(r"^/w/[^/]+/[^/]+/$", "/w/{id}/{token}/", path)
    return f"{method} {path}"


def test_one_num_king_round_from_four_phones_sends_what_the_capacity_model_sends(new_phone):
    def phone():
        page = new_phone()
        page.set_default_timeout(WAIT_MS)
        return page

    creator = phone()
    sheet_id = new_sheet(creator, "numking", PLAYERS)
    creator.locator("#seat-links > summary").click()
    urls = creator.locator("input.seat-url").evaluate_all("els => els.map(e => e.value)")
    watcher = phone()
    watcher.goto(f"/w/{sheet_id}/{tokens.read_token(sheet_id)}/")
    seats = []
    for url in urls[:3]:
        seats.append(phone())
        seats[-1].goto(url)
    phones = {"sheet": [creator], "seat": seats, "watcher": [watcher]}
    sent = Counter()
    for who, pages in phones.items():
        for page in pages:
            page.on(
                "request",
                lambda r, who=who: sent.update([(who, kind(r.method, r.url))]) if kind(r.method, r.url) else None,
            )

    def all_show_the_sheet():
        """Wait until every phone shows the sheet's version as stored (each change heard and shown)."""
        version = str(Sheet.objects.get(pk=sheet_id).version)
        for pages in phones.values():
            for page in pages:
                expect(page.locator("#board")).to_have_attribute("data-version", version, timeout=WAIT_MS)

    def send(phone, field: str, value: int):
        phone.locator(f"input[name^={field}-]").fill(str(value))
        phone.locator("#save-entry").click()
        expect(phone.locator("#seat-status")).to_contain_text("✓", timeout=WAIT_MS)
        all_show_the_sheet()

    for phone in seats:
        send(phone, "bid", 0)
    creator.locator("#bid-3").fill("1")
    submit(creator, creator.locator("#save-bids"))
    all_show_the_sheet()
    for phone in seats:
        send(phone, "tricks", 0)
    creator.locator("#tricks-3").fill("1")
    submit(creator, creator.locator("#save-round"))
    all_show_the_sheet()
    assert Sheet.objects.get(pk=sheet_id).round_count == 1

    changes = 3 + 1 + 3 + 1  # bids, the bids saved, tricks, the round saved
    # Each phone's stream is held (the model opens it before it plays); a browser may open it again
    # after a dropped connection, which the model leaves out.
    for who in phones:
        sent.pop((who, "GET /api/v1/sheets/{id}/events/"), None)
    assert dict(sent) == {
        ("seat", "PUT /api/v1/sheets/{id}/draft/entries/{player}/"): 6,
        ("sheet", "POST /sheets/{id}/draft/"): 1,
        ("sheet", "POST /api/v1/sheets/{id}/rounds/"): 1,
        ("sheet", "GET /sheets/{id}/"): changes,
        ("seat", "GET /p/{id}/{seat}/{token}/"): 3 * changes,
        ("watcher", "GET /w/{id}/{token}/"): changes,
    }
