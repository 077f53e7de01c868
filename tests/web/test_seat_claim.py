"""A seat's claim link never hands a taken seat to someone else without asking."""

import html
import re

import pytest

from accounts.models import Standing
from scoring import services
from scoring.models import Player
from scoring.tokens import claim_token
from tests.accounts import logged_in

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def games_counted(user) -> int:
    standing = Standing.objects.filter(user=user, game="numx-malus", period="all").first()
    return standing.games if standing else 0


def test_it_asks_before_a_taken_seat_changes_hands():
    owner, _ = logged_in("owner@example.org", form=False)
    sheet = services.sheet_create(
        game="numx-malus", players=["Léa", "Tom"], options={"scoring": "competition"}, user=owner
    ).sheet
    services.round_add(sheet=sheet, data={"entries": {"Léa": {"points": 30}, "Tom": {"points": 0}}})
    path = f"/seat/{sheet.pk}/0/{claim_token(sheet.pk, 0)}/"
    lea, lea_phone = logged_in("lea@example.org", form=False)
    assert "Prenez la place « Léa »" in text(lea_phone.get(path))
    assert lea_phone.post(path).status_code == 302
    assert Player.objects.get(sheet=sheet, seat=0).user == lea and games_counted(lea) == 1

    # Someone else opens the same link: the page says the seat is taken and asks.
    sam, sam_phone = logged_in("sam@example.org", form=False)
    page = text(sam_phone.get(path))
    assert "Cette place est déjà prise par un autre compte" in page
    assert "La prendre quand même ?" in page
    assert 'name="take_over" value="1"' in sam_phone.get(path).content.decode()
    # A plain confirmation (the form of a page drawn while the seat was free) changes nothing.
    r = sam_phone.post(path)
    assert r.status_code == 409
    assert "Cette place est déjà prise par un autre compte" in text(r)
    assert Player.objects.get(sheet=sheet, seat=0).user == lea and games_counted(lea) == 1
    # Only the answer to the question moves it, and it leaves the earlier player's stats.
    assert sam_phone.post(path, {"take_over": "1"}).status_code == 302
    assert Player.objects.get(sheet=sheet, seat=0).user == sam
    assert games_counted(sam) == 1 and games_counted(lea) == 0


def test_it_tells_the_seats_holder_it_is_theirs_already():
    owner, _ = logged_in("owner@example.org", form=False)
    sheet = services.sheet_create(game="numx", players=["Léa", "Tom"], options={}, user=owner).sheet
    path = f"/seat/{sheet.pk}/1/{claim_token(sheet.pk, 1)}/"
    tom, phone = logged_in("tom@example.org", form=False)
    assert phone.post(path).status_code == 302
    page = text(phone.get(path))
    assert "Cette place est déjà la vôtre" in page
    assert "déjà prise" not in page
    assert phone.post(path).status_code == 302
    assert Player.objects.get(sheet=sheet, seat=1).user == tom
