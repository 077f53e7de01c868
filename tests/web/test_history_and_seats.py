"""The history as the table lived it, the login that keeps the browser's sheets, and the seat links."""

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from scoring import services
from scoring.models import Player, Round, Sheet
from scoring.tokens import claim_token
from tests.accounts import PASSWORD, verified_user
from tests.web.sheets import start

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def login(client, email):
    r = client.post("/accounts/login/", {"login": email, "password": PASSWORD}, follow=True)
    assert r.status_code == 200
    return r


def shown(when, lang="fr") -> str:
    with translation.override(lang):
        return formats.date_format(timezone.localtime(when), "SHORT_DATETIME_FORMAT")


def anonymous_sheet(browser, players=("Léa", "Tom")) -> Sheet:
    return start(browser, "numx-malus", list(players))


def test_the_history_says_when_a_sheet_was_played_not_when_it_was_claimed():
    verified_user("lea@example.org")
    browser = Client()
    played_long_ago = anonymous_sheet(browser, ("Léa", "Tom"))
    services.round_add(sheet=played_long_ago, data={"entries": {"Léa": {"points": 3}, "Tom": {"points": 5}}})
    never_played = anonymous_sheet(browser, ("Ana", "Bo"))
    last_week = timezone.now() - timedelta(days=6, hours=3)
    two_days_ago = timezone.now() - timedelta(days=2)
    Sheet.objects.filter(pk=played_long_ago.pk).update(created_at=last_week - timedelta(hours=1))
    Round.objects.filter(sheet=played_long_ago).update(created_at=last_week)
    Sheet.objects.filter(pk=never_played.pk).update(created_at=two_days_ago)
    login(browser, "lea@example.org")
    browser.post("/me/claim/", {"answer": "add"})  # claims both now: their updated_at is now
    assert Sheet.objects.filter(user__email="lea@example.org").count() == 2
    page = text(browser.get("/me/"))
    assert f"jouée le {shown(last_week)}" in page
    assert f"jouée le {shown(two_days_ago)}" in page
    assert shown(timezone.now())[:10] not in page  # nothing says "today"
    # Most recently played first: the sheet created two days ago, then last week's game.
    assert page.index("Ana") < page.index("Léa 3")
    # Anonymous "Mes feuilles" says the same.
    other = Client()
    mine = anonymous_sheet(other, ("Cy", "Di"))
    Sheet.objects.filter(pk=mine.pk).update(created_at=last_week, updated_at=timezone.now())
    assert f"jouée le {shown(last_week)}" in text(other.get("/sheets/"))


@pytest.mark.parametrize(
    "count, lang, words",
    [
        (13, "fr", "13 feuilles ajoutées à votre compte."),
        (1, "fr", "1 feuille ajoutée à votre compte."),
        (13, "en", "13 sheets added to your account."),
        (1, "en", "1 sheet added to your account."),
    ],
)
def test_adding_the_browsers_sheets_at_login_says_how_many_it_added(count, lang, words):
    verified_user("lea@example.org")
    browser = Client()
    browser.cookies["django_language"] = lang
    for _ in range(count):
        anonymous_sheet(browser)
    login(browser, "lea@example.org")
    page = text(browser.post("/me/claim/", {"answer": "add"}, follow=True))
    assert words in page
    assert Sheet.objects.filter(user__email="lea@example.org").count() == count


def test_logging_in_without_sheets_to_add_says_nothing_of_them():
    verified_user("lea@example.org")
    page = text(login(Client(), "lea@example.org"))
    assert "ajoutée" not in page and "feuilles ajoutées" not in page


def test_a_coop_session_in_the_history_says_its_games_and_wins_not_a_running_total():
    owner = verified_user("paul@example.org")
    browser = Client()
    login(browser, "paul@example.org")
    coop = services.sheet_create(game="coop", players=["Paul", "Zoé"], options={}, user=owner).sheet
    for placed in (80, 93, 91):  # a 2-player deck holds 93 cards: one game won out of three
        services.round_add(sheet=coop, data={"placed": placed})
    versus = services.sheet_create(game="coop", players=["Ana", "Bo"], options={"mode": "adversaire"}, user=owner).sheet
    for ana, bo in ((17, 9), (5, 17), (17, 2)):
        services.round_add(sheet=versus, data={"entries": {"Ana": {"placed": ana}, "Bo": {"placed": bo}}})
    page = text(browser.get("/me/"))
    assert "Paul, Zoé · 3 parties, 1 gagnée" in page
    assert "3 parties · Ana 2 victoires, Bo 1 victoire" in page
    assert "Paul 264" not in page and "Paul 91" not in page and "Ana 39" not in page
    browser.cookies["django_language"] = "en"
    page = text(browser.get("/me/"))
    assert "Paul, Zoé · 3 games, 1 won" in page
    assert "3 games · Ana 2 wins, Bo 1 win" in page


def owned_sheet():
    owner = verified_user("owner@example.org")
    sheet = services.sheet_create(game="numx", players=["Léa", "Marc"], options={}, user=owner).sheet
    return owner, sheet


def test_a_seat_link_opened_logged_out_says_what_it_is_before_any_login():
    _owner, sheet = owned_sheet()
    path = f"/seat/{sheet.pk}/0/{claim_token(sheet.pk, 0)}/"
    stranger = Client()
    r = stranger.get(path)
    assert r.status_code == 200
    page = text(r)
    assert "Ce lien permet à Léa de prendre sa place dans cette partie de Num-X" in page
    # The explanation comes first in the page's main part: no login form before it.
    assert "<form" not in r.content.decode().split("<main")[1].split('id="seat-intro"')[0]
    assert re.search(r'href="/accounts/login/\?next=/seat/[^"]+/0/[0-9a-f]+/"', r.content.decode())
    assert re.search(r'href="/accounts/signup/\?next=/seat/', r.content.decode())
    # Sending the form logged out leads to the login, seat untouched; a wrong token is not found.
    r = stranger.post(path)
    assert r.status_code == 302 and r.url.startswith("/accounts/login/")
    assert not Player.objects.exclude(user=None).exists()
    assert stranger.get(path[:-4] + "beef/").status_code == 404
    # Logged in, the link asks to confirm and the seat becomes theirs.
    verified_user("lea@example.org")
    login(stranger, "lea@example.org")
    assert "Prenez la place « Léa »" in text(stranger.get(path))
    assert stranger.post(path).status_code == 302
    assert Player.objects.get(sheet=sheet, seat=0).user.email == "lea@example.org"


def test_a_players_own_entry_link_says_what_it_is():
    browser = Client()
    r = browser.post("/new/numx/", {"player": ["Léa", "Marc"]})
    page = browser.get(r.url).content.decode()
    links = re.findall(r'value="http://testserver(/p/[^"]+)"', page)
    assert len(links) == 2
    own = text(Client().get(links[1]))
    assert "Ce lien permet à Marc de saisir sa main depuis son téléphone" in own
    # Keeping the scores is the creator's business: a player's own link does not ask them to log in.
    assert "connectez-vous" not in own
    # Each link has its share button beside it, with the link it shares.
    for link in links:
        assert re.search(rf'class="ghost share-button" data-url="http://testserver{re.escape(link)}"', page)


def test_an_error_on_a_players_own_page_names_the_player():
    browser = Client()
    r = browser.post("/new/numx/", {"player": ["Léa", "Marc"]})
    links = re.findall(r'value="http://testserver(/p/[^"]+)"', browser.get(r.url).content.decode())
    jokers = '[{"kind": "joker"}, {"kind": "joker"}, {"kind": "joker"}]'
    r = Client().post(links[1], {"number": "1", "cards-1": jokers})
    assert r.status_code == 400
    assert re.search(r"Marc : trop d'exemplaires de Joker dans la manche : 3", text(r))
    # The same words through the API the page's script uses.
    token = links[1].rstrip("/").split("/")[-1]
    sheet_id = links[1].split("/")[2]
    r = Client().put(
        f"/api/v1/sheets/{sheet_id}/draft/entries/Marc/",
        {"number": 1, "cards": [{"kind": "joker"}] * 3},
        content_type="application/json",
        headers={"X-Seat-Token": token},
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["message"].startswith("Marc : trop d'exemplaires de Joker")


def test_typed_points_beside_picked_cards_are_refused_not_dropped():
    browser = Client()
    r = browser.post("/new/numx/", {"player": ["Léa", "Marc"]})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    seven = '[{"kind": "red", "value": 7}]'
    r = browser.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": seven, "points-0": "12", "points-1": "3"})
    assert r.status_code == 400
    assert "Léa : cartes choisies et points saisis, un seul des deux peut compter." in text(r)
    assert Round.objects.count() == 0
    # Either one alone is taken.
    r = browser.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": seven, "points-0": "", "points-1": "3"})
    assert r.status_code == 302
    assert Round.objects.get().data["entries"] == {
        "Léa": {"cards": [{"kind": "red", "value": 7}]},
        "Marc": {"points": 3},
    }


@pytest.mark.parametrize("mode, actions", [("family", 0), ("speedrun", 6)])
def test_the_picker_offers_only_the_cards_the_mode_plays(mode, actions):
    browser = Client()
    r = browser.post("/new/numx/", {"player": ["Léa", "Marc"], "opt-mode": mode})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    page = browser.get(r.url).content.decode()
    assert page.count('class="special action"') == 2 * actions  # two hands
    assert page.count('class="special" data-kind="joker"') == 2  # specials stay in Family
    # What Family offers is what its engine takes: an action card is refused.
    block = '[{"kind": "action", "name": "block"}]'
    r = browser.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": block, "points-1": "3"})
    assert (r.status_code, Round.objects.count()) == ((400, 0) if mode == "family" else (302, 1))
