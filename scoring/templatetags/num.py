from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.fragments import PICKER_KEEP, kept_html
from scoring.games import GAMES
from scoring.qr import qr_svg
from scoring.services import anonymous_keep_hours
from web.i18n import plural_index, request_lang

register = template.Library()


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key, "") if hasattr(mapping, "get") else mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.filter
def game_title(slug: str) -> str:
    """Return a game's name in the page's language, from its slug: ``{{ sheet.game|game_title }}``."""
    return GAMES[slug].title(request_lang()) if slug in GAMES else slug


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
    if isinstance(entry.get("tricks"), int):
        n = entry["tricks"]
        parts.append(ngettext("took %(n)d trick", "took %(n)d tricks", n) % {"n": n})
    if isinstance(entry.get("cards"), list):
        n = len(entry["cards"])
        parts.append(ngettext("%(n)d card", "%(n)d cards", n) % {"n": n})
    if "numeric" in entry or "specials" in entry:
        numeric, specials = entry.get("numeric"), entry.get("specials")
        if isinstance(numeric, int):
            parts.append(ngettext("%(n)d numeric card", "%(n)d numeric cards", numeric) % {"n": numeric})
        if isinstance(specials, int):
            parts.append(ngettext("%(n)d special or action", "%(n)d specials and actions", specials) % {"n": specials})
    if isinstance(entry.get("points"), int):
        n = entry["points"]
        parts.append(ngettext("%(n)s pt typed", "%(n)s pts typed", abs(n)) % {"n": num(n)})
    if isinstance(entry.get("placed"), int):
        n = entry["placed"]
        parts.append(ngettext("%(n)d card placed", "%(n)d cards placed", n) % {"n": n})
    if entry.get("eliminated"):
        parts.append(_("eliminated"))
    return ", ".join(str(p) for p in parts)


@register.filter
def qr(url: str) -> str:
    """Return the QR code of a link as inline SVG, to scan it across the table."""
    return mark_safe(qr_svg(url))


@register.filter
def num(points) -> str:
    """Return a number of points as every page shows it: "−6" with a true minus sign (static/js/words.js says the same)."""
    if not isinstance(points, int) or isinstance(points, bool):
        return "" if points is None else str(points)
    return f"−{-points}" if points < 0 else str(points)


@register.filter
def signed(points) -> str:
    """Return points with their sign, as a round's cell shows them: "+16", "−6", "0"."""
    if not isinstance(points, int):
        return ""
    return f"+{points}" if points > 0 else num(points)


@register.filter
def counted(count, noun: dict) -> str:
    """Return a count with its noun in the catalogue's plural: ``{{ n|counted:game.round_noun }}`` → "3 parties"."""
    return f"{count} {noun['other'] if plural_index(count) else noun['one']}"


@register.filter
def rows_of(sheet) -> str:
    """Return how many rows a sheet has, named by its game: "3 manches", "1 partie"."""
    return counted(sheet.round_count, sheet.engine.round_words(request_lang()))


@register.simple_tag
def sheet_keep_hours() -> int:
    """Return how many hours an anonymous sheet is kept after its last change (`{% sheet_keep_hours as hours %}`)."""
    return anonymous_keep_hours()


@register.simple_tag
def kept(template_name: str, values: dict | None = None, **named) -> str:
    """Draw `template_name` from `values` (a dict, or named values) and the language alone, once per content (`kept_html`).

    The template sees nothing else (no request, no session, no CSRF token), so the key,
    made of the same values, can never name a drawing that read something it does not.
    """
    values = {**(values or {}), **named}
    return mark_safe(
        kept_html(
            template_name, values, lambda: render_to_string(template_name, {**values, "LANGUAGE_CODE": get_language()})
        )
    )


@register.simple_tag(takes_context=True)
def card_hands(context):
    """Return the hands of a card game's entry form, each with the card picker drawn once.

    The picker (a grid of 17 values × the deck's colours, the specials and actions) is the
    same for every hand: it depends only on the cards the sheet plays and the language
    (`kept_html`). Each hand's own values (its cards, its typed points) are drawn around it.
    """
    picker = context["game"]["cards"]["picker"]
    html = kept_html(
        "picker",
        picker,
        lambda: render_to_string("scoring/_picker.html", {"game": {"cards": {"picker": picker}}}),
        PICKER_KEEP,
    )
    with context.push(picker_html=mark_safe(html)):
        return mark_safe(context.template.engine.get_template("scoring/_hands.html").render(context))
