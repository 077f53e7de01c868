"""« Mes joueurs » on a phone: sign up, two whole games, the own seat without a chore, one merge, stats, chart, ratings, « Ma table »."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from accounts.models import Rating, TablePlayer
from scoring.models import Player, Sheet

from .conftest import new_sheet, shot, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Two Num-X Malus Speed-Games (two rounds, the lowest total wins): points typed per round.
GAME_1 = {"Zoé": (3, 2), "lea": (5, 1), "Max": (8, 0), "Tom": (1, 9)}  # Zoé 5 wins; lea 6, Max 8, Tom 10
GAME_2 = {"Zoé": (4, 4), "Léa": (0, 1), "Maxime": (2, 2), "Tom": (3, 3)}  # Léa 1 wins; Maxime 4, Tom 6, Zoé 8


def sign_up(page):
    page.goto("/accounts/signup/")
    page.locator("input[name=email]").fill("zoe@example.org")
    page.locator("input[name=password1]").fill("une phrase assez longue")
    page.locator("input[name=password2]").fill("une phrase assez longue")
    page.locator("input[name=display_name]").fill("Zoé")
    shot(page, "players-signup")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    code = re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z0-9]{6})\s*$", mail.outbox[-1].body, flags=re.M).group(1)
    page.locator("input[name=code]").fill(code)
    page.get_by_role("button", name="Confirmer").click()
    page.wait_for_load_state()


def play(page, game: dict, shot_name: str) -> str:
    sheet_id = new_sheet(page, "numx-malus", list(game), {"mode": "speedgame"})
    for r in range(2):
        for name, points in game.items():
            page.locator(f"fieldset.hand[data-name='{name}'] input[name^=points-]").fill(str(points[r]))
        submit(page, page.locator("#save-round"))
        expect(page.locator("#form-errors")).to_have_count(0)
    page.goto(f"/sheets/{sheet_id}/")
    expect(page.locator(".rematch")).to_be_visible()
    shot(page, shot_name)
    return sheet_id


def test_my_players_on_a_phone(new_phone, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    page = new_phone()
    sign_up(page)
    first = play(page, GAME_1, "players-game-1")
    # The seat named like the account is its own: no question, the game counts at once.
    expect(page.locator("#who-are-you")).to_have_count(0)
    user = Sheet.objects.get(pk=first).user
    assert Player.objects.get(sheet_id=first, name="Zoé").user == user

    # A new sheet offers the names of the table.
    page.goto("/new/numx-malus/")
    offered = page.locator("#known-names option").evaluate_all("os => os.map(o => o.value)")
    assert {"Zoé", "lea", "Max", "Tom"} <= set(offered)
    second = play(page, GAME_2, "players-game-2")
    expect(page.locator("#who-are-you")).to_have_count(0)
    assert Player.objects.get(sheet_id=second, name="Zoé").user == user

    # My stats: two games, one win (game 1).
    page.goto(f"/players/{user.pk}/")
    stats = page.locator("section.stat-card").first
    expect(stats.locator("dl.stats div", has_text="Parties")).to_contain_text("2")
    expect(stats.locator("dl.stats div", has_text="Victoires")).to_contain_text("1")
    shot(page, "players-my-stats")

    # « Mes joueurs »: « lea » and « Léa » are one player; Max and Maxime are merged by hand.
    page.get_by_role("link", name="Mes joueurs").first.click()
    page.wait_for_load_state()
    expect(page.locator("li.table-player")).to_have_count(5)
    shot(page, "players-list-before-merge")
    max_row = page.locator("li.table-player", has=page.get_by_role("link", name="Max", exact=True))
    max_row.locator("summary").click()
    max_row.locator("select[name=other]").select_option(label="Maxime")
    shot(page, "players-merge-open")
    max_row.get_by_role("button", name="Fusionner").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text("Joueurs fusionnés")
    expect(page.locator("li.table-player")).to_have_count(4)
    assert TablePlayer.objects.filter(owner=user).count() == 4
    shot(page, "players-list")

    # Léa's page: her games, her win, her average and best, the chart, her rating, head to head.
    page.get_by_role("link", name="lea", exact=True).click()
    page.wait_for_load_state()
    card = page.locator("section.stat-card").first
    expect(card.locator("dl.stats div", has_text="Parties")).to_contain_text("2")
    expect(card.locator("dl.stats div", has_text="Victoires")).to_contain_text("1")
    expect(card.locator("dl.stats div", has_text="Moyenne")).to_contain_text("3,5")
    expect(card.locator("dl.stats div", has_text="Meilleur")).to_contain_text("1")
    expect(card.locator("svg.chart circle.dot")).to_have_count(2)
    rating = Rating.objects.get(player__owner=user, player__name="lea", game="numx-malus")
    expect(card.locator(".rating")).to_have_text(f"{round(rating.mu)} ± {round(rating.sigma)}")
    versus = page.locator("table.versus tbody tr")
    expect(versus).to_have_count(3)
    expect(page.locator("table.versus tbody tr", has_text="Max").locator("td.ahead")).to_have_text("2–0")
    shot(page, "players-player")
    # Nothing sticks out of the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # A link for Léa: opened on her phone, it says what it is before she logs in.
    page.get_by_role("button", name="Créer un lien").click()
    page.wait_for_load_state()
    link = page.locator("#link input.share-url").input_value()
    shot(page, "players-link")
    hers = new_phone()
    hers.goto(link)
    expect(hers.locator("main")).to_contain_text("vous êtes noté « lea »")
    expect(hers.locator("main")).to_contain_text("Zoé")
    shot(hers, "players-link-opened")

    # « Ma table » filled the moment the games finished, the ratings beside the wins.
    page.goto("/leaderboards/numx-malus/?scope=table")
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("lea")
    expect(rows.first.locator("td.rating")).to_contain_text("±")
    shot(page, "players-my-table")
    page.goto("/leaderboards/numx-malus/?scope=table&period=month")
    expect(page.locator("table.board tbody tr")).to_have_count(4)
