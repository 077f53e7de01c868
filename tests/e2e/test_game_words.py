"""The words of the scripts are the pages' words: the same plural rule and minus sign; the
first-dealer list follows the names typed; a preview keeps the newest answer; a finished
game shows its ranking."""

import json
import re

import pytest
from django.utils import translation
from django.utils.translation import ngettext
from playwright.sync_api import expect

from tests.e2e.conftest import module, new_sheet, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_scripts_count_and_sign_as_the_pages_do(phone, lang):
    page = phone
    page.goto("/")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.url}])
    page.reload()
    said = page.evaluate(
        f"async () => {{ const {{ NumWords }} = {module('words')};"
        " return [0, 1, 2].map((n) => NumWords.plural(n, 'one', 'other')).concat([NumWords.number(-3), NumWords.signed(4)]); }"
    )
    with translation.override(lang):
        # A message of the catalogue: the form Django picks for each count.
        one = ngettext("%(n)d card", "%(n)d cards", 1)
        django = ["one" if ngettext("%(n)d card", "%(n)d cards", n) == one else "other" for n in (0, 1, 2)]
    assert said == [*django, "−3", "+4"]
    assert said[:3] == (["one", "one", "other"] if lang == "fr" else ["other", "one", "other"])


def test_the_first_dealer_list_follows_the_names_typed(phone):
    page = phone
    page.goto("/new/numking/")
    names = ["Léa", "Tom", "Ana", "Max"]
    for seat, name in enumerate(names):
        if not page.locator(f"#player-{seat}").is_visible():
            page.locator("#add-player").click()
        page.locator(f"#player-{seat}").fill(name)
    dealer = page.locator("select[name=opt-dealer]")
    shown = dealer.locator("option:not([hidden])")
    expect(shown).to_have_count(4)
    assert shown.all_inner_texts() == names
    page.locator("#player-1").fill("Tomás")
    expect(shown.nth(1)).to_have_text("Tomás")
    dealer.select_option(label="Max")
    page.locator("button.primary.big").click()
    page.wait_for_url("**/sheets/*/")
    expect(page.locator(".dealer-line")).to_contain_text("Max")


def _asks(count):
    """Return a predicate of the score requests a preview sends for Léa's count of numeric cards."""

    def asks(request):
        if "/score/" not in request.url or not request.post_data:
            return False
        # The preview sends the form's fields (Léa is seat 0), for the engine to read.
        return json.loads(request.post_data)["rounds"][0]["form"].get("numeric-0") == str(count)

    return asks


def test_a_preview_answer_that_arrives_late_is_dropped(phone):
    page = phone
    # Without the in-page engine (tests/e2e/conftest.py), the previews ask the server.
    new_sheet(page, "numx-malus", ["Léa", "Tom"])
    # The page has wired its form and scored it once (no card counted yet): from here on,
    # each change asks once, and the first answer can no longer cross the ones below.
    expect(page.locator("#live-0")).to_have_text("= 0 pt")
    held = []
    page.route(
        "**/api/v1/games/*/score/", lambda route: held.append(route) if _asks(3)(route.request) else route.continue_()
    )
    with page.expect_request(_asks(3)):
        page.locator("#numeric-0").fill("3")
    # A newer count is asked and answered while the older question waits.
    page.locator("#numeric-0").fill("5")
    expect(page.locator("#live-0")).to_have_text("= 5 pts")
    assert len(held) == 1
    # The older answer (3 points) arrives last: the preview keeps the newest.
    with page.expect_response(lambda response: _asks(3)(response.request)):
        held[0].continue_()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    expect(page.locator("#live-0")).to_have_text("= 5 pts")


def test_a_finished_game_shows_its_final_ranking(phone):
    page = phone
    new_sheet(page, "numx", ["Léa", "Tom", "Ana"], {"mode": "speedrun"})
    for seat, points in enumerate(("30", "12", "−4")):
        page.locator(f"#points-{seat}").fill(points)
    submit(page, page.locator("#save-round"))
    ranking = page.locator(".winners .ranking li")
    expect(ranking).to_have_count(3)
    assert [re.sub(r"\s+", " ", t) for t in ranking.all_inner_texts()] == [
        "1er Léa 30",
        "2e Tom 12 · 18 points d'écart",
        "3e Ana −4 · 34 points d'écart",
    ]
    expect(page.locator(".winners .decided")).to_have_text("Le plus haut total gagne : Léa, 18 points devant Tom.")
