"""Every registered game comes with all its parts (in the manner of datasette's documentation test).

A game in GAMES has a rules page that renders its reference, a test module of its
own, the entry, seat-entry, summary and cell templates its engine names (for every
mode), a catalogue entry (API and home page) with an example request that scores,
and labels in French and English: its name, modes, options, cards, and every string
of its templates translated in the French .po.
"""

import ast
import re
from pathlib import Path

import polib
import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation.template import templatize

from scoring.games import GAMES
from scoring.games.i18n import ACTIONS, CARD_LABELS, CATALOGUES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
PO = ROOT / "locale/fr/LC_MESSAGES/django.po"
LANGS = ("fr", "en")

pytestmark = pytest.mark.django_db
games = pytest.mark.parametrize("slug", list(GAMES))


def option_sets(engine):
    """Return an options dict per choice of every choice option (each mode may enter its rounds differently)."""
    sets = [{}]
    for option in engine.options_spec:
        if option.kind == "choice":
            sets += [{option.name: choice} for choice in option.choices]
    return sets


def templates_of(engine) -> set[str]:
    """Return the templates the engine names for its pages, in every mode."""
    names = {f"scoring/cells/{engine.cell}.html"}
    for options in option_sets(engine):
        form = engine.entry_form(options)
        names |= {form["template"], form["seat_template"]}
        if form["summary_template"]:
            names.add(form["summary_template"])
    return names


def with_includes(names: set[str]) -> set[str]:
    """Return the templates and every template they include (by name), and the hands of a card picker."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        source = (TEMPLATES / name).read_text()
        todo += re.findall(r'{%\s*include\s+"([^"]+)"', source)
        if "{% card_hands %}" in source:
            todo.append("scoring/_hands.html")
    return seen


# A string literal as templatize writes it: u'…' or, holding an apostrophe, u"…".
STRING = r"""u(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""


def msgids(name: str) -> set[str]:
    """Return the message ids of a template, as makemessages reads them."""
    out = set()
    python = templatize((TEMPLATES / name).read_text())
    for call in re.finditer(rf"\b(n?p?gettext)\(((?:{STRING}\s*,?\s*)+)", python):
        strings = [ast.literal_eval(s) for s in re.findall(STRING, call.group(2))]
        out.add(strings[1] if "p" in call.group(1) else strings[0])  # pgettext: the context comes first
    return out


def both(label) -> bool:
    """Tell whether an engine's text is said in French and English: English in the code, French in its catalogue."""
    if isinstance(label, dict):  # a text the engine gives in every language (the entry form's question)
        return all(isinstance(label.get(lang), str) and label[lang].strip() for lang in LANGS)
    key = f"{label.context}\x04{label}" if getattr(label, "context", None) else label
    return isinstance(label, str) and bool(label.strip()) and bool(CATALOGUES["fr"]._catalog.get(key, "").strip())


@games
def test_it_has_a_rules_page_that_renders_its_reference(client, slug):
    engine = GAMES[slug]
    assert engine.RULES, f"{slug}: no rules (RULES)"
    for lang in LANGS:
        page = client.get(f"/rules/{slug}/", HTTP_ACCEPT_LANGUAGE=lang)
        assert page.status_code == 200
        shown = page.content.decode()
        for section in engine.reference(lang):
            assert f"<h2>{section['title']}</h2>" in shown.replace("&#x27;", "'")


@games
def test_it_has_its_own_test_module(slug):
    module = type(GAMES[slug]).__module__.rsplit(".", 1)[-1]
    path = ROOT / "tests" / "games" / f"test_{module}.py"
    assert path.is_file(), f"{slug}: no {path.relative_to(ROOT)}"
    assert re.search(r"^def test_", path.read_text(), re.M), f"{slug}: {path.name} holds no test"


@games
def test_it_has_the_templates_its_engine_names(slug):
    for name in sorted(templates_of(GAMES[slug])):
        try:
            get_template(name)
        except TemplateDoesNotExist:
            pytest.fail(f"{slug}: no template {name}")


@games
def test_it_is_in_the_catalogue_with_an_example_that_scores(client, slug):
    engine = GAMES[slug]
    catalogue = {g["slug"]: g for g in client.get("/api/v1/games/").json()}
    assert slug in catalogue
    assert catalogue[slug]["entry"] == engine.entry and catalogue[slug]["summary"]
    assert f'href="/new/{slug}/"' in client.get("/").content.decode()
    assert f'href="/rules/{slug}/"' in client.get("/").content.decode()
    example = engine.api_example
    assert example, f"{slug}: no api_example"
    scored = client.post(f"/api/v1/games/{slug}/score/", example, content_type="application/json")
    assert scored.status_code == 200, scored.content


@games
def test_a_game_with_a_referee_has_an_example_trick_that_resolves(client, slug):
    engine = GAMES[slug]
    url = f"/api/v1/games/{slug}/trick/"
    if not engine.referee:
        assert client.post(url, {}, content_type="application/json").status_code == 404
        return
    assert engine.trick_example, f"{slug}: no trick_example"
    resolved = client.post(url, engine.trick_example, content_type="application/json")
    assert resolved.status_code == 200, resolved.content


@games
def test_it_names_everything_in_french_and_english(slug):
    engine = GAMES[slug]
    assert both(engine.name) and both(engine.summary), f"{slug}: name or summary"
    for mode, label in engine.modes.items():
        assert both(label), f"{slug}: mode {mode}"
    for option in engine.options_spec:
        assert both(option.label), f"{slug}: option {option.name}"
        for choice, label in (option.choices or {}).items():
            assert both(label), f"{slug}: option {option.name}, choice {choice}"
    for options in option_sets(engine):
        declarer = engine.entry_form(options)["declarer"]
        assert declarer is None or both(declarer), f"{slug}: the declarer question"
    for kind in engine.card_kinds:
        if kind != "action":
            assert kind in CARD_LABELS and both(CARD_LABELS[kind]["label"]), f"{slug}: card {kind}"
    for action in engine.card_actions:
        assert both(ACTIONS.get(action)), f"{slug}: action card {action}"


@games
def test_its_templates_are_translated_in_french(slug):
    po = {entry.msgid: entry for entry in polib.pofile(str(PO)) if not entry.obsolete}
    missing = []
    for name in sorted(with_includes(templates_of(GAMES[slug]))):
        for msgid in sorted(msgids(name)):
            entry = po.get(msgid)
            translated = all(entry.msgstr_plural.values()) if entry and entry.msgid_plural else entry and entry.msgstr
            if not translated or "fuzzy" in entry.flags:
                missing.append(f"{name}: {msgid}")
    assert missing == [], f"{slug}: untranslated"
