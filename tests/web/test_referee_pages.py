"""The referee on the pages: « Qui remporte le pli ? » on the sheet's phone and each player's own phone once
every bid is in, closed until tapped; the hand's tricks with their explanation on every phone (the board)."""

import json
import re
from html import unescape

import pytest
from django.test import Client

from scoring import services, tokens
from tests.games.test_numking_tricks_played import BIDS, HAND, OPTIONS, TABLE
from tests.web.sheets import start

pytestmark = pytest.mark.django_db


def table():
    creator = Client()
    return creator, start(creator, "numking", TABLE, start="3")


def text(html):
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def referee_data(html):
    return json.loads(re.search(r'<script id="referee-data" type="application/json">(.*?)</script>', html).group(1))


def test_the_referee_waits_for_the_bids_and_opens_with_one_tap():
    creator, sheet = table()
    assert sheet.options["start"] == OPTIONS["start"]
    assert 'id="referee"' not in creator.get(f"/sheets/{sheet.pk}/").content.decode()
    services.draft_put(sheet=sheet, entries={"Léa": {"bid": 1}}, fields={})
    assert 'id="referee"' not in creator.get(f"/sheets/{sheet.pk}/").content.decode()  # a bid missing
    services.draft_put(sheet=sheet, entries=BIDS, fields={})
    html = creator.get(f"/sheets/{sheet.pk}/").content.decode()
    assert '<details class="box referee" id="referee">' in html  # closed
    assert "Qui remporte le pli ?" in html and "pli 1 / 3" in html
    data = referee_data(html)
    assert data["cards"] == 3 and data["number"] == 1 and data["first_leader"] == "Bruno"
    assert data["sheet"] == sheet.pk and data["urls"]["tricks"] == f"/api/v1/sheets/{sheet.pk}/draft/tricks/"
    assert "auth" not in data  # the sheet's phone writes as the editor
    # The picker: 16 rainbow and 16 shadow cards, Num-X, Flash, Flip, Quantique.
    assert html.count('class="ref-card c-rainbow"') == 16 and html.count('class="ref-card c-shadow"') == 16
    assert 'data-kind="numx"' in html and html.count('data-kind="action"') == 3
    assert "0 ou 17 ?" in html


def test_every_phone_sees_the_hands_tricks_with_the_referees_words():
    creator, sheet = table()
    services.draft_put(sheet=sheet, entries=BIDS, fields={"cards": 3, "tricks_played": HAND[:2]})
    watch = Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/").content.decode()
    seat = Client().get(f"/p/{sheet.pk}/1/{tokens.entry_token(sheet.pk, 1)}/").content.decode()
    for html in (watch, seat):
        words = text(html)
        assert "Plis joués : 2 / 3" in words
        assert "Pli 1 · Léa le remporte" in words and "Pli 2 · David le remporte" in words
        assert "Rainbow 12 et Shadow 12 s'annulent" in words
        assert "Léa : Rainbow 9 · Bruno : Shadow 4" in words
    assert 'id="referee"' not in watch  # a watcher only reads
    sheet_page = creator.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Pli 3 / 3" not in sheet_page  # JavaScript writes the trick on screen
    assert 'data-index="1"' in sheet_page and "Corriger le pli 2" in sheet_page
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies.load({"django_language": "en"})
    words = text(english.get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/").content.decode())
    assert "Tricks played: 2 / 3" in words and "Trick 2 · David takes it" in words
    assert "Flip played after Flash: the lowest valid card wins" in words


def test_a_hand_over_says_so_and_fills_the_form():
    creator, sheet = table()
    services.draft_put(sheet=sheet, entries=BIDS, fields={"cards": 3, "tricks_played": HAND})
    html = creator.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "main terminée" in html
    for seat, took in enumerate((1, 0, 0, 2)):
        assert re.search(rf'id="tricks-{seat}" name="tricks-{seat}" value="{took}"', html)


def test_each_players_own_phone_referees_too_once_every_bid_is_in():
    _creator, sheet = table()
    link = f"/p/{sheet.pk}/1/{tokens.entry_token(sheet.pk, 1)}/"
    services.draft_put(sheet=sheet, entries={"Léa": {"bid": 1}}, fields={})
    assert 'id="referee"' not in Client().get(link).content.decode()  # a bid missing
    services.draft_put(sheet=sheet, entries=BIDS, fields={"tricks_played": HAND[:1]})
    html = Client().get(link).content.decode()
    assert '<details class="box referee" id="referee">' in html  # closed: one tap to open
    data = referee_data(html)
    assert data["auth"] == {"X-Seat-Token": tokens.entry_token(sheet.pk, 1)}  # stored as Bruno's phone
    assert data["fields"] == {"tricks_played": HAND[:1]} and data["next_leader"] == "Léa"
    assert 'data-index="0"' in html and "Corriger le pli 1" in html
    assert "js/referee.js" in html
