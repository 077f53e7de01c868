"""What the sheet pages show of « Mes joueurs »: the names a new sheet offers, the « Qui êtes-vous ? » question.

Template tags over accounts.services, so that scoring's pages ask the account's side
without importing it (scoring never imports accounts).
"""

from django import template

from accounts import services

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
def seat_question(context, sheet, columns) -> bool:
    """Tell whether the sheet's page asks its owner « Qui êtes-vous ? » (accounts.services.seat_question)."""
    user = _user(context)
    return user is not None and services.seat_question(user, sheet, columns)
