"""The creator's page: the hands of a card game's entry form are rendered once per sheet and language."""

import json

import pytest

from scoring.models import Sheet
from scoring.templatetags.num import HANDS

# Kept values are filled once their transaction commits: these tests commit as the app does.
pytestmark = pytest.mark.django_db(transaction=True)


def start(client, slug, players):
    r = client.post(f"/new/{slug}/", {"player": players})
    assert r.status_code == 302, r.content.decode()[:2000]
    return Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])


def kept_for(sheet) -> list:
    return [key for key in HANDS._items if key[1] == sheet.pk]


def test_it_renders_the_hands_once_per_sheet_and_language_and_keeps_them_across_rounds(client):
    sheet = start(client, "numx-malus", ["Elya", "Sasha", "Mendy", "Noa"])
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert page.count('<fieldset class="hand"') == 4
    assert page.count('class="value" data-value=') == 4 * 17
    assert "Cartes de Mendy" in page
    assert len(kept_for(sheet)) == 1

    cards = json.dumps([{"kind": "red", "value": 3}])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": "", "cards-1": cards, "cards-2": "", "cards-3": ""})
    assert r.status_code == 302
    sheet.refresh_from_db()
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    # The kept hands serve the next round; the form's version is the sheet's new one.
    assert len(kept_for(sheet)) == 1
    assert f'name="version" value="{sheet.version}"' in page
    assert page.count('<fieldset class="hand"') == 4 and 'id="cards-1" value=""' in page

    en = client.get(f"/sheets/{sheet.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Cards of Mendy" in en and "Cartes de Mendy" not in en
    assert len(kept_for(sheet)) == 2


def test_it_shows_a_refused_round_as_typed_and_keeps_nothing_of_it(client):
    sheet = start(client, "numx-malus", ["Elya", "Sasha"])
    client.get(f"/sheets/{sheet.pk}/")
    typed = json.dumps([{"kind": "red", "value": 3}, {"kind": "red", "value": 3}])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": typed, "cards-1": ""})
    assert r.status_code == 400
    page = r.content.decode()
    # The refused hand comes back as it was typed (escaped in the hidden field)...
    assert 'id="cards-0" value="[{&quot;kind&quot;: &quot;red&quot;, &quot;value&quot;: 3}, {&quot;kind' in page
    # ...and the next view is the empty form again, from the kept hands.
    assert len(kept_for(sheet)) == 1
    again = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert 'id="cards-0" value=""' in again
