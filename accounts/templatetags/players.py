"""What scoring's pages show of the account's side: the names a new sheet offers, the owner's seats.

Template tags over accounts.services for accounts' own partials (templates/accounts/_*.html),
which scoring's pages include by the names settings.SCORING_PAGE_PARTS gives them: scoring
never names accounts, in its code or its templates (tests/test_layers.py).
"""

from django import template
from django.urls import reverse

from accounts import services
from scoring import tokens

register = template.Library()


def _user(context):
    request = context.get("request")
    return getattr(request, "user", None)


@register.simple_tag(takes_context=True)
def table_player_names(context) -> list[str]:
    """Return the names of the logged-in account's players (none for a visitor)."""
    user = _user(context)
    return services.table_player_names(user) if user is not None else []


@register.simple_tag(takes_context=True)
def owner_seats(context, sheet) -> list[dict] | None:
    """Return the seats of a sheet its logged-in owner is looking at, else None.

    Each seat: its name, its number, the account holding it (or None) and the link that
    lets a player take it for their stats ("" once such links have ended).
    """
    user, request = _user(context), context.get("request")
    if user is None or not user.is_authenticated or sheet.user_id != user.pk:
        return None
    # The page asks twice (« Qui êtes-vous ? » and the owner's box): read once per request.
    kept = request.__dict__.setdefault("_owner_seats", {})
    if sheet.pk not in kept:
        kept[sheet.pk] = _owner_seats(request, sheet)
    return kept[sheet.pk]


def _owner_seats(request, sheet) -> list[dict]:
    holders = services.seat_holders(sheet)
    live = tokens.claim_link_live(sheet)

    def link(seat: int) -> str:
        token = tokens.claim_token(sheet.pk, seat, sheet.links_epoch)
        return request.build_absolute_uri(reverse("seat-join", args=[sheet.pk, seat, token])) if live else ""

    return [
        {"name": name, "seat": seat, "user_id": holders.get(seat), "url": link(seat)}
        for seat, name in enumerate(sheet.players)
    ]


@register.simple_tag(takes_context=True)
def seat_question(context, sheet, seats) -> bool:
    """Tell whether the sheet's page asks its owner « Qui êtes-vous ? » (accounts.services.seat_question)."""
    user = _user(context)
    holders = {s["seat"]: s["user_id"] for s in seats or () if s["user_id"] is not None}
    return user is not None and seats is not None and services.seat_question(user, sheet, holders)
