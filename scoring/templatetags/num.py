import hashlib
import json

from django import template
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from numapp.release import release
from scoring.qr import qr_svg
from scoring.services import anonymous_keep_hours

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
    if "numeric" in entry or "specials" in entry:
        numeric, specials = entry.get("numeric"), entry.get("specials")
        if isinstance(numeric, int):
            parts.append(ngettext("%(n)d numeric card", "%(n)d numeric cards", numeric) % {"n": numeric})
        if isinstance(specials, int):
            parts.append(ngettext("%(n)d special or action", "%(n)d specials and actions", specials) % {"n": specials})
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


@register.simple_tag
def sheet_keep_hours() -> int:
    """Return how many hours an anonymous sheet is kept after its last change (`{% sheet_keep_hours as hours %}`)."""
    return anonymous_keep_hours()


# A card picker is kept this long in Django's cache: the same picker serves every hand of
# every sheet of a game with the same cards, in one language (docs/performance.md).
PICKER_KEEP = 24 * 3600


@register.simple_tag(takes_context=True)
def card_hands(context):
    """Return the hands of a card game's entry form, each with the card picker drawn once.

    The picker (a grid of 17 values × the deck's colours, the specials and actions) is the
    same for every hand: it depends only on the cards the sheet plays and the language,
    which its key names with the release that draws it. Each hand's own values (its cards,
    its typed points) are drawn around it, every time.
    """
    picker = context["game"]["cards"]["picker"]
    digest = hashlib.sha256(json.dumps(picker, sort_keys=True).encode()).hexdigest()[:16]
    key = f"picker:{release()}:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        html = render_to_string("scoring/_picker.html", {"game": context["game"]})
        cache.set(key, html, PICKER_KEEP)  # drawn from the catalogue alone, never from the database
    with context.push(picker_html=mark_safe(html)):
        return mark_safe(context.template.engine.get_template("scoring/_hands.html").render(context))
