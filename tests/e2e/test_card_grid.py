"""Fewer taps: a whole Num-X round of four hands, one tap per card, counted as the browser dispatches them."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Round
from tests.e2e.conftest import shot, submit, totals

from .test_phone_fits import OVERFLOW
from .test_seat_links import make_sheet, phone_at  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Léa", "Marc", "Hugo", "Paul"]
# A round as a table lays it down: 7, 6, 7 and 6 cards, specials among them.
HANDS = {
    "Léa": [("red", 7), ("blue", 7), ("green", 3), ("yellow", 12), ("rainbow", 5), ("red", 0), ("joker",)],
    "Marc": [("red", 9), ("blue", 9), ("green", 14), ("yellow", 2), ("shadow", 11), ("red", 6)],
    "Hugo": [("red", 1), ("blue", 1), ("green", 1), ("yellow", 16), ("rainbow", 8), ("shadow", 8), ("infini",)],
    "Paul": [("blue", 4), ("red", 10), ("green", 13), ("yellow", 15), ("red", 3), ("numx",)],
}
MAX_TAPS = 30
# Every click the page receives from a person (or from Playwright's real mouse events): isTrusted.
COUNT_TAPS = """() => { window.__taps = 0;
  document.addEventListener('click', (e) => { if (e.isTrusted) window.__taps += 1; }, true); }"""


def as_json(card):
    return {"kind": card[0], "value": card[1]} if len(card) == 2 else {"kind": card[0]}


class Taps:
    """Taps the page like a thumb and counts each one."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, locator):
        self.count += 1
        locator.click()


@pytest.mark.parametrize("width, lang", [(360, "fr"), (390, "fr"), (360, "en"), (390, "en")])
def test_a_four_player_num_x_round_takes_at_most_30_taps(phone_at, width, lang):  # noqa: F811
    page = phone_at(width, lang)
    sheet_id = make_sheet(page, "numx", PLAYERS, lang)
    page.evaluate(COUNT_TAPS)
    tap = Taps(page)
    for name, cards in HANDS.items():
        hand = page.locator(f"fieldset.hand[data-name='{name}']")
        if hand.locator(".picker").is_hidden():
            tap(hand.locator(".hand-toggle"))  # every closed hand says it opens
        expect(hand.locator(".picker")).to_be_visible()
        for card in cards:
            if len(card) == 2:
                cell = hand.locator(f".cell[data-kind='{card[0]}'][data-value='{card[1]}']")
                tap(cell)
                expect(cell).to_have_attribute("aria-pressed", "true")
            else:
                tap(hand.locator(f".special[data-kind='{card[0]}']"))
        # One card per tap, none lost: the hand holds exactly these cards.
        assert len(hand.locator(".chips .chip").all()) == len(cards)
        expect(hand.locator("output.live")).to_have_text(re.compile(r"^= −?\d+ pts?$"))
    if width == 360:
        shot(page, f"card-grid-round-{lang}")
    assert page.evaluate(OVERFLOW) is None
    # The page received exactly the taps the test made, each a real (trusted) click.
    assert page.evaluate("window.__taps") == tap.count
    tap.count += 1  # the save, through submit() (it waits for the page's answer)
    submit(page, page.locator("#save-round"))
    page.wait_for_url(re.compile(rf"/sheets/{sheet_id}/(#totals)?$"))
    assert tap.count <= MAX_TAPS, tap.count
    assert tap.count == 30  # 26 cards, 3 hands opened, 1 save (colour then value: 26 × 2 + 4 = 56)
    stored = Round.objects.get(sheet_id=sheet_id).data["entries"]
    for name, cards in HANDS.items():
        key = lambda c: (c["kind"], c.get("value", -1))  # noqa: E731
        assert sorted(stored[name]["cards"], key=key) == sorted((as_json(c) for c in cards), key=key)
    engine = services.score("numx", PLAYERS, {"mode": "speedrun"}, [{"entries": stored}], "fr")
    assert totals(page) == [engine["totals"][n] for n in PLAYERS]


def test_a_grid_card_tapped_again_goes_back_and_another_hand_cannot_take_it(phone_at):  # noqa: F811
    page = phone_at(360, "fr")
    make_sheet(page, "numx", ["Léa", "Marc"], "fr")
    lea, marc = page.locator("fieldset.hand[data-name='Léa']"), page.locator("fieldset.hand[data-name='Marc']")
    # Marc's closed hand says it opens; Léa's is open.
    expect(marc.locator(".hand-toggle")).to_contain_text("choisir les cartes")
    expect(marc.locator(".hand-toggle")).to_have_attribute("aria-expanded", "false")
    expect(lea.locator(".hand-toggle .hand-open-hint")).to_be_hidden()
    seven = lea.locator(".cell[data-kind='red'][data-value='7']")
    seven.click()
    expect(lea.locator("output.live")).to_have_text("= 7 pts")
    seven.click()
    expect(seven).to_have_attribute("aria-pressed", "false")
    assert lea.locator(".chips .chip").count() == 0
    seven.click()
    marc.locator(".hand-toggle").click()
    expect(marc.locator(".cell[data-kind='red'][data-value='7']")).to_be_disabled()
    expect(marc.locator(".cell[data-kind='blue'][data-value='7']")).to_be_enabled()
    # The colour-then-value way still works, its colour kept for the next value.
    marc.locator(".colour[data-kind='blue']").click()
    marc.locator(".value[data-value='7']").click()
    marc.locator(".value[data-value='9']").click()
    expect(marc.locator(".cell[data-kind='blue'][data-value='9']")).to_have_attribute("aria-pressed", "true")
    hands = {"Léa": {"cards": [as_json(("red", 7))]}, "Marc": {"cards": [as_json(("blue", 7)), as_json(("blue", 9))]}}
    points = services.score("numx", ["Léa", "Marc"], {}, [{"entries": hands}], "fr")["rounds"][0]["points"]["Marc"]
    expect(marc.locator("output.live")).to_have_text(f"= {points} pts")
