"""Words: French pages speak French (and English pages English), with plurals and numbers of the language."""

import html
import re
from pathlib import Path

import polib
import pytest

from scoring import services
from scoring.games.i18n import t
from scoring.models import Round
from tests.web.sheets import start

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def text(response) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _other_language_words():
    """Return (English msgids, French msgstrs) that differ, long enough not to be a name or a number.

    The pages' catalogue and the engines' (the rules page, the explanations, the options).
    """
    english, french = set(), set()
    catalogues = ("locale/fr/LC_MESSAGES/django.po", "scoring/games/locale/fr/LC_MESSAGES/engine.po")
    for entry in (e for po in catalogues for e in polib.pofile(str(ROOT / po))):
        if entry.obsolete or "%" in entry.msgid or "{" in entry.msgid:
            continue
        if entry.msgstr and entry.msgstr != entry.msgid and " " in entry.msgid and len(entry.msgid) >= 10:
            english.add(entry.msgid)
            french.add(entry.msgstr)
    return english, french


def test_the_scripts_say_every_word_through_their_catalogue_in_french():
    """Every text the browser scripts give gettext/ngettext is in djangojs.po, translated (none left to a pair)."""
    po = polib.pofile(str(ROOT / "locale/fr/LC_MESSAGES/djangojs.po"))
    translated = {e.msgid for e in po if e.translated() and not e.obsolete}
    assert [e.msgid for e in po if not e.obsolete and not e.translated()] == []
    literal = r'"((?:[^"\\]|\\.)*)"'
    said = []
    for path in sorted((ROOT / "static/js").glob("*.js")):
        source = path.read_text()
        assert not re.search(r"\bsay\(|const t = \(fr, en\)", source), path.name
        said += re.findall(rf"\b(?:gettext|ngettext)\(\s*{literal}", source)
    assert said and [m for m in said if m.replace('\\"', '"') not in translated] == []


def _pages(client):
    sheets = []
    for slug in ("numx", "numx-malus", "numwin", "numking", "coop"):
        client.get(f"/new/{slug}/")
        sheets.append(start(client, slug, ["Léa", "Tom"]))
    urls = ["/", "/sheets/", "/accounts/login/", "/accounts/signup/", "/leaderboards/numx/"]
    urls += [f"/new/{s.game}/" for s in sheets] + [f"/sheets/{s.pk}/" for s in sheets]
    urls += [f"/rules/{s.game}/" for s in sheets]
    return urls


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_it_speaks_the_pages_language_everywhere(client, lang):
    english, french = _other_language_words()
    foreign = english if lang == "fr" else french
    client.cookies["django_language"] = lang
    found = []
    for url in _pages(client):
        page = text(client.get(url))
        found += [f"{url}: {w}" for w in foreign if w in page]
    assert found == []


def test_it_names_the_short_rules_choices_from_the_engine_in_both_languages(client):
    page = text(client.get("/new/numx-malus/"))
    assert "Fin classique : dès 30 points" in page and "Fixe : 5 manches" in page
    assert "Until someone reaches 30" not in page and "5 rounds" not in page
    client.cookies["django_language"] = "en"
    page = text(client.get("/new/numx-malus/"))
    assert "Classic end: at 30 points" in page and "Fixed: 5 rounds" in page


def test_it_puts_engine_messages_in_the_plural_the_count_asks_for():
    assert t("bid_above_cards", "fr", bid=5, cards=1) == "Annonce de 5 plis pour 1 carte distribuée."
    assert t("bid_above_cards", "fr", bid=5, cards=3) == "Annonce de 5 plis pour 3 cartes distribuées."
    assert t("bid_above_cards", "en", bid=5, cards=1) == "Bid of 5 tricks for 1 card dealt."
    assert t("players_count", "fr", min=2, max=8, count=1) == "Il faut de 2 à 8 joueurs (1 donné)."
    assert t("d.zero_missed", "fr", tricks=1, points="−15") == "Annonce 0, 1 pli : ratée → −(10 + 5 × 1) = −15"
    assert t("d.zero_missed", "en", tricks=0, points="−10") == "Bid 0, 0 tricks: failed → −(10 + 5 × 0) = −10"


def _king(client):
    return start(client, "numking", ["Léa", "Tom"])


def test_it_refuses_an_empty_num_king_stepper_naming_the_player(client):
    sheet = _king(client)
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert 'id="bid-0" name="bid-0" value="" placeholder="–"' in page
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards": "1", "bid-0": "", "tricks-0": "1", "bid-1": "0"})
    assert r.status_code == 400
    assert "Léa : annonce manquante." in text(r) and "Tom : plis pris manquants." in text(r)
    assert Round.objects.count() == 0


def test_it_names_the_player_of_a_bid_above_the_cards_with_the_right_plural(client):
    sheet = _king(client)
    r = client.post(
        f"/sheets/{sheet.pk}/rounds/", {"cards": "1", "bid-0": "5", "tricks-0": "0", "bid-1": "0", "tricks-1": "1"}
    )
    assert r.status_code == 400
    assert "Léa : annonce de 5 plis pour 1 carte distribuée." in text(r)
    assert Round.objects.count() == 0


def test_it_shows_the_action_cards_printed_names(client):
    r = client.post("/new/numx/", {"player": ["Léa", "Tom"]})
    page = client.get(r.url).content.decode()
    assert 'data-name="eclair">Éclair</button>' in page
    assert ">eclair<" not in page


def test_it_writes_win_rates_in_the_pages_language_on_the_leaderboard(client, django_user_model, settings):
    settings.LEADERBOARD_MIN_GAMES = 1
    from accounts.models import Profile
    from accounts.services import standings_recount
    from scoring.models import Player

    user = django_user_model.objects.create_user("lea", "lea@example.org", "une phrase assez longue")
    Profile.objects.update_or_create(user=user, defaults={"display_name": "Léa", "public": True})
    sheet = services.sheet_create(game="numking", players=["Léa", "Tom"], options={}, user=user).sheet
    Player.objects.filter(sheet=sheet, seat=0).update(user=user)
    for _ in range(18):
        services.round_add(
            sheet=sheet, data={"entries": {"Léa": {"bid": 0, "tricks": 0}, "Tom": {"bid": 1, "tricks": 0}}}
        )
    standings_recount(user_ids=[user.pk], game="numking")
    assert "100,0\xa0%" in text(client.get("/leaderboards/numking/"))
    client.cookies["django_language"] = "en"
    assert "100.0\xa0%" in text(client.get("/leaderboards/numking/"))
