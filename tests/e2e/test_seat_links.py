"""A player's own link on a phone: shared in one tap, its page scores that player's hand alone,
its errors name the player, typed points read as the server reads them, names shown whole on a tap."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Round, Sheet
from tests.e2e.conftest import TIMEOUT_MS, shot, submit

from .test_phone_fits import OVERFLOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Charlotte de La Rochefoucauld-Lisa"
WORDS = {
    "fr": {
        "start": "Commencer la partie",
        "copied": "✓ Lien copié",
        "copy": "📋 Copier le lien",
        "share": "📤 Partager le lien",
        "not_number": "Marc : « 1e3 » n'est pas un nombre entier.",
        "dashes": "Marc : « -- » n'est pas un nombre entier.",
        "both": "Léa : cartes choisies et points saisis, un seul des deux peut compter.",
        "intro": "Ce lien permet à Marc de saisir sa main",
    },
    "en": {
        "start": "Start the game",
        "copied": "✓ Link copied",
        "copy": "📋 Copy the link",
        "share": "📤 Share the link",
        "not_number": "Marc: “1e3” is not a whole number.",
        "dashes": "Marc: “--” is not a whole number.",
        "both": "Léa: cards picked and points typed, only one can count.",
        "intro": "This link lets Marc enter their hand",
    },
}
NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"
FAKE_SHARE = """Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value: function (data) {
  window.__shared = (window.__shared || []).concat([data]); return Promise.resolve(); } });"""


@pytest.fixture
def phone_at(browser, live_server, request):
    """Return a factory of phones (width, language, init script): each its own context; JS errors fail the test."""
    contexts, errors = [], []

    def make(width=390, lang="fr", script="", clipboard=False):
        context = browser.new_context(
            viewport={"width": width, "height": 800},
            locale="fr-FR" if lang == "fr" else "en-GB",
            base_url=live_server.url,
        )
        host = live_server.url.split("//", 1)[1].split(":")[0]
        context.add_cookies([{"name": "django_language", "value": lang, "domain": host, "path": "/"}])
        if clipboard:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        if script:
            context.add_init_script(script)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], errors


def make_sheet(page, slug, players, lang):
    page.goto(f"/new/{slug}/")
    for seat, name in enumerate(players):
        field = page.locator(f"#player-{seat}")
        if not field.is_visible():
            page.locator("#add-player").click()
        field.fill(name)
    button = page.locator("button.primary.big")
    expect(button).to_have_text(WORDS[lang]["start"])
    button.click()
    page.wait_for_url("**/sheets/*/")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def entry_links(page) -> list[str]:
    page.locator("#seat-links > summary").click()
    return page.locator("input.seat-url").evaluate_all("els => els.map(e => e.value)")


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_seat_link_is_copied_in_one_tap_where_the_phone_cannot_share(phone_at, width, lang):
    page = phone_at(width, lang, script=NO_SHARE, clipboard=True)
    make_sheet(page, "numx", ["Léa", "Marc"], lang)
    links = entry_links(page)
    page.locator("details.seat-link > summary").nth(1).click()
    button = page.locator("details.seat-link").nth(1).locator(".share-button")
    expect(button).to_have_text(WORDS[lang]["copy"])
    button.click()
    done = page.locator("details.seat-link").nth(1).locator(".share-done")
    expect(done).to_have_text(WORDS[lang]["copied"])
    expect(done).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == links[1]
    assert page.evaluate(OVERFLOW) is None
    shot(page, f"seat-link-copied-{lang}-{width}")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_seat_link_opens_the_phones_share_sheet_where_there_is_one(phone_at, lang):
    page = phone_at(360, lang, script=FAKE_SHARE)
    make_sheet(page, "numx", ["Léa", "Marc"], lang)
    links = entry_links(page)
    page.locator("details.seat-link > summary").first.click()
    button = page.locator("details.seat-link").first.locator(".share-button")
    expect(button).to_have_text(WORDS[lang]["share"])
    button.click()
    page.wait_for_function("() => (window.__shared || []).length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["url"] == links[0]
    assert "Léa" in shared["text"]
    # Shared, not copied: nothing claims a copy.
    expect(page.locator("details.seat-link").first.locator(".share-done")).to_have_text("")


@pytest.mark.parametrize("width, lang", [(360, "fr"), (390, "en")])
def test_a_players_own_page_scores_their_hand_alone_and_names_them_in_errors(phone_at, width, lang):
    creator = phone_at(width, lang)
    sheet_id = make_sheet(creator, "numx", ["Léa", "Marc", "Hugo", "Paul"], lang)
    links = entry_links(creator)
    marc = phone_at(width, lang)
    marc.goto(links[1])
    expect(marc.locator("#seat-intro")).to_contain_text(WORDS[lang]["intro"])
    hand = marc.locator("fieldset.hand[data-name='Marc']")
    live = hand.locator("output.live")
    # An empty hand shows no points at all (nobody's): on arrival, and once its cards are taken back below.
    expect(live).to_have_text("")
    hand.locator(".colour[data-kind='red']").click()
    hand.locator(".value[data-value='7']").click()
    hand.locator(".colour[data-kind='blue']").click()
    hand.locator(".value[data-value='9']").click()
    expect(live).to_have_text("= 16 pts")
    # Removing the cards empties the hand: the points go too.
    for _ in range(2):
        hand.locator(".chips .chip").last.click()
    expect(live).to_have_text("")
    # Typed points the server would refuse: the preview says it in the server's words, naming Marc...
    hand.locator("#points-1").fill("1e3")
    expect(live).to_have_text(WORDS[lang]["not_number"])
    marc.locator("#save-entry").click()
    expect(marc.locator("#seat-status")).to_have_text(WORDS[lang]["not_number"])
    hand.locator("#points-1").fill("--")
    expect(live).to_have_text(WORDS[lang]["dashes"])
    assert Sheet.objects.get(pk=sheet_id).draft == {}
    # ...and the table's error about Marc's cards names him too.
    hand.locator("#points-1").fill("")
    for _ in range(3):
        hand.locator(".special[data-kind='joker']").click()
    marc.locator("#save-entry").click()
    expect(marc.locator("#seat-status")).to_contain_text("Marc")
    expect(marc.locator("#seat-status")).to_have_class(re.compile(r"\berror\b"))
    assert Sheet.objects.get(pk=sheet_id).draft == {}
    assert marc.evaluate(OVERFLOW) is None
    shot(marc, f"seat-own-page-{lang}-{width}")


@pytest.mark.parametrize("width, lang", [(390, "fr"), (360, "en")])
def test_typed_points_are_refused_by_the_preview_as_by_the_server(phone_at, width, lang):
    page = phone_at(width, lang)
    sheet_id = make_sheet(page, "numx", ["Léa", "Marc"], lang)
    lea, marc = page.locator("fieldset.hand[data-name='Léa']"), page.locator("fieldset.hand[data-name='Marc']")
    marc.locator("#points-1").fill("1e3")
    expect(marc.locator("output.live")).to_have_text(WORDS[lang]["not_number"])
    # Cards picked and points typed for one player: neither is dropped, the preview says so.
    lea.locator(".colour[data-kind='red']").click()
    lea.locator(".value[data-value='7']").click()
    lea.locator("#points-0").fill("12")
    expect(lea.locator("output.live")).to_contain_text(WORDS[lang]["both"])
    # Saving lists the same words, and nothing is stored.
    submit(page, page.locator("#save-round"))
    errors = page.locator("#form-errors")
    expect(errors).to_contain_text(WORDS[lang]["not_number"])
    expect(errors).to_contain_text(WORDS[lang]["both"])
    assert Round.objects.filter(sheet_id=sheet_id).count() == 0
    # The same refusal without the page's script: the server's own words.
    page.evaluate("document.querySelector('#round-form').submit()")
    page.wait_for_load_state()
    expect(page.locator("#form-errors")).to_contain_text(WORDS[lang]["both"])
    assert Round.objects.filter(sheet_id=sheet_id).count() == 0


@pytest.mark.parametrize("width, lang", [(360, "fr"), (390, "en")])
def test_a_long_name_shows_whole_in_the_table_head_on_more_lines(phone_at, width, lang):
    page = phone_at(width, lang)
    make_sheet(page, "numx", [LONG, "Léa", "Tom", "Hugo"], lang)
    head = page.locator("table.scores thead th").nth(1)
    name = head.locator(".pname")
    expect(name).to_have_attribute("title", LONG)
    assert head.evaluate("th => th.scrollWidth <= th.clientWidth")  # not cut
    lea = page.locator("table.scores thead th").nth(2).locator(".pname").bounding_box()["height"]
    assert name.bounding_box()["height"] > 1.5 * lea  # the whole name, on more lines than « Léa »
    assert page.locator("#totals").evaluate("w => w.scrollWidth <= w.clientWidth")  # four players fit
    assert page.evaluate(OVERFLOW) is None
