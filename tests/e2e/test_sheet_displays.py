"""The new sheet displays on a phone: Num King cells and dealer, a Num Win tie-break, a teams game (360 and 390 px)."""

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def api(live_server, method, path, body=None, token=""):
    req = urllib.request.Request(
        live_server.url + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"X-Edit-Token": token} if token else {})},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read() or b"null")


def sheet_with(live_server, game, players, options, rounds):
    created = api(live_server, "POST", "/api/v1/sheets/", {"game": game, "players": players, "options": options})
    for rnd in rounds:
        api(live_server, "POST", f"/api/v1/sheets/{created['id']}/rounds/", rnd, created["edit_token"])
    return created["edit_url"]


def cards(*pairs):
    return [{"kind": k, "value": v} for k, v in pairs]


def king(*pairs):
    names = ["Léa", "Marc", "Hugo", "Zoé"]
    return {"entries": {n: {"bid": b, "tricks": t} for n, (b, t) in zip(names, pairs)}}


def open_at(browser, live_server, url, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="fr-FR", base_url=live_server.url)
    page = context.new_page()
    page.goto(url)
    return context, page


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.parametrize("width", [360, 390])
def test_it_shows_a_num_king_game_with_bids_dealers_and_the_bonus_detail(browser, live_server, width):
    url = sheet_with(
        live_server,
        "numking",
        ["Léa", "Marc", "Hugo", "Zoé"],
        {"dealer": 2},
        [
            king((1, 1), (0, 0), (0, 0), (0, 0)),
            king((1, 1), (1, 0), (0, 1), (0, 0)),
            king((2, 2), (0, 0), (1, 1), (0, 0)),
        ],
    )
    context, page = open_at(browser, live_server, url, width)
    try:
        expect(page.locator("#entry h2")).to_have_text("Manche 4/9 · 4 cartes")
        expect(page.locator(".dealer-line")).to_have_text("🂠 Donneur : Marc")
        first = page.locator("table.scores tbody tr").first
        expect(first.locator("td").nth(2)).to_contain_text("donneur")
        expect(page.locator("table.scores tbody tr").nth(1).locator(".bt.missed")).to_have_count(2)
        page.locator("tr.bonus-row details.cell").first.locator("summary").click()
        expect(page.locator("tr.bonus-row .pop").first).to_contain_text("Manches 1–3 : 3 annonces exactes de suite")
        assert no_sideways_scroll(page)
        shot(page, f"sheet-numking-{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_it_shows_a_num_win_tie_break_row(browser, live_server, width):
    rounds = [
        {"entries": {"Hugo": {"cards": cards(("blue", 10))}, "Léa": {"cards": cards(("red", 4))}}},
        {"entries": {"Hugo": {"cards": cards(("blue", 1))}, "Léa": {"cards": cards(("red", 7))}}},
        {"entries": {"Hugo": {"cards": cards(("blue", 3))}, "Léa": {"cards": cards(("red", 16), ("red", 8))}}},
    ]
    url = sheet_with(live_server, "numwin", ["Hugo", "Léa"], {}, rounds)
    context, page = open_at(browser, live_server, url, width)
    try:
        expect(page.locator("tr.tiebreak-outcome")).to_have_text("⚖ Hugo gagne le départage (3 contre 24)")
        expect(page.locator("tr.total-row td")).to_have_text(["11", "11"])
        assert no_sideways_scroll(page)
        shot(page, f"sheet-numwin-tiebreak-{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_it_shows_a_teams_game_with_the_team_table(browser, live_server, width):
    rounds = [
        {
            "entries": {
                "Léa": {"cards": cards(("red", 7), ("green", 12))},
                "Marc": {"cards": cards(("blue", 7), ("rainbow", 3))},
                "Hugo": {"cards": cards(("blue", 9))},
                "Zoé": {"cards": cards(("red", 9), ("yellow", 5))},
            }
        }
    ]
    options = {"teams": {"Les Rouges": ["Léa", "Marc"], "Les Bleus": ["Hugo", "Zoé"]}}
    url = sheet_with(live_server, "numx", ["Léa", "Marc", "Hugo", "Zoé"], options, rounds)
    context, page = open_at(browser, live_server, url, width)
    try:
        expect(page.locator(".team-scores tfoot td.lead")).to_have_count(1)
        page.locator(".team-scores tbody details.cell").first.locator("summary").click()
        expect(page.locator(".team-scores .pop").first).to_contain_text("Cartes réunies : Léa, Marc")
        assert no_sideways_scroll(page)
        shot(page, f"sheet-teams-{width}")
    finally:
        context.close()
