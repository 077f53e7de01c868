"""Card games on a phone: the picker, the live points, and the refusals."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Sheet
from tests.e2e.conftest import new_sheet, round_count, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hand(page, name):
    return page.locator(f"fieldset.hand[data-name='{name}']")


def pick(page, name, *cards):
    """Open `name`'s picker and tap each card: ("red", 7) or ("joker",) / ("action", "flip")."""
    h = hand(page, name)
    if h.locator(".picker").is_hidden():
        h.locator(".hand-toggle").click()
    expect(h.locator(".picker")).to_be_visible()
    for card in cards:
        kind = card[0]
        if kind == "action":
            h.locator(f".special.action[data-name='{card[1]}']").click()
        elif len(card) == 1:
            h.locator(f".special[data-kind='{kind}']").click()
        else:
            h.locator(f".colour[data-kind='{kind}']").click()
            h.locator(f".value[data-value='{card[1]}']").click()


def chips(page, name):
    return [t.replace("×", "").strip() for t in hand(page, name).locator(".chips .chip").all_inner_texts()]


def test_numx_round_with_the_picker(phone):
    page = phone
    sheet_id = new_sheet(page, "numx", ["Elya", "Sasha"], screenshot="numx-new")
    elya, sasha = hand(page, "Elya"), hand(page, "Sasha")

    # The first player's picker is open; a value before a colour only gets a hint.
    expect(elya.locator(".picker")).to_be_visible()
    expect(sasha.locator(".picker")).to_be_hidden()
    elya.locator(".value[data-value='7']").click()
    expect(elya.locator("output.live")).to_have_text("Choisissez d'abord une couleur.")
    assert chips(page, "Elya") == []

    pick(page, "Elya", ("red", 7), ("rainbow", 7))
    assert chips(page, "Elya") == ["7", "7"]
    expect(elya.locator("output.live")).to_have_text("= 14 pts")

    # Sasha's picker: 7 red and 7 rainbow are Elya's, so they cannot be tapped again.
    sasha.locator(".hand-toggle").click()
    expect(sasha.locator(".picker")).to_be_visible()
    expect(elya.locator(".picker")).to_be_hidden()
    sasha.locator(".colour[data-kind='red']").click()
    expect(sasha.locator(".colour[data-kind='red']")).to_have_attribute("aria-pressed", "true")
    expect(sasha.locator(".value[data-value='7']")).to_be_disabled()
    expect(sasha.locator(".value[data-value='8']")).to_be_enabled()
    sasha.locator(".colour[data-kind='rainbow']").click()
    expect(sasha.locator(".value[data-value='7']")).to_be_disabled()
    sasha.locator(".colour[data-kind='blue']").click()
    expect(sasha.locator(".value[data-value='7']")).to_be_enabled()

    pick(page, "Sasha", ("blue", 9), ("red", 9))
    assert chips(page, "Sasha") == ["9", "9"]
    expect(sasha.locator("output.live")).to_have_text("= 0 pt")
    expect(elya.locator("output.live")).to_have_text("= 14 pts")
    shot(page, "numx-picker")

    # Three jokers in a deck of two: the live check names the problem...
    pick(page, "Sasha", ("joker",), ("joker",), ("joker",))
    assert chips(page, "Sasha") == ["9", "9", "Joker", "Joker", "Joker"]
    expect(sasha.locator("output.live")).to_have_text(
        re.compile(r"Trop d'exemplaires .*Joker.*: 3 \(le paquet en a 2\)")
    )
    expect(sasha).to_have_class(re.compile(r"\binvalid\b"))
    shot(page, "numx-picker-error")

    # ...and the server refuses the round, in French, storing nothing.
    submit(page, page.locator("#save-round"))
    errors = page.locator("#form-errors")
    expect(errors).to_be_visible()
    expect(errors).to_contain_text("Vérifiez :")
    expect(errors).to_contain_text(re.compile(r"Trop d'exemplaires .*Joker.*: 3 \(le paquet en a 2\)"))
    assert round_count(page) == 0
    expect(page.locator("table.scores tbody")).to_contain_text("Aucune manche pour l'instant.")
    assert Sheet.objects.get(pk=sheet_id).round_count == 0
    # The hands typed so far come back, ready to be corrected.
    assert chips(page, "Elya") == ["7", "7"]
    assert chips(page, "Sasha") == ["9", "9", "Joker", "Joker", "Joker"]
    shot(page, "numx-server-error")

    # Remove the jokers by tapping their chips, then save.
    sasha_chips = sasha.locator(".chips .chip")
    for _ in range(3):
        sasha_chips.last.click()
    assert chips(page, "Sasha") == ["9", "9"]
    expect(sasha.locator("output.live")).to_have_text("= 0 pt")
    submit(page, page.locator("#save-round"))
    page.wait_for_url(re.compile(rf"/sheets/{sheet_id}/(#totals)?$"))
    assert totals(page) == [14, 0]
    assert round_count(page) == 1
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    # Speed Run is one round: the game is over and Elya (highest) wins.
    expect(page.locator("section.winners .trophy")).to_have_text(re.compile(r"Gagnant : Elya\s*$"))
    expect(page.locator("form.rematch button")).to_contain_text("Revanche")
    expect(page.locator("#round-form")).to_have_count(0)
    shot(page, "numx-finished")


def test_numwin_failed_declaration_adds_20(phone):
    page = phone
    sheet_id = new_sheet(page, "numwin", ["Ana", "Bo", "Cy"])
    # Ana: 🌈5 (activated by a shadow of another value) + 🌑8 + 3 + 1 + 2 = 19.
    pick(page, "Ana", ("rainbow", 5), ("shadow", 8), ("red", 3), ("blue", 1), ("green", 2))
    # Bo: 2 + 4 + 0 + 1 + lone 🌈7 (0) = 7.
    pick(page, "Bo", ("red", 2), ("blue", 4), ("green", 0), ("yellow", 1), ("rainbow", 7))
    # No joker in Num Win: the picker has none to offer.
    expect(hand(page, "Bo").locator(".special[data-kind='joker']")).to_have_count(0)
    page.locator("#points-2").fill("12")
    expect(hand(page, "Ana").locator("output.live")).to_have_text("= 19 pts")
    expect(hand(page, "Bo").locator("output.live")).to_have_text("= 7 pts")
    expect(hand(page, "Cy").locator("output.live")).to_have_text("= 12 pts")

    # Ana calls "Num Win" without the lowest hand: +20.
    page.locator("fieldset.declarer label", has_text="Ana").click()
    expect(page.locator("input[name=declarer][value='0']")).to_be_checked()
    expect(hand(page, "Ana").locator("output.live")).to_have_text("= 39 pts")
    expect(hand(page, "Bo").locator("output.live")).to_have_text("= 7 pts")
    shot(page, "numwin-declared")

    submit(page, page.locator("#save-round"))
    page.wait_for_url(re.compile(rf"/sheets/{sheet_id}/(#totals)?$"))
    assert totals(page) == [39, 7, 12]
    expect(page.locator("p.leader")).to_have_text("En tête : Bo")
    expect(page.locator("#entry h2")).to_have_text("Manche 2")
    ana_cell = page.locator("table.scores tbody tr").first.locator("details.cell").first
    ana_cell.locator("summary").click()
    expect(ana_cell.locator(".pop")).to_contain_text("Num Win raté (main pas la plus basse) → +20")
    shot(page, "numwin-sheet")
