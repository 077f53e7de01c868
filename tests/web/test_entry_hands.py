"""The creator's page: the hands of a card game's entry form, empty after every round, in the page's language."""

import json

import pytest

from tests.web.sheets import start

# The pages are read after their writes committed, as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_empty_hands_in_the_pages_language_after_every_round(client):
    # Competition scoring: each card's value counts, the form picks the cards.
    sheet = start(client, "numx-malus", ["Elya", "Sasha", "Mendy", "Noa"], scoring="competition")
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert page.count('<fieldset class="hand"') == 4
    assert page.count('class="value" data-value=') == 4 * 17
    assert "Cartes de Mendy" in page

    cards = json.dumps([{"kind": "red", "value": 3}])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": "", "cards-1": cards, "cards-2": "", "cards-3": ""})
    assert r.status_code == 302
    sheet.refresh_from_db()
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    # The next round's hands are empty again; the form's version is the sheet's new one.
    assert f'name="version" value="{sheet.version}"' in page
    assert page.count('<fieldset class="hand"') == 4 and 'id="cards-1" value=""' in page

    en = client.get(f"/sheets/{sheet.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Cards of Mendy" in en and "Cartes de Mendy" not in en
    again = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Cartes de Mendy" in again and "Cards of Mendy" not in again


def test_it_shows_a_refused_round_as_typed_and_the_empty_form_after(client):
    sheet = start(client, "numx-malus", ["Elya", "Sasha"], scoring="competition")
    client.get(f"/sheets/{sheet.pk}/")
    typed = json.dumps([{"kind": "red", "value": 3}, {"kind": "red", "value": 3}])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": typed, "cards-1": ""})
    assert r.status_code == 400
    page = r.content.decode()
    # The refused hand comes back as it was typed (escaped in the hidden field)...
    assert 'id="cards-0" value="[{&quot;kind&quot;: &quot;red&quot;, &quot;value&quot;: 3}, {&quot;kind' in page
    # ...and the next view is the empty form again.
    again = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert 'id="cards-0" value=""' in again


def test_each_hand_gets_the_picker_of_its_sheets_cards_and_language(client):
    import re

    speedrun = start(client, "numx", ["Léa", "Marc"], mode="speedrun")
    family = start(client, "numx", ["Léa", "Marc", "Hugo"], mode="family")
    full = client.get(f"/sheets/{speedrun.pk}/").content.decode()
    # The same picker in every hand, actions included (Block is one of them).
    assert full.count('data-name="block"') == 2 and full.count('class="cell c-red" data-kind="red"') == 2 * 17
    # A Family sheet plays no action card: its hands never get the full deck's picker.
    for lang, words in (("fr", "Cartes par valeur et couleur"), ("en", "Cards by value and colour")):
        page = client.get(f"/sheets/{family.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert 'class="special action"' not in page
        assert page.count(words) == 3 and page.count('class="cell c-red" data-kind="red"') == 3 * 17
    en = client.get(f"/sheets/{speedrun.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.findall(r'class="colour c-red" data-kind="red" aria-pressed="false">([^<]+)<', en) == ["red", "red"]
    assert "Cartes par valeur et couleur" not in en
