"""The accounts app's receivers: what an account follows of the sheets."""

from urllib.parse import urlencode

from allauth.account.signals import user_logged_in
from django.dispatch import receiver
from django.urls import reverse

from accounts.services import standings_recount
from scoring.access import OWNER_SESSION_KEY
from scoring.services import browser_sheets
from scoring.signals import seats_scored


@receiver(user_logged_in)
def offer_browser_sheets(sender, request, user, response=None, **kwargs):
    """Ask, after a login (sign-up logs in too), before this browser's anonymous sheets go into the account.

    On a shared phone they may be someone else's: the login leads to the question
    (accounts/views.py `claim_sheets`), then to where it was going. Nothing moves
    until the person answers yes.
    """
    key = request.session.get(OWNER_SESSION_KEY, "")
    if not key or not browser_sheets(owner_key=key).exists():
        return
    if response is not None and response.has_header("Location"):
        then = urlencode({"next": response["Location"]}, safe="/")
        response["Location"] = f"{reverse('claim-sheets')}?{then}"


@receiver(seats_scored)
def recount_standings(sender, game, user_ids, **kwargs):
    """Keep the standings of the players seated at a scored sheet equal to their seats (same transaction)."""
    standings_recount(user_ids=user_ids, game=game)
