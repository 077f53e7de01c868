"""scoring.signals.seats_scored: what scoring tells the accounts app, under the contract its module documents."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import Standing
from accounts.services import seat_attach
from scoring import services
from scoring.signals import seats_scored, sheets_owned

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


@pytest.mark.django_db
def test_it_announces_every_write_to_an_owned_sheet_with_its_owner_and_whether_it_finished():
    owner = get_user_model().objects.create_user("o", "o@example.org", "pw-123456")
    calls = []

    def receiver(sender, **kwargs):
        calls.append({k: kwargs[k] for k in ("game", "user_ids", "owner_id", "finished", "was_finished")})

    seats_scored.connect(receiver)
    try:
        sheet = services.sheet_create(game="numx-malus", players=["A", "B"], options={"mode": "speedgame"}, user=owner)
        sheet = sheet.sheet
        for _ in range(2):
            services.round_add(sheet=sheet, data={"entries": {"A": {"points": 1}, "B": {"points": 2}}})
        services.round_delete(sheet=sheet, number=2)
    finally:
        seats_scored.disconnect(receiver)
    base = {"game": "numx-malus", "user_ids": set(), "owner_id": owner.pk}
    assert calls == [
        {**base, "finished": False, "was_finished": False},
        {**base, "finished": True, "was_finished": False},
        {**base, "finished": False, "was_finished": True},
    ]


@pytest.mark.django_db
def test_it_announces_the_sheets_that_enter_an_account():
    owner = get_user_model().objects.create_user("o", "o@example.org", "pw-123456")
    calls = []

    def receiver(sender, user_id, sheet_ids, **kwargs):
        calls.append((user_id, list(sheet_ids), connection.in_atomic_block))

    sheets_owned.connect(receiver)
    try:
        mine = services.sheet_create(game="coop", players=["A", "B"], options={}, user=owner).sheet
        anonymous = services.sheet_create(game="coop", players=["A", "B"], options={}, owner_key="k").sheet
        services.sheets_claim(owner_key="k", user=owner)
    finally:
        sheets_owned.disconnect(receiver)
    assert calls == [(owner.pk, [mine.pk], True), (owner.pk, [anonymous.pk], True)]
