"""scoring.signals.seats_scored: what scoring tells the accounts app, under the contract its module documents."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import Standing
from accounts.services import seat_attach
from scoring import services
from scoring.signals import seats_scored

ROUND = {"placed": 93}  # every card placed: a game won


@pytest.fixture
def heard():
    calls = []

    def receiver(sender, game, user_ids, **kwargs):
        calls.append({"game": game, "user_ids": set(user_ids), "in_transaction": connection.in_atomic_block})

    seats_scored.connect(receiver)
    yield calls
    seats_scored.disconnect(receiver)


@pytest.mark.django_db(transaction=True)
def test_it_announces_the_seated_users_of_an_owned_sheet_inside_the_write(heard):
    owner, friend = (get_user_model().objects.create_user(n, f"{n}@example.org", "pw-123456") for n in ("o", "f"))
    sheet = services.sheet_create(game="coop", players=["A", "B"], options={}, user=owner).sheet
    seat_attach(sheet=sheet, seat=0, user=owner)
    seat_attach(sheet=sheet, seat=1, user=friend)
    services.round_add(sheet=sheet, data=ROUND)
    assert heard == [{"game": "coop", "user_ids": {owner.pk, friend.pk}, "in_transaction": True}]
    # The accounts app's receiver recounted in that transaction: the game played counts.
    assert Standing.objects.get(user=friend, game="coop", period="all").games == 1


@pytest.mark.django_db
def test_it_announces_nothing_for_an_anonymous_sheet(heard):
    sheet = services.sheet_create(game="coop", players=["A", "B"], options={}).sheet
    services.round_add(sheet=sheet, data=ROUND)
    assert heard == []
