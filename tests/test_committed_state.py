"""What a phone is shown is what was committed: results, shared pages, retries, standings.

These tests commit for real (`transaction=True`), as the app does.
"""

import json
import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, RequestFactory

from accounts.models import Standing
from accounts.services import standings_recount
from scoring import services, tokens, views
from scoring.access import OWNER_SESSION_KEY
from scoring.models import Player, Round, Sheet

needs_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_it_never_serves_a_result_whose_write_rolled_back():
    created = services.sheet_create(game="coop", players=["A", "B"], options={})
    sheet = Sheet.objects.get(pk=created.sheet.pk)
    # A write scored and stored in this process, then rolled back (its request failed after).
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_add(sheet=sheet, data={"placed": 11})
        raise RuntimeError("the request fails after the round was scored")
    assert not Round.objects.filter(sheet_id=created.sheet.pk).exists()

    # Another process saves the same round number with another result.
    services.round_add(sheet=Sheet.objects.get(pk=created.sheet.pk), data={"placed": 22})

    api = Client()
    for _ in range(3):
        body = api.get(f"/api/v1/sheets/{created.sheet.pk}/", HTTP_X_EDIT_TOKEN=created.edit_token).json()
        assert [r["entry"] for r in body["rounds"]] == [{"placed": 22}]
        assert body["totals"] == {"A": 22, "B": 22} and body["rounds"][0]["placed"] == 22
    assert services.sheet_state(Sheet.objects.get(pk=created.sheet.pk), "fr")[0]["rounds"][0]["placed"] == 22


@pytest.mark.django_db(transaction=True)
def test_it_shows_a_sheet_under_the_version_its_rounds_belong_to():
    """A round committed between reading the sheet and reading its rounds moves the answer forward."""
    created = services.sheet_create(game="coop", players=["A", "B"], options={})
    stale = Sheet.objects.get(pk=created.sheet.pk)  # read at version 1, before the round below
    services.round_add(sheet=Sheet.objects.get(pk=created.sheet.pk), data={"placed": 40})
    result = services.sheet_state(stale, "fr")[0]
    assert stale.version == 2 and services.stored_rounds(stale) == [{"placed": 40}]
    assert len(result["rounds"]) == 1
    # A reader of version 1 is told version 2, the version of the rounds it was shown.
    fresh = Sheet.objects.get(pk=created.sheet.pk)
    assert services.sheet_state(fresh, "fr")[0] == result


@pytest.mark.parametrize("page", ["sheet", "edit"])
@pytest.mark.django_db(transaction=True)
def test_a_sheet_page_shows_one_version_when_another_phone_writes_while_it_renders(monkeypatch, page):
    """The board, the form's version and the rounds the page's script keeps are read once, together."""
    creator = Client()
    assert creator.post("/new/coop/", {"player": ["Léa", "Marc"]}).status_code == 302
    sheet = Sheet.objects.get(owner_key=creator.session[OWNER_SESSION_KEY])
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "31", "number": "1"}).status_code == 302
    read_rounds, writes = services.stored_rounds, []

    def then_another_phone_writes(s):
        datas = read_rounds(s)
        if not writes:  # once, right after the page's read: a second round is committed
            writes.append(services.round_add(sheet=Sheet.objects.get(pk=s.pk), data={"placed": 50}))
        return datas

    monkeypatch.setattr(services, "stored_rounds", then_another_phone_writes)
    cache.clear()  # the page reads its rounds (the state the write kept is gone)
    url = f"/sheets/{sheet.pk}/" if page == "sheet" else f"/sheets/{sheet.pk}/rounds/1/edit/"
    body = creator.get(url).content.decode()
    assert writes and Sheet.objects.get(pk=sheet.pk).version == 3
    data = json.loads(re.search(r'<script id="sheet-data" type="application/json">(.*?)</script>', body, re.S)[1])
    form_version = int(re.search(r'name="version" value="(\d+)"', body)[1])
    # Everything the page holds belongs to version 2: one round, and a save from it will be told it is stale.
    assert (data["version"], form_version, data["rounds"], data["round_count"]) == (2, 2, [{"placed": 31}], 1)
    if page == "sheet":
        assert "50" not in re.search(r'<table class="scores">.*?</table>', body, re.S)[0]


@pytest.mark.django_db(transaction=True)
def test_it_shows_watchers_the_share_page_without_the_creators_edit_links():
    creator = Client()
    assert creator.post("/new/coop/", {"player": ["Léa", "Marc"]}).status_code == 302
    sheet = Sheet.objects.get(owner_key=creator.session[OWNER_SESSION_KEY])
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "31", "number": "1"}).status_code == 302
    url = f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/"
    mine = creator.get(url).content.decode()
    # The creator's own copy has its edit links and the login prompt.
    assert f"/sheets/{sheet.pk}/rounds/1/edit/" in mine and "/accounts/login/" in mine
    for _ in range(2):
        theirs = Client().get(url).content.decode()
        assert "31" in theirs
        assert f"/sheets/{sheet.pk}/rounds/1/edit/" not in theirs
        assert f"?next=/sheets/{sheet.pk}/" not in theirs


@pytest.mark.django_db
def test_it_answers_a_retry_with_a_round_number_as_the_first_time():
    api = Client()
    sheet = api.post("/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json")
    sheet = sheet.json()
    first_round = {"placed": 30}
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    headers = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}
    assert api.post(url, first_round, content_type="application/json", **headers).status_code == 201
    answers = [
        api.post(
            url, {"placed": 51, "number": 2}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-2", **headers
        )
        for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [201, 201, 201], answers[1].content
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[1]["Idempotent-Replayed"] == "true"
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 2
    # The same key with another round number is another request.
    other = api.post(
        url, {"placed": 51, "number": 3}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-2", **headers
    )
    assert other.status_code == 422


def linked_sheets(owner, friend, count, game="coop"):
    """Return `count` sheets of `owner` where seat 1 is `friend`'s (their seat link)."""
    sheets = []
    for _ in range(count):
        sheet = services.sheet_create(game=game, players=["Owner", "Friend"], options={}, user=owner).sheet
        Player.objects.filter(sheet=sheet, seat=0).update(user=owner)
        Player.objects.filter(sheet=sheet, seat=1).update(user=friend)
        sheets.append(sheet)
    return sheets


def started_together(sends):
    """Run each of `sends` in its own thread, all released at once; return their results in order."""
    barrier = threading.Barrier(len(sends))
    results = [None] * len(sends)

    def run(i, send):
        try:
            barrier.wait()
            results[i] = send()
        finally:
            connection.close()  # each thread has its own database connection

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(sends)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def standings_of(users, game):
    return {
        (s.user_id, s.period): (s.games, s.wins, s.best) for s in Standing.objects.filter(user__in=users, game=game)
    }


def full_recount(users, game):
    """Return the standings as a recount from the committed seats, run alone, makes them."""
    standings_recount(user_ids={u.pk for u in users}, game=game)
    return standings_of(users, game)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_it_saves_every_round_when_sheets_of_one_account_are_written_at_once():
    User = get_user_model()
    owner = User.objects.create_user("owner", "owner@example.org", "pw")
    friend = User.objects.create_user("friend", "friend@example.org", "pw")
    sheets = linked_sheets(owner, friend, 6)
    api = Client()

    def add(sheet, placed):
        # Each writer sends its own edit credentials: the owner's session is not needed.
        s = Sheet.objects.get(pk=sheet.pk)
        return lambda: services.round_add(sheet=s, data={"placed": placed}).version

    # Two rounds per sheet, 12 writers released together (each holds a connection of its own:
    # the suite's two workers and their servers stay well under PostgreSQL's 100).
    for placed in (40, 50):
        versions = started_together([add(sheet, placed + i) for i, sheet in enumerate(sheets * 2)])
        assert all(versions), versions
    for sheet in sheets:
        assert Round.objects.filter(sheet=sheet).count() >= 2
    assert Round.objects.filter(sheet__in=sheets).count() == 24
    standings = standings_of([owner, friend], "coop")
    assert standings == full_recount([owner, friend], "coop")
    assert standings[(friend.pk, "all")][0] == 24  # every game counted

    # Parallel edits of round 1 of every sheet, through the API, as the owner's phones do.
    api.force_login(owner)

    def edit(sheet, placed):
        return lambda: (
            api.put(
                f"/api/v1/sheets/{sheet.pk}/rounds/1/", {"placed": placed}, content_type="application/json"
            ).status_code
        )

    statuses = started_together([edit(sheet, 90) for sheet in sheets] + [edit(sheet, 91) for sheet in sheets])
    assert statuses == [200] * 12
    for sheet in sheets:
        assert Round.objects.get(sheet=sheet, number=1).data["placed"] in (90, 91)
    standings = standings_of([owner, friend], "coop")
    assert standings == full_recount([owner, friend], "coop")


@pytest.mark.django_db
def test_it_upserts_standings_and_drops_the_months_a_player_no_longer_has():
    User = get_user_model()
    owner = User.objects.create_user("owner", "owner@example.org", "pw")
    friend = User.objects.create_user("friend", "friend@example.org", "pw")
    (sheet,) = linked_sheets(owner, friend, 1)
    services.round_add(sheet=Sheet.objects.get(pk=sheet.pk), data={"placed": 93})
    assert standings_of([friend], "coop")[(friend.pk, "all")] == (1, 1, 93)
    ids = set(Standing.objects.filter(user=friend).values_list("pk", flat=True))
    standings_recount(user_ids={friend.pk}, game="coop")
    assert set(Standing.objects.filter(user=friend).values_list("pk", flat=True)) == ids  # updated in place
    Player.objects.filter(sheet=sheet, seat=1).update(user=None)
    standings_recount(user_ids={friend.pk}, game="coop")
    assert standings_of([friend], "coop") == {}


def _watch(sheet_id, lang="fr"):
    reader = Client()
    reader.cookies["django_language"] = lang
    return reader.get(f"/w/{sheet_id}/{tokens.read_token(sheet_id)}/?fragment=1").content.decode()


@pytest.mark.django_db(transaction=True)
def test_it_never_serves_a_board_drawn_for_a_write_that_rolled_back():
    created = services.sheet_create(game="coop", players=["Léa", "Marc"], options={})
    services.round_add(sheet=Sheet.objects.get(pk=created.sheet.pk), data={"placed": 31})
    # A write's own request draws the board of the version it is writing, then fails.
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_add(sheet=Sheet.objects.get(pk=created.sheet.pk), data={"placed": 11})
        assert ">11/93<" in _watch(created.sheet.pk)
        raise RuntimeError("the request fails after the board was drawn")
    # Another phone writes that same version with another round: its board is the one shown.
    services.round_add(sheet=Sheet.objects.get(pk=created.sheet.pk), data={"placed": 22})
    for _ in range(2):
        board = _watch(created.sheet.pk)
        assert ">22/93<" in board and ">11/93<" not in board


@pytest.mark.django_db(transaction=True)
def test_a_kept_board_is_the_one_of_its_language_its_reader_and_its_release(monkeypatch):
    creator = Client()
    assert creator.post("/new/coop/", {"player": ["Léa", "Marc"]}).status_code == 302
    sheet = Sheet.objects.get(owner_key=creator.session[OWNER_SESSION_KEY])
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "31", "number": "1"}).status_code == 302
    mine = creator.get(f"/sheets/{sheet.pk}/").content.decode()  # the creator's board, with its edit links
    assert f"/sheets/{sheet.pk}/rounds/1/edit/" in mine
    french, english = _watch(sheet.pk, "fr"), _watch(sheet.pk, "en")
    assert "perdue" in french and ">lost<" in english and "perdue" not in english
    assert "/rounds/1/edit/" not in french + english
    # Drawn once, then served as kept: a board put under its key is what the next reader gets...
    sheet.refresh_from_db()
    key = views.board_key(_anonymous(), sheet, "fr", can_edit=False, editing=None)
    cache.set(key, "<p>kept</p>")
    assert _watch(sheet.pk) == "<p>kept</p>"
    # ...and another release of the app never serves it.
    monkeypatch.setattr(views, "release", lambda: "another-release")
    assert ">31/93<" in _watch(sheet.pk)


def _anonymous():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return request


def _results(response, placed: str) -> list[str]:
    """Return the coop results the page's table shows, in order (each once)."""
    table = re.search(r'<table class="scores">.*?</table>', response.content.decode(), re.S)[0]
    return list(dict.fromkeys(re.findall(rf">({placed})/93<", table)))


def _cells_drawn(response, cell="scoring/cells/coop.html") -> int:
    return sum(1 for t in response.templates if t.name == cell)


@pytest.mark.django_db(transaction=True)
def test_a_phone_landing_after_a_round_is_shown_the_result_its_write_computed(monkeypatch):
    creator = Client()
    assert creator.post("/new/coop/", {"player": ["Léa", "Marc"]}).status_code == 302
    sheet = Sheet.objects.get(owner_key=creator.session[OWNER_SESSION_KEY])
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "31", "number": "1"}).status_code == 302
    # The page of the version the round made is drawn from what the write scored: no engine call.
    engine = type(sheet.engine)
    monkeypatch.setattr(engine, "score", lambda *a, **k: pytest.fail("the whole game was scored again"))
    page = creator.get(f"/sheets/{sheet.pk}/").content.decode()
    assert ">31/93<" in page
    # A version nobody scored yet (its state expired) is scored, once, by the reader.
    monkeypatch.undo()
    sheet.refresh_from_db()
    cache.delete(services.state_key(sheet, "fr"))
    calls = []
    real = engine.score
    monkeypatch.setattr(engine, "score", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    for _ in range(2):
        assert ">31/93<" in _watch(sheet.pk)
    assert calls == [1]


@pytest.mark.django_db(transaction=True)
def test_the_rows_of_earlier_rounds_are_not_drawn_again_and_follow_an_edit():
    creator = Client()
    assert creator.post("/new/coop/", {"player": ["Léa", "Marc"]}).status_code == 302
    sheet = Sheet.objects.get(owner_key=creator.session[OWNER_SESSION_KEY])
    for number, placed in enumerate(["31", "40"], start=1):
        assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": placed, "number": number}).status_code == 302
    # The coop says each game's result once, across the players' columns: one cell a row.
    assert _cells_drawn(creator.get(f"/sheets/{sheet.pk}/")) == 2
    assert creator.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "52", "number": "3"}).status_code == 302
    page = creator.get(f"/sheets/{sheet.pk}/")
    assert _cells_drawn(page) == 1  # only the new round's row is drawn
    assert _results(page, "31|40|52") == ["31", "40", "52"]
    # The reader's language and role have rows of their own.
    assert _cells_drawn(Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/")) == 3
    # An edit of the last round draws its row again, with what it now says...
    assert creator.post(f"/sheets/{sheet.pk}/rounds/3/edit/", {"placed": "12"}).status_code == 302
    page = creator.get(f"/sheets/{sheet.pk}/")
    assert _cells_drawn(page) == 1
    assert _results(page, "12|31|40|52") == ["31", "40", "12"]
    # ...and an edit of the first one, every row whose running totals it moves.
    assert creator.post(f"/sheets/{sheet.pk}/rounds/1/edit/", {"placed": "20"}).status_code == 302
    page = creator.get(f"/sheets/{sheet.pk}/")
    assert _cells_drawn(page) == 3
    assert _results(page, "12|20|31|40") == ["20", "40", "12"]
