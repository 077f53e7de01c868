"""Each game's own words: its noun of a row in both languages, plurals from 0 to 2, true minus
signs, dates a reader of either language reads one way, marks on the numbers that carry a
penalty or a bonus, and a finished game's ranking."""

import html
import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import translation

from scoring import services
from scoring.games import GAMES
from scoring.models import Sheet
from scoring.templatetags.num import counted, entry_summary, num, signed
from tests.web.sheets import start

pytestmark = pytest.mark.django_db

SLUGS = ("numx", "numx-malus", "numwin", "numking", "coop")
NOUNS = {"fr": ("manche", "partie"), "en": ("round", "game")}


def add(sheet, data):
    services.round_add(sheet=Sheet.objects.get(pk=sheet.pk), data=data)


def text(response) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def board(response) -> str:
    page = response.content.decode()
    return html.unescape(re.search(r'<div id="board".*?<table class="scores">(.*?)</table>', page, re.S).group(1))


# A first round of each game, as the engine takes it.
FIRST = {
    "numx": {"entries": {"Léa": {"points": 5}, "Tom": {"points": 3}}},
    "numx-malus": {"entries": {"Léa": {"points": 5}, "Tom": {"points": 3}}},
    "numwin": {"entries": {"Léa": {"points": 5}, "Tom": {"points": 3}}},
    "numking": {"entries": {"Léa": {"bid": 1, "tricks": 0}, "Tom": {"bid": 0, "tricks": 1}}},
    "coop": {"placed": 60},
}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_names_its_rows_with_its_own_noun(slug, lang):
    client = Client()
    sheet = start(client, slug, ["Léa", "Tom"], lang, **({"mode": "xgame"} if slug == "numx" else {}))
    round_noun, session_noun = NOUNS[lang]
    noun = session_noun if GAMES[slug].session else round_noun
    other = round_noun if GAMES[slug].session else session_noun
    page = text(client.get(f"/sheets/{sheet.pk}/"))
    assert f"{noun.capitalize()} 1" in page
    assert {"fr": f"Aucune {noun} pour l'instant.", "en": f"No {noun} yet."}[lang] in page
    add(sheet, FIRST[slug])
    page = text(client.get(f"/sheets/{sheet.pk}/"))
    assert {"fr": f"Supprimer la {noun} 1", "en": f"Remove {noun} 1"}[lang] in page
    assert f"{noun.capitalize()} 2" in page
    if GAMES[slug].session:
        # Nothing of the sheet speaks of rounds: a session counts games.
        assert not re.search(rf"\b{other}s?\b", page, re.I), re.findall(rf".{{30}}\b{other}s?\b.{{30}}", page, re.I)
    # The undo toast and the edit page name the same row.
    removed = client.post(f"/sheets/{sheet.pk}/undo/", {"version": Sheet.objects.get(pk=sheet.pk).version}, follow=True)
    assert {"fr": f"{noun.capitalize()} 1 supprimée", "en": f"{noun.capitalize()} 1 removed"}[lang] in text(removed)


def test_the_coop_game_says_each_games_result_once_and_counts_its_wins_in_the_right_plural():
    client = Client()
    sheet = start(client, "coop", ["Léa", "Tom", "Ana", "Max"])
    add(sheet, {"placed": 60})
    response = client.get(f"/sheets/{sheet.pk}/")
    assert board(response).count("60/96") == 1
    assert "0 gagnée sur 1 partie" in text(response)
    add(sheet, {"placed": 96})
    assert "1 gagnée sur 2 parties" in text(client.get(f"/sheets/{sheet.pk}/"))
    add(sheet, {"placed": 96})
    assert "2 gagnées sur 3 parties" in text(client.get(f"/sheets/{sheet.pk}/"))
    client.cookies["django_language"] = "en"
    assert "2 won out of 3 games" in text(client.get(f"/sheets/{sheet.pk}/"))


def test_the_refusals_of_a_session_name_its_games():
    created = services.sheet_create(game="coop", players=["A", "B"], options={"mode": "adversaire"})
    sheet = created.sheet
    services.round_add(sheet=sheet, data={"entries": {"A": {"placed": 17}, "B": {"placed": 5}}})
    for lang, said in (
        ("fr", "La partie 1 a été enregistrée avant l'arrivée de votre saisie"),
        ("en", "Game 1 was saved"),
    ):
        with pytest.raises(services.DraftMoved) as refused:
            services.draft_entry_put(sheet=Sheet.objects.get(pk=sheet.pk), player="B", entry={"placed": 6}, number=1)
        with translation.override(lang):
            assert said in refused.value.message()
            assert {"fr": "la partie 2", "en": "game 2"}[lang] in refused.value.message()


@pytest.mark.parametrize(
    ("lang", "said"),
    [("fr", ["0 manche", "1 manche", "2 manches"]), ("en", ["0 rounds", "1 round", "2 rounds"])],
)
def test_counts_take_the_languages_plural_from_0_to_2(lang, said):
    words = GAMES["numx"].round_words(lang)
    with translation.override(lang):
        assert [counted(n, words) for n in (0, 1, 2)] == said
    client = Client()
    sheet = start(client, "numx-malus", ["Léa", "Tom"], lang)
    for n in range(3):
        assert said[n] in text(client.get("/sheets/"))
        if n < 2:
            add(sheet, FIRST["numx-malus"])


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", ["0 pli, 0 pt saisi", "1 pli, 1 pt saisi", "2 plis, −2 pts saisis"]),
        ("en", ["took 0 tricks, 0 pts typed", "took 1 trick, 1 pt typed", "took 2 tricks, −2 pts typed"]),
    ],
)
def test_the_round_in_progress_counts_tricks_and_points_in_the_languages_plural(lang, said):
    with translation.override(lang):
        assert [entry_summary({"tricks": n, "points": p}) for n, p in ((0, 0), (1, 1), (2, -2))] == said


def test_every_number_of_the_sheet_has_a_true_minus_sign():
    assert (num(-3), num(0), num(12), signed(-3), signed(4)) == ("−3", "0", "12", "−3", "+4")
    client = Client()
    sheet = start(client, "numking", ["Léa", "Tom"])
    add(sheet, FIRST["numking"])  # Léa bid 1 and took nothing: −3
    table = board(client.get(f"/sheets/{sheet.pk}/"))
    total_row = re.search(r'<tr class="total-row">(.*?)</tr>', table, re.S).group(1)
    assert "−3" in total_row
    assert table.count("−3") >= 3  # the cell, its running total, the Total row
    assert not re.search(r"(?<![\w/])-\d", re.sub(r"<[^>]+>", " ", table))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_dates_are_read_one_way_in_both_languages(lang):
    client = Client()
    start(client, "numx", ["Léa", "Tom"], lang)
    page = text(client.get("/sheets/"))
    assert not re.search(r"\d{1,2}/\d{1,2}/\d{4}", page) if lang == "en" else re.search(r"\d\d/\d\d/\d{4}", page)
    if lang == "en":
        assert re.search(r"played \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d", page)


def test_a_failed_num_win_call_is_marked_as_a_penalty_in_its_cell():
    client = Client()
    sheet = start(client, "numwin", ["Léa", "Tom"])
    add(
        sheet,
        {"declarer": "Léa", "entries": {"Léa": {"points": 8}, "Tom": {"points": 2}}},
    )
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    marks = re.findall(r'<span class="mark (\w+)" role="img" aria-label="([^"]+)"', page)
    assert [(kind, html.unescape(label)) for kind, label in marks] == [
        ("penalty", "pénalité : Num Win raté (main pas la plus basse) → +20")
    ]
    # Tom's cell carries nothing: no mark.
    assert page.count('class="mark ') == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [("fr", "bonus : 7🔴 7🔵 7🟢 7🟡 7🌑: X-Trem ! → 100"), ("en", "bonus: 7🔴 7🔵 7🟢 7🟡 7🌑: X-Trem! → 100")],
)
def test_an_xtrem_bonus_is_marked_in_its_cell_in_the_languages_own_way(lang, said):
    client = Client()
    sheet = start(client, "numx", ["Léa", "Tom"], lang)
    xtrem = [{"kind": kind, "value": 7} for kind in ("blue", "red", "green", "yellow", "shadow")]
    add(sheet, {"entries": {"Léa": {"cards": xtrem}, "Tom": {"points": 3}}})
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    marks = re.findall(r'<span class="mark (\w+)" role="img" aria-label="([^"]+)"', page)
    assert [kind for kind, _label in marks] == ["bonus"]
    assert html.unescape(marks[0][1]) == said


def test_a_tie_break_rounds_cells_are_marked():
    client = Client()
    sheet = start(client, "numwin", ["Léa", "Tom"])
    add(sheet, {"entries": {"Léa": {"points": 5}, "Tom": {"points": 5}}})
    add(sheet, {"entries": {"Léa": {"points": 3}, "Tom": {"points": 3}}})
    add(sheet, {"entries": {"Léa": {"points": 2}, "Tom": {"points": 9}}})
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    marks = re.findall(r'<span class="mark (\w+)" role="img" aria-label="([^"]+)"', page)
    assert [kind for kind, _label in marks] == ["tiebreak", "tiebreak"]
    assert html.unescape(marks[0][1]) == "départage : Manche de départage : ne compte pas dans le total"


def test_a_finished_game_says_its_ranking_with_shared_places_and_margins():
    client = Client()
    sheet = start(client, "numx", ["Léa", "Tom", "Ana", "Max"], mode="speedrun")
    add(
        sheet, {"entries": {"Léa": {"points": 30}, "Tom": {"points": 12}, "Ana": {"points": 12}, "Max": {"points": -4}}}
    )
    page = text(client.get(f"/sheets/{sheet.pk}/"))
    assert "Classement final" in page
    assert "1er Léa 30" in page
    assert "2e ex æquo Tom 12 · 18 points d'écart" in page
    assert "2e ex æquo Ana 12 · 18 points d'écart" in page
    assert "4e Max −4 · 34 points d'écart" in page
    assert "Le plus haut total gagne : Léa, 18 points devant Tom, Ana." in page
    # The share page says it too, and the API's sheet carries it.
    share = client.get(f"/sheets/{sheet.pk}/").content.decode()
    watch = re.search(r"https?://[^/]+(/w/[^\"\s<]+/)", share).group(1)
    assert "1er Léa 30" in text(Client().get(watch))
    client.cookies["django_language"] = "en"
    api = client.get(f"/api/v1/sheets/{sheet.pk}/").json()
    assert [(p["place_text"], p["side"], p["gap"]) for p in api["ranking"]["places"]] == [
        ("1st", "Léa", 0),
        ("2nd, tied", "Tom", 18),
        ("2nd, tied", "Ana", 18),
        ("4th", "Max", 34),
    ]
    assert api["ranking"]["decided"] == ["Highest total wins: Léa, 18 points ahead of Tom, Ana."]


def test_a_tie_break_and_a_bonus_say_how_the_winner_was_decided():
    numwin = GAMES["numwin"]
    rounds = [
        {"entries": {"Léa": {"points": 5}, "Tom": {"points": 5}}},
        {"entries": {"Léa": {"points": 3}, "Tom": {"points": 3}}},
        {"entries": {"Léa": {"points": 2}, "Tom": {"points": 9}}},
    ]
    result = numwin.score(["Léa", "Tom"], {}, rounds, "fr")
    assert result["finished"] and result["winners"] == ["Léa"]
    assert result["ranking"]["places"][0]["side"] == "Léa"
    assert result["ranking"]["decided"] == [
        "Égalité au total (8), décidée par la manche de départage : Léa gagne le départage (2 contre 9)."
    ]
    # A tie that no tie-break decides: the first place is shared.
    tied = {"entries": {"Léa": {"points": 4}, "Tom": {"points": 4}}}
    numx = GAMES["numx"].score(["Léa", "Tom"], {"mode": "speedrun"}, [tied], "en")
    assert [(p["place_text"], p["side"]) for p in numx["ranking"]["places"]] == [
        ("1st, tied", "Léa"),
        ("1st, tied", "Tom"),
    ]
    assert numx["ranking"]["decided"] == ["Equal totals (4): Léa, Tom share the win."]
    # A session never ends: no ranking.
    assert GAMES["coop"].score(["Léa", "Tom"], {}, [{"placed": 93}], "fr")["ranking"] is None


def test_a_num_king_ranking_explains_the_streak_bonuses():
    king = GAMES["numking"]
    players = ["Léa", "Tom", "Ana"]
    plan = king.score(players, {}, [], "fr")
    rounds = []
    while True:
        result = king.score(players, {}, rounds, "fr")
        if result["finished"]:
            break
        cards = result["next_round"]["cards"]
        rounds.append(
            {
                "cards": cards,
                "entries": {
                    "Léa": {"bid": 0, "tricks": 0},
                    "Tom": {"bid": 1, "tricks": 0},
                    "Ana": {"bid": cards - 1, "tricks": cards},
                },
            }
        )
    assert plan["ranking"] is None
    decided = result["ranking"]["decided"]
    assert decided[0].startswith("Le plus haut total gagne : Léa")
    assert any(line.startswith("Bonus de Léa : Manches 1–") and "annonces exactes de suite" in line for line in decided)


def test_the_seat_page_does_not_ask_the_player_to_log_in():
    client = Client()
    sheet = start(client, "numking", ["Léa", "Tom"])
    own = client.get(f"/sheets/{sheet.pk}/")
    assert "connectez-vous pour les sauvegarder" in text(own)
    seat_url = re.search(r"https?://[^/]+(/p/[^\"\s<]+/)", own.content.decode()).group(1)
    seat = Client().get(seat_url)
    assert seat.status_code == 200
    assert "connectez-vous" not in text(seat).lower() and "Scores conservés" not in text(seat)


def test_the_first_dealer_list_names_the_players_typed():
    client = Client()
    # A refused form (a name too long) shows the names typed in the first-dealer list.
    r = client.post("/new/numking/", {"player": ["Léa", "Tom", "", "x" * 60], "opt-dealer": "1"})
    assert r.status_code == 400
    select = re.search(r'<select name="opt-dealer".*?</select>', r.content.decode(), re.S).group(0)
    options = [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", select)]
    assert options[:3] == ["Léa", "Tom", "Joueur 3"]


def test_the_sign_up_email_names_a_sign_up_code(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    client = Client()
    client.cookies["django_language"] = "fr"
    r = client.post(
        "/accounts/signup/",
        {"email": "new@example.org", "password1": "a long pass 4 words", "password2": "a long pass 4 words"},
    )
    assert r.status_code in (200, 302)
    (sent,) = mail.outbox
    assert "code de confirmation d'inscription" in sent.body
    assert "code de connexion" not in sent.body
    assert json.dumps(sent.body)  # a plain text email
