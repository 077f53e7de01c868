"""Claim this browser's anonymous sheets when its user logs in (sign-up logs in too)."""

from allauth.account.signals import user_logged_in
from django.dispatch import receiver

from scoring.access import OWNER_SESSION_KEY
from scoring.services import sheets_claim


@receiver(user_logged_in)
def claim_browser_sheets(sender, request, user, **kwargs):
    key = request.session.get(OWNER_SESSION_KEY, "")
    if key:
        sheets_claim(owner_key=key, user=user)
