"""The accounts app's receivers: what an account follows of the sheets."""

from allauth.account.signals import user_logged_in
from django.contrib import messages
from django.dispatch import receiver
from django.utils.translation import ngettext

from accounts.services import standings_recount
from scoring.access import OWNER_SESSION_KEY
from scoring.services import sheets_claim
from scoring.signals import seats_scored


@receiver(user_logged_in)
def claim_browser_sheets(sender, request, user, **kwargs):
    """Claim this browser's anonymous sheets when its user logs in (sign-up logs in too)."""
    key = request.session.get(OWNER_SESSION_KEY, "")
    claimed = sheets_claim(owner_key=key, user=user) if key else 0
    if claimed:
        # Said on the page the login leads to: the sheets played before logging in are kept.
        messages.success(
            request,
            ngettext(
                "%(count)d sheet added to your account.",
                "%(count)d sheets added to your account.",
                claimed,
            )
            % {"count": claimed},
        )


@receiver(seats_scored)
def recount_standings(sender, game, user_ids, **kwargs):
    """Keep the standings of the players seated at a scored sheet equal to their seats (same transaction)."""
    standings_recount(user_ids=user_ids, game=game)
