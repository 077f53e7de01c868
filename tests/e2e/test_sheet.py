"""Sheet life on a phone: undo, edit, the live share link, and a coop session."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Sheet
from tests.e2e.conftest import new_sheet, round_count, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Competition scoring: the short rules' form picks the cards or takes typed points (classic scoring counts them).
PICKED = {"scoring": "competition"}


def typed_round(page, *points):
    for seat, pts in enumerate(points):
        page.locator(f"#points-{seat}").fill(str(pts))
    submit(page, page.locator("#save-round"))


def test_undo_and_edit_follow_the_totals(phone):
    page = phone
    sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"], PICKED)
    # Text in the points field: refused in French, in the server's words (the page's script
    # reads typed points as the server does, tests/e2e/test_seat_links.py), nothing stored.
    typed_round(page, "douze", 5)
    expect(page.locator("#form-errors")).to_contain_text("Léa : « douze » n'est pas un nombre entier.")
    assert round_count(page) == 0
    assert Sheet.objects.get(pk=sheet_id).round_count == 0
    page.goto(f"/sheets/{sheet_id}/")
    typed_round(page, 3, 5)
    assert totals(page) == [3, 5]
    typed_round(page, 4, 2)
    assert totals(page) == [7, 7]
    assert round_count(page) == 2
    expect(page.locator("#entry h2")).to_have_text("Manche 3")

    submit(page, page.locator("form.undo button"))
    expect(page.locator("#undo-toast")).to_contain_text("Manche 2 supprimée")
    assert round_count(page) == 1
    assert totals(page) == [3, 5]
    expect(page.locator("#entry h2")).to_have_text("Manche 2")
    expect(page.locator("p.leader")).to_have_text("En tête : Léa")  # lowest total wins

    # Edit round 1 through its ✎ link: the totals follow again.
    page.locator("a.edit").first.click()
    expect(page.locator("h1")).to_have_text("Modifier la manche 1")
    expect(page.locator("#points-0")).to_have_value("3")
    page.locator("#points-0").fill("9")
    submit(page, page.locator("#round-form button.primary"), navigates=True)
    expect(page.locator("ul.messages")).to_contain_text("Manche 1 enregistrée.")
    assert totals(page) == [9, 5]
    expect(page.locator("p.leader")).to_have_text("En tête : Tom")
    shot(page, "malus-mid-game")


def test_share_link_is_read_only_and_live(new_phone):
    owner = new_phone()
    sheet_id = new_sheet(owner, "numx-malus", ["Léa", "Tom", "Zoé"], PICKED)
    typed_round(owner, 1, 2, 3)
    owner.locator("details.share summary").click()
    share = owner.locator("input.share-url")
    expect(share).to_be_visible()
    url = share.input_value()
    assert re.search(rf"/w/{sheet_id}/[^/]+/$", url), url
    expect(owner.locator("details.share .qr svg")).to_be_visible()
    shot(owner, "share-owner")

    watcher = new_phone()
    watcher.goto(url)
    expect(watcher.locator("h1")).to_contain_text("en direct")
    expect(watcher.locator("table.scores")).to_be_visible()
    assert totals(watcher) == [1, 2, 3]
    # Read only: nothing to enter, undo, edit or share.
    expect(watcher.locator("#round-form")).to_have_count(0)
    expect(watcher.locator("form.undo")).to_have_count(0)
    expect(watcher.locator("a.edit")).to_have_count(0)
    expect(watcher.locator("details.share")).to_have_count(0)
    # Its own cookies do not make it an editor of the sheet page either.
    assert watcher.request.get(f"/sheets/{sheet_id}/").status == 404
    shot(watcher, "share-watcher")

    typed_round(owner, 10, 4, 6)
    assert totals(owner) == [11, 6, 9]
    # The watcher refreshes by itself (it polls every 2 s).
    expect(watcher.locator("table.scores tfoot tr.total-row td").first).to_have_text("11")
    assert totals(watcher) == [11, 6, 9]
    assert round_count(watcher) == 2
    expect(watcher.locator("#round-form")).to_have_count(0)
    shot(watcher, "share-watcher-updated")


def test_coop_session_summary(phone):
    page = phone
    new_sheet(page, "coop", ["Ana", "Bo", "Cy"], options={"mode": "cooperatif"}, screenshot="coop-new")
    expect(page.locator("label[for=placed]")).to_have_text("Cartes posées (sur 96)")

    # A win: every card placed.
    submit(page, page.locator("button[name=won]"))
    # A session has no meaningful running total: no totals row, the summary says it all.
    assert totals(page) == []
    summary = page.locator("section.summary-box")
    expect(summary).to_contain_text("1 gagnée sur 1 partie")
    expect(summary).to_contain_text("meilleur 96/96")

    # A loss: 70 cards placed.
    page.locator("#placed").fill("70")
    submit(page, page.locator("#save-round"))
    assert round_count(page) == 2
    expect(summary).to_contain_text("1 gagnée sur 2 parties")
    expect(summary).to_contain_text("meilleur 96/96")
    # A session never finishes by itself: the entry form stays.
    expect(page.locator("#round-form")).to_be_visible()
    expect(page.locator("section.winners")).to_have_count(0)
    shot(page, "coop-session")
    # Win rate 1 of 2, and the rule book's 39.5 % for three players (normal mode).
    expect(summary).to_contain_text(re.compile(r"taux de victoire\s*50(?:[,.]0)?\s*%"))
    expect(summary).to_contain_text(re.compile(r"pour cette table :\s*39[,.]5\s*%"))


def test_coop_enter_in_cards_placed_saves_what_was_typed(phone):
    page = phone
    new_sheet(page, "coop", ["Ana", "Bo", "Cy"])
    page.locator("#placed").fill("70")
    submit(page, page.locator("#placed"), key="Enter")
    assert round_count(page) == 1
    expect(page.locator("section.summary-box")).to_contain_text("0 gagnée sur 1 partie")
    expect(page.locator("section.summary-box")).to_contain_text("70/96")


def test_no_provisional_bonus_note_without_a_bonus(phone):
    page = phone
    new_sheet(page, "numx-malus", ["Léa", "Tom"], PICKED)
    typed_round(page, 3, 5)
    assert totals(page) == [3, 5]
    expect(page.get_by_text("Les bonus sont provisoires")).to_have_count(0)


def test_the_header_button_switches_the_language_of_a_watched_sheet(phone, new_phone):
    page = phone
    new_sheet(page, "numx", ["Léa", "Tom"])
    share = page.locator(".share-url").input_value()
    watcher = new_phone()
    watcher.goto(share)
    expect(watcher.locator("#main")).to_contain_text("Cette page se met à jour toute seule.")
    watcher.get_by_role("button", name="EN").click()
    watcher.wait_for_load_state()
    expect(watcher.locator("#main")).to_contain_text("This page updates by itself.")
    assert watcher.url == share
