"""The round in progress on the pages: each player's own link, the bids shown to all, the sheet's phone."""

import re

import pytest
from django.test import Client

from scoring import services, tokens
from scoring.models import Round, Sheet
from tests.web.sheets import start

pytestmark = pytest.mark.django_db
KING = ["Léa", "Marc", "Nina"]


def king_table():
    creator = Client()
    sheet = start(creator, "numking", KING)
    page = creator.get(f"/sheets/{sheet.pk}/").content.decode()
    links = re.findall(r'value="http://testserver(/p/[^"]+)"', page)
    return creator, sheet, links, page


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_it_gives_the_sheets_phone_one_entry_link_per_player():
    _creator, sheet, links, page = king_table()
    assert len(links) == 3
    for seat, link in enumerate(links):
        assert link == f"/p/{sheet.pk}/{seat}/{tokens.entry_token(sheet.pk, seat)}/"
    assert page.count("<svg") >= 3  # a QR code per player, to scan across the table
    # Watchers and players never see the links.
    watch = Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/").content.decode()
    assert "/p/" not in watch


def test_it_shows_a_player_their_own_form_and_nobody_elses():
    _creator, sheet, links, _page = king_table()
    page = Client().get(links[1])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="bid-1"' in html and 'name="bid-0"' not in html and 'name="bid-2"' not in html
    assert "Marc" in text(page)
    wrong = links[1].replace("/1/", "/0/", 1)  # Marc's token on Léa's seat
    assert Client().get(wrong).status_code == 404
    assert Client().post(wrong, {"number": "1", "bid-0": "1"}).status_code == 404
    assert Client().get(f"/p/{sheet.pk}/9/{tokens.entry_token(sheet.pk, 9)}/").status_code == 404
    sheet.refresh_from_db()
    assert sheet.draft == {}


def test_it_saves_a_bid_from_a_players_phone_and_shows_it_to_every_phone():
    creator, sheet, links, _page = king_table()
    phone = Client()
    r = phone.post(links[0], {"number": "1", "bid-0": "1", "tricks-0": ""})
    assert r.status_code == 302
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Léa": {"bid": 1}}
    watch = text(Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/"))
    assert "Léa annonce 1" in watch
    mine = creator.get(f"/sheets/{sheet.pk}/")
    assert "0/3 saisis" in text(mine)
    # The sheet's form starts from what the phones sent.
    assert re.search(r'id="bid-0" name="bid-0" value="1"', mine.content.decode())


def test_it_refuses_a_bid_above_the_cards_on_a_players_phone():
    _creator, sheet, links, _page = king_table()
    r = Client().post(links[2], {"number": "1", "bid-2": "4"})
    assert r.status_code == 400
    # The player's own page names them in the message.
    assert f"{KING[2]} : annonce de 4 plis pour 1 carte distribuée" in text(r)
    sheet.refresh_from_db()
    assert sheet.draft == {}


def test_it_tells_a_player_whose_round_was_saved_that_they_came_too_late():
    creator, sheet, links, _page = king_table()
    form = {"number": "1", "cards": "1"}
    for seat in range(3):
        form[f"bid-{seat}"] = "0"
        form[f"tricks-{seat}"] = "1" if seat == 0 else "0"
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", form).status_code == 302
    late = Client().post(links[1], {"number": "1", "bid-1": "1"})
    assert late.status_code == 409
    assert "La manche 1 a été enregistrée avant l'arrivée de votre saisie" in text(late)
    sheet.refresh_from_db()
    assert sheet.draft == {} and sheet.round_count == 1


def test_it_saves_the_bids_first_then_the_round_with_the_tricks():
    creator, sheet, _links, _page = king_table()
    bids = {"number": "1", "cards": "1", "step": "bids", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert creator.post(f"/sheets/{sheet.pk}/draft/", bids).status_code == 302
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Léa": {"bid": 1}, "Marc": {"bid": 0}, "Nina": {"bid": 0}}
    watch = text(Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/"))
    assert "Annonces : total 1 pour 1 carte" in watch
    form = {"number": "1", "cards": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    form.update({"tricks-0": "1", "tricks-1": "0", "tricks-2": "0"})
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", form).status_code == 302
    sheet.refresh_from_db()
    assert sheet.draft == {}
    stored = Round.objects.get(sheet=sheet).data
    assert stored["entries"]["Léa"] == {"bid": 1, "tricks": 1}
    expected = services.score("numking", KING, {}, [stored], "fr")["totals"]
    assert {p.name: p.total for p in sheet.seats.all()} == expected


def test_it_refuses_the_bids_page_to_anyone_but_the_editor():
    _creator, sheet, links, _page = king_table()
    bids = {"number": "1", "step": "bids", "bid-0": "1"}
    assert Client().post(f"/sheets/{sheet.pk}/draft/", bids).status_code == 404
    sheet.refresh_from_db()
    assert sheet.draft == {}


def test_it_lets_each_player_pick_their_own_cards_and_refuses_a_card_twice():
    creator = Client()
    r = creator.post("/new/numx/", {"player": ["Léa", "Marc"], "opt-mode": "speedrun"})
    sheet = Sheet.objects.get(pk=r.url.split("/")[2])
    links = re.findall(r'value="http://testserver(/p/[^"]+)"', creator.get(r.url).content.decode())
    seven = '[{"kind": "red", "value": 7}]'
    assert Client().post(links[0], {"number": "1", "cards-0": seven, "points-0": ""}).status_code == 302
    second = Client().post(links[1], {"number": "1", "cards-1": seven, "points-1": ""})
    assert second.status_code == 400
    assert "Léa" in text(second)
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Léa": {"cards": [{"kind": "red", "value": 7}]}}
    assert sheet.draft["entered"] == ["Léa"]


@pytest.mark.parametrize("number", ["²", "9" * 5000, "-1", "1\x00"])
def test_it_ignores_an_odd_round_number_on_a_players_phone(number):
    _creator, sheet, links, _page = king_table()
    r = Client().post(links[0], {"number": number, "bid-0": "1"})
    assert r.status_code == 302
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Léa": {"bid": 1}}


def test_it_names_the_players_whose_bids_are_still_awaited_as_a_plain_list():
    _creator, sheet, links, _page = king_table()
    Client().post(links[2], {"number": "1", "bid-2": "0"})  # Nina, the last seat, has bid
    waiting = re.search(r'<p[^>]*id="bids-waiting"[^>]*>(.*?)</p>', Client().get(links[0]).content.decode(), re.S)
    assert re.sub(r"\s+", " ", waiting.group(1)).strip() == "En attente des annonces de : Léa, Marc"
