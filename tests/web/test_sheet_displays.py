"""The sheets say what happened: bids and tricks, dealers, tie-breaks, bonuses, teams and coop sessions."""

import html
import json
import re

import pytest

from scoring.models import Sheet
from tests.web.sheets import start

pytestmark = pytest.mark.django_db


def king_round(client, sheet, cards, *pairs):
    data = {"cards": cards, "version": Sheet.objects.get(pk=sheet.pk).version}
    for seat, (bid, tricks) in enumerate(pairs):
        data[f"bid-{seat}"], data[f"tricks-{seat}"] = bid, tricks
    assert client.post(f"/sheets/{sheet.pk}/rounds/", data).status_code == 302


def hand(*cards):
    return json.dumps([{"kind": k, "value": v} for k, v in cards])


def text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def body_rows(page):
    tbody = re.search(r'<table class="scores">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, re.S)


def test_it_shows_bid_and_tricks_the_round_header_and_the_dealer_in_num_king(client):
    sheet = start(client, "numking", ["Léa", "Marc", "Hugo"], **{"dealer": "1"})
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Manche 1/12 · 1 carte" in text(page)
    assert "Donneur : Marc" in text(page)
    king_round(client, sheet, 1, (1, 1), (1, 0), (0, 0))
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Manche 2/12 · 2 cartes" in text(page) and "Donneur : Hugo" in text(page)
    row = body_rows(page)[0]
    summaries = [text(s) for s in re.findall(r"<summary>(.*?)</summary>", row, re.S)]
    assert summaries == ["1/1 +1313", "1/0 ✗ −3−3", "0/0 +2222"]
    assert row.count('class="bt missed"') == 1
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert ["donneur" in text(c) for c in cells] == [False, True, False]
    assert text(re.search(r'<th scope="row">(.*?)</th>', row, re.S).group(1)).startswith("1/12")


def test_it_refuses_a_first_dealer_outside_the_table(client):
    r = client.post("/new/numking/", {"player": ["Léa", "Marc"], "opt-dealer": "5"})
    assert r.status_code == 400
    assert "dealer" in r.content.decode()
    assert Sheet.objects.count() == 0


def test_it_shows_the_tie_break_as_its_own_row_out_of_the_totals_and_the_chart(client):
    sheet = start(client, "numwin", ["Hugo", "Léa"])
    for h, le in (((("blue", 10),), (("red", 4),)), ((("blue", 1),), (("red", 7),))):
        v = Sheet.objects.get(pk=sheet.pk).version
        client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": hand(*h), "cards-1": hand(*le), "version": v})
    v = Sheet.objects.get(pk=sheet.pk).version
    r = client.post(
        f"/sheets/{sheet.pk}/rounds/",
        {"cards-0": hand(("blue", 3)), "cards-1": hand(("red", 16), ("red", 8)), "version": v},
    )
    assert r.status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "⚖ Hugo gagne le départage (3 contre 24)" in text(page)
    tiebreak = [row for row in body_rows(page) if "départage" in row and "<summary>" in row][0]
    assert 'class="run"' not in tiebreak  # no running total on the tie-break row
    totals = re.search(r'<tr class="total-row">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td[^>]*>([^<]+)</td>", totals) == ["11", "11"]
    assert sorted(re.findall(r'data-total="(-?\d+)"', page)) == ["11", "11"]


def test_it_opens_the_streak_bonus_detail_and_the_chart_ends_on_the_totals(client):
    sheet = start(client, "numking", ["Léa", "Marc"])
    king_round(client, sheet, 1, (1, 1), (0, 0))
    king_round(client, sheet, 2, (1, 1), (1, 0))
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    bonus = re.search(r'<tr class="bonus-row">(.*?)</tr>', page, re.S).group(1)
    assert "Manches 1–2 : 2 annonces exactes de suite → +5 (provisoire : la partie continue)" in text(bonus)
    totals = re.search(r'<tr class="total-row">(.*?)</tr>', page, re.S).group(1)
    shown = re.findall(r"<td[^>]*>([^<]+)</td>", totals)
    assert shown == ["31", "19"]  # Léa 13 + 13 + 5 (two exact in a row), Marc 22 − 3
    assert re.findall(r'data-total="(-?\d+)"', page) == shown


def test_it_gives_teams_their_own_table_detail_and_chart(client):
    data = {"player": ["A", "B", "C", "D"], "team-0": "Équipe A", "team-1": "Équipe A"}
    data.update({"team-2": "Équipe B", "team-3": "Équipe B"})
    r = client.post("/new/numx/", data)
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    client.post(
        f"/sheets/{sheet.pk}/rounds/",
        {
            "cards-0": hand(("red", 7)),
            "cards-1": hand(("rainbow", 7)),
            "cards-2": hand(("blue", 9)),
            "cards-3": hand(("red", 9)),
        },
    )
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    team_table = re.search(r'<table class="team-scores">(.*?)</table>', page, re.S).group(1)
    assert "Cartes réunies : A, B" in text(team_table)
    assert "7🔴 7🌈: la Rainbow s'ajoute → 7 × 2 = 14" in text(team_table)
    # The Total row of the players highlights nobody: the team decides.
    totals = re.search(r'<tr class="total-row">(.*?)</tr>', page, re.S).group(1)
    assert 'class="lead"' not in totals
    assert re.findall(r"<title>([^<]+)</title></polyline>", page) == ["Équipe A: 14", "Équipe B: 0"]


def test_it_lists_a_coop_session_as_games_won_or_lost_over_the_deck(client):
    sheet = start(client, "coop", ["Paul", "Zoé"])
    for placed in (80, 93):
        v = Sheet.objects.get(pk=sheet.pk).version
        assert client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": placed, "version": v}).status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    rows = [text(r) for r in body_rows(page)]
    assert rows[0].startswith("1") and "80/93" in rows[0] and "perdue" in rows[0]
    assert "93/93" in rows[1] and "gagnée" in rows[1]
    assert "173" not in text(page)  # no running sum of cards across games


def test_it_highlights_the_adversaire_session_leader(client):
    sheet = start(client, "coop", ["Paul", "Zoé"], mode="adversaire")
    for p, z in ((17, 5), (9, 3), (2, 10)):
        v = Sheet.objects.get(pk=sheet.pk).version
        r = client.post(f"/sheets/{sheet.pk}/rounds/", {"placed-0": p, "placed-1": z, "version": v})
        assert r.status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    heads = re.findall(r'<th scope="col" class="(lead)?"><span class="dot p(\d)">', page)
    assert heads == [("lead", "0"), ("", "1")]  # Paul won 2 games of 3, though Zoé won the last


def test_it_lists_an_adversaire_session_as_games_without_a_total_of_cards(client):
    sheet = start(client, "coop", ["Paul", "Zoé"], mode="adversaire")
    for p, z in ((17, 5), (9, 13)):
        v = Sheet.objects.get(pk=sheet.pk).version
        r = client.post(f"/sheets/{sheet.pk}/rounds/", {"placed-0": p, "placed-1": z, "version": v})
        assert r.status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    games = [[text(c) for c in re.findall(r"<summary>(.*?)</summary>", row, re.S)] for row in body_rows(page)]
    assert games == [["17🏆", "5"], ["9", "13🏆"]]
    # Each player's games won, not the cards placed added up across games (Paul 26, Zoé 18).
    assert 'class="total-row"' not in page
    summary = re.search(r'<section class="summary-box">(.*?)</section>', page, re.S).group(1)
    assert [text(li) for li in re.findall(r"<li>(.*?)</li>", summary, re.S)] == [
        "Paul : 1 victoire",
        "Zoé : 1 victoire",
    ]
    # In English, no French space before the colon.
    client.cookies["django_language"] = "en"
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    summary = re.search(r'<section class="summary-box">(.*?)</section>', page, re.S).group(1)
    assert [text(li) for li in re.findall(r"<li>(.*?)</li>", summary, re.S)] == ["Paul: 1 win", "Zoé: 1 win"]


def test_the_chart_of_a_game_with_bonuses_names_its_last_round_not_the_bonus_step(client):
    # Num King from 8 cards with 4 players: rounds of 8 and 9 cards; Léa exact twice (+5).
    sheet = start(client, "numking", ["Léa", "Marc", "Hugo", "Zoé"], start="8")
    king_round(client, sheet, 8, (3, 3), (2, 2), (0, 0), (2, 3))
    king_round(client, sheet, 9, (2, 2), (4, 3), (1, 1), (1, 3))
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    chart = re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)
    # The axis's last tick is round 2 (the game's rounds), under the second round's point.
    ticks = re.findall(r'<text x="([\d.]+)"[^>]*text-anchor="end">(\d+)</text>', chart)
    assert [t for _x, t in ticks] == ["2"]
    lea = re.search(r'<polyline points="([^"]+)"[^>]*data-total="(-?\d+)"', chart)
    xs = [float(p.split(",")[0]) for p in lea.group(1).split()]
    assert len(xs) == 4  # the start, two rounds, the bonus
    assert float(ticks[0][0]) == pytest.approx(xs[2] - 4)
    assert lea.group(2) == "40"  # 19 + 16 + 5
