"""The engines' one way to translate: every text they mark is in the French catalogue, translated.

The engines write their texts in English, marked for xgettext (scoring/games/i18n.py: ``_``,
``n_``, ``N_``, ``pN_``, ``Nn_``); ``make messages`` collects them into
scoring/games/locale/<lang>/LC_MESSAGES/engine.po and compiles engine.mo, which the engines
and the browser's copy of them (the engine bundle) read.
"""

import ast
import gettext
from pathlib import Path

import polib
import pytest

from scoring.games import i18n
from scoring.games.i18n import MESSAGES, N_, PLURALS, n_, ordinal, t
from scoring.games.i18n import _ as in_language  # not `_`: Django's makemessages reads the tests too

ENGINES = Path(i18n.__file__).parent
PO = ENGINES / "locale/fr/LC_MESSAGES/engine.po"
MO = ENGINES / "locale/fr/LC_MESSAGES/engine.mo"
# Where each marker holds its texts: (context, msgid, msgid_plural) argument positions.
MARKERS = {"N_": (None, 0, None), "pN_": (0, 1, None), "Nn_": (None, 0, 1), "_": (None, 1, None), "n_": (None, 1, 2)}


def _literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def marked_texts():
    """Return {(context, msgid, msgid_plural): "file:line"} of every literal text the engines mark."""
    found = {}
    for path in sorted(ENGINES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
                where = [
                    None if i is None else node.args[i] if i < len(node.args) else None for i in MARKERS[node.func.id]
                ]
                context, msgid, plural = (None if n is None else _literal(n) for n in where)
                if msgid:
                    found[(context, msgid, plural)] = f"{path.name}:{node.lineno}"
    return found


def test_it_marks_texts_the_catalogue_translates_into_french():
    entries = {(e.msgctxt, e.msgid, e.msgid_plural or None): e for e in polib.pofile(str(PO)) if not e.obsolete}
    untranslated = []
    for key, where in marked_texts().items():
        entry = entries.get(key)
        if entry is None or "fuzzy" in entry.flags or not (entry.msgstr or all(entry.msgstr_plural.values())):
            untranslated.append(f"{where}: {key}")
    assert untranslated == [], "run `make messages` and translate these in engine.po"


def test_it_translates_every_msgid_of_the_catalogue():
    po = polib.pofile(str(PO))
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    missing = [e.msgid for e in po if not e.obsolete and ("fuzzy" in e.flags or not e.translated())]
    assert missing == []


def test_it_ships_the_catalogue_compiled_as_it_is_written():
    compiled = gettext.GNUTranslations(MO.open("rb"))
    for entry in polib.pofile(str(PO)):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            said = [compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
            if entry.msgctxt is None:
                said = [compiled.ngettext(entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
            assert said == [entry.msgstr_plural[0], entry.msgstr_plural[1]], entry.msgid
        else:
            said = compiled.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else compiled.gettext(entry.msgid)
            assert said == entry.msgstr, "engine.mo is older than engine.po: run `make messages`"


def test_every_message_code_has_its_text_marked():
    for code, text in MESSAGES.items():
        assert isinstance(text, N_) or (isinstance(text, tuple) and len(text) == 2), code
        assert (code in PLURALS) == isinstance(text, tuple) or code not in PLURALS, code


def test_it_says_a_count_in_the_form_of_each_language():
    assert [n_("fr", "round", "rounds", n) for n in (0, 1, 2, -1)] == ["manche", "manche", "manches", "manche"]
    assert [n_("en", "round", "rounds", n) for n in (0, 1, 2, "−1")] == ["rounds", "round", "rounds", "round"]
    assert n_("fr", "{count} player", "{count} players", 0).format(count=0) == "0 joueur"
    assert t("d.malus_numeric_counted", "en", count=0, points=0) == "0 numeric cards → 0"
    assert t("d.malus_numeric_counted", "fr", count="−1", points=0) == "−1 carte numérique → 0"
    assert t("d.malus_numeric_counted", "fr", count="many", points=0) == "many cartes numériques → 0"


def test_it_says_places_in_each_language():
    assert [ordinal(n, "fr") for n in (1, 2, 11, 21)] == ["1er", "2e", "11e", "21e"]
    assert [ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th",
    ]  # fmt: skip
    assert ordinal(2, "fr", shared=True) == "2e ex æquo"
    assert ordinal(2, "en", shared=True) == "2nd, tied"


@pytest.mark.parametrize("lang", ["de", "xx", ""])
def test_it_says_a_language_without_a_catalogue_in_french(lang):
    assert in_language(lang, N_("Unknown player: {name}.")) == "Joueur inconnu : {name}."
    assert in_language("en", N_("Unknown player: {name}.")) == "Unknown player: {name}."
    assert in_language("fr", "") == ""
