from django import template
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.lru import VersionedParts

register = template.Library()


@register.filter
def get_lang(names: dict, lang: str) -> str:
    """Return the name in the page's language ({"fr": ..., "en": ...})."""
    return names.get((lang or "fr")[:2]) or names.get("fr", "")


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key, "") if hasattr(mapping, "get") else mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.filter
def index_of(items, item):
    try:
        return items.index(item)
    except ValueError:
        return -1


KIND_LABELS = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "rainbow": "🌈",
    "shadow": "🌑",
    "joker": "Joker",
    "infini": "∞",
    "numx": "⚡ Num-X",
}


@register.filter
def card_kind(kind: str) -> str:
    """Return the symbol a player knows the card kind by."""
    return KIND_LABELS.get(kind, kind)


KIND_NAMES = {
    "red": _("red"),
    "blue": _("blue"),
    "green": _("green"),
    "yellow": _("yellow"),
    "rainbow": _("Rainbow"),
    "shadow": _("Shadow"),
    "joker": _("Joker"),
    "infini": _("∞ Infini"),
    "numx": _("⚡ Num-X"),
}


@register.filter
def kind_name(kind: str) -> str:
    """Return the card kind's name in the page's language."""
    return KIND_NAMES.get(kind, kind)


# The entry form's hands by sheet, seated players and language (see card_hands).
HANDS = VersionedParts(512)


@register.simple_tag(takes_context=True)
def card_hands(context):
    """Return the hands of a card game's entry form (a card picker per player), rendered once per sheet.

    They change with the sheet's players, the players seated this round (a Num Win
    tie-break seats only the tied) and the language, never with the rounds: the
    creator's page, shown again after every round, inserts them. A form that holds
    values (a round being edited, a refused round shown again) is rendered each time.
    """
    sheet = context["sheet"]

    def render():
        return mark_safe(context.template.engine.get_template("scoring/_hands.html").render(context))

    if context["form"]["seats"] or not context.get("can_edit"):
        return render()
    key = ("hands", sheet.pk, tuple(sheet.players), tuple(context["entry_players"]), translation.get_language())
    return HANDS.get_or_make(key, render)
