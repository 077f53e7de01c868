"""Num-X short rules with classic scoring on a phone: the cards left counted with steppers, not picked."""

import pytest
from playwright.sync_api import expect

from scoring.games import GAMES
from scoring.models import Round, Sheet
from tests.e2e.conftest import shot, submit, totals

from .test_phone_fits import OVERFLOW
from .test_seat_links import entry_links, phone_at  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Léa", "Marc", "Hugo"]
WORDS = {
    "fr": {
        "start": "Commencer la partie",
        "numeric": "classiques",
        "specials": "spéciales et actions",
        "round": "Manche",
        "zero": "= 0 pt",  # French counts 0 in the singular
    },
    "en": {
        "start": "Start the game",
        "numeric": "numeric cards",
        "specials": "specials and actions",
        "round": "Round",
        "zero": "= 0 pts",
    },
}


def new_malus_sheet(page, lang, options=None):
    page.goto("/new/numx-malus/")
    for seat, name in enumerate(PLAYERS):
        field = page.locator(f"#player-{seat}")
        if not field.is_visible():
            page.locator("#add-player").click()
        field.fill(name)
    for name, value in (options or {}).items():
        page.locator(f"input[name=opt-{name}][value='{value}']").check()
    button = page.locator("button.primary.big")
    expect(button).to_have_text(WORDS[lang]["start"])
    button.click()
    page.wait_for_url("**/sheets/*/")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def tap(page, field, delta, times=1):
    button = page.locator(f".stepper:has(#{field}) .step[data-step='{delta}']")
    for _ in range(times):
        button.click()


@pytest.mark.parametrize(("width", "lang"), [(360, "fr"), (390, "en")])
def test_a_classic_round_is_counted_with_steppers_and_scored_as_the_engine_does(phone_at, width, lang):  # noqa: F811
    page = phone_at(width, lang)
    page.set_default_timeout(20000)  # the in-page engine loads meanwhile: a busy phone is slow
    sheet_id = new_malus_sheet(page, lang)
    words = WORDS[lang]
    rows = page.locator("fieldset.count-row")
    expect(rows).to_have_count(3)
    expect(page.locator("fieldset.hand")).to_have_count(0)
    expect(page.locator("label[for=numeric-0]")).to_have_text(words["numeric"])
    expect(page.locator("label[for=specials-0]")).to_have_text(words["specials"])
    # Every −/+ is big enough for a thumb.
    for box in page.locator("fieldset.count-row .step").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    ):
        assert box[0] >= 44 and box[1] >= 44, box

    # Léa: taps only. 3 numeric cards, 2 specials, one tapped back: 3 + 2 × 1.
    tap(page, "numeric-0", 1, 3)
    tap(page, "specials-0", 1, 2)
    expect(page.locator("#live-0")).to_have_text("= 7 pts")
    tap(page, "specials-0", -1)
    expect(page.locator("#specials-0")).to_have_value("1")
    expect(page.locator("#live-0")).to_have_text("= 5 pts")
    # Marc: typed into the empty field (no 0 in front to turn 5 into 50), then one more tap.
    page.locator("#numeric-1").click()
    page.keyboard.type("5")
    expect(page.locator("#numeric-1")).to_have_value("5")
    tap(page, "numeric-1", 1)
    page.locator("#specials-1").click()
    page.keyboard.type("3")
    expect(page.locator("#live-1")).to_have_text("= 12 pts")
    # Hugo went out: nothing typed is 0.
    expect(page.locator("#live-2")).to_have_text(words["zero"])
    # The − stops at 0.
    tap(page, "numeric-2", -1)
    expect(page.locator("#numeric-2")).to_have_value("0")

    # More than the deck: the engine's words, on the player's row, in the page's language.
    page.locator("#specials-2").fill("18")
    message = {
        "fr": "Hugo : 18 cartes spéciales et actions, c'est plus que le paquet n'en a (17).",
        "en": "Hugo: 18 special and action cards is more than the deck holds (17).",
    }[lang]
    expect(page.locator("#live-2")).to_have_text(message)
    expect(rows.nth(2)).to_have_class("count-row invalid")
    page.locator("#specials-2").fill("")
    expect(page.locator("#live-2")).to_have_text(words["zero"])
    assert page.evaluate(OVERFLOW) is None
    shot(page, f"counts-entry-{lang}-{width}")
    page.evaluate("window.scrollTo(0, 0)")  # a full-page shot leaves a scroll that moves the page under the next tap
    if width == 390:
        page.set_viewport_size({"width": 320, "height": 800})
        assert page.evaluate(OVERFLOW) is None
        shot(page, f"counts-entry-{lang}-320")
        page.set_viewport_size({"width": width, "height": 800})
        page.evaluate("window.scrollTo(0, 0)")

    submit(page, page.locator("#save-round"))
    sheet = Sheet.objects.get(pk=sheet_id)
    data = Round.objects.get(sheet=sheet).data
    assert data == {
        "entries": {
            "Léa": {"numeric": 3, "specials": 1},
            "Marc": {"numeric": 6, "specials": 3},
            "Hugo": {"numeric": 0, "specials": 0},
        }
    }
    expected = GAMES["numx-malus"].score(PLAYERS, sheet.options, [data])["totals"]
    assert totals(page) == [expected[p] for p in PLAYERS] == [5, 12, 0]
    expect(page.locator("#entry h2")).to_have_text(f"{words['round']} 2")
    # The next round starts empty.
    expect(page.locator("#numeric-0")).to_have_value("")
    expect(page.locator("#live-0")).to_have_text(words["zero"])
    assert page.evaluate(OVERFLOW) is None
    shot(page, f"counts-saved-{lang}-{width}")


def test_a_counted_round_in_progress_survives_a_reload(phone_at):  # noqa: F811
    page = phone_at(390, "fr")
    page.set_default_timeout(20000)
    new_malus_sheet(page, "fr")
    tap(page, "numeric-1", 1, 4)
    expect(page.locator("#live-1")).to_have_text("= 4 pts")
    expect(page.locator("#draft-state")).to_have_text("Saisie gardée sur ce téléphone")
    page.reload()
    expect(page.locator("#numeric-1")).to_have_value("4")
    expect(page.locator("#live-1")).to_have_text("= 4 pts")
    page.locator("#clear-draft").click()
    expect(page.locator("#numeric-1")).to_have_value("")
    expect(page.locator("#live-1")).to_have_text(WORDS["fr"]["zero"])


@pytest.mark.parametrize(("width", "lang"), [(360, "fr"), (390, "en")])
def test_competition_scoring_still_picks_the_cards(phone_at, width, lang):  # noqa: F811
    page = phone_at(width, lang)
    new_malus_sheet(page, lang, {"scoring": "competition"})
    expect(page.locator("fieldset.hand")).to_have_count(3)
    expect(page.locator("fieldset.count-row")).to_have_count(0)
    hand = page.locator("fieldset.hand[data-name='Léa']")
    if hand.locator(".picker").is_hidden():
        hand.locator(".hand-toggle").click()
    hand.locator(".cell[data-kind='red'][data-value='12']").click()
    expect(hand.locator("output.live")).to_have_text("= 12 pts")
    assert page.evaluate(OVERFLOW) is None
    shot(page, f"counts-competition-picker-{lang}-{width}")


@pytest.mark.parametrize(("width", "lang"), [(360, "fr"), (390, "en")])
def test_a_player_counts_their_own_cards_on_their_phone(phone_at, width, lang):  # noqa: F811
    creator = phone_at(width, lang)
    creator.set_default_timeout(20000)
    sheet_id = new_malus_sheet(creator, lang)
    links = entry_links(creator)
    marc = phone_at(width, lang)
    marc.set_default_timeout(20000)
    marc.goto(links[1])
    expect(marc.locator("fieldset.count-row")).to_have_count(1)
    expect(marc.locator("fieldset.count-row legend .count-name")).to_have_text("Marc")
    tap(marc, "numeric-1", 1, 2)
    marc.locator("#specials-1").click()
    marc.keyboard.type("1")
    expect(marc.locator("#live-1")).to_have_text("= 4 pts")
    assert marc.evaluate(OVERFLOW) is None
    shot(marc, f"counts-seat-{lang}-{width}")
    marc.evaluate("window.scrollTo(0, 0)")
    marc.locator("#save-entry").click()
    expect(marc.locator("#seat-status")).to_have_text(
        {"fr": "✓ Saisie reçue par la table.", "en": "✓ The table has your entry."}[lang]
    )
    assert Sheet.objects.get(pk=sheet_id).draft["entries"] == {"Marc": {"numeric": 2, "specials": 1}}
    # The sheet's phone shows Marc's counts in its form (it reloads by itself while nothing is typed there).
    expect(creator.locator("#numeric-1")).to_have_value("2")
    expect(creator.locator("#specials-1")).to_have_value("1")
    expect(creator.locator("#live-1")).to_have_text("= 4 pts")
    # The round is saved on the sheet's phone: Marc's phone moves to the next round by itself, and
    # does not say that what he sent was not counted (it was: 4 points).
    submit(creator, creator.locator("#save-round"))
    expect(marc.locator("#seat-form input[name=number]")).to_have_value("2")
    expect(marc.locator("#numeric-1")).to_have_value("")
    expect(marc.locator("#seat-status")).to_have_text("")
    assert totals(creator)[1] == 4
