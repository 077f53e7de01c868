from django import template
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.lru import VersionedParts
from scoring.qr import qr_svg

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


@register.filter
def entry_summary(entry: dict) -> str:
    """Return a player's (possibly partial) entry of the round in progress in a few words."""
    if not isinstance(entry, dict):
        return ""
    parts = []
    if "bid" in entry:
        parts.append(_("bid %(n)s") % {"n": entry["bid"]})
    if "tricks" in entry:
        parts.append(_("took %(n)s") % {"n": entry["tricks"]})
    if isinstance(entry.get("cards"), list):
        n = len(entry["cards"])
        parts.append(ngettext("%(n)d card", "%(n)d cards", n) % {"n": n})
    if "points" in entry:
        parts.append(_("%(n)s pts typed") % {"n": entry["points"]})
    if "placed" in entry:
        parts.append(_("%(n)s placed") % {"n": entry["placed"]})
    if entry.get("eliminated"):
        parts.append(_("eliminated"))
    return ", ".join(str(p) for p in parts)


@register.filter
def qr(url: str) -> str:
    """Return the QR code of a link as inline SVG, to scan it across the table."""
    return mark_safe(qr_svg(url))


@register.filter
def signed(points) -> str:
    """Return points with their sign, as a round's cell shows them: "+16", "−6", "0"."""
    if not isinstance(points, int):
        return ""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


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
