"""The accounts app's receivers: what an account follows of the sheets."""

from urllib.parse import urlencode

from allauth.account.signals import user_logged_in
from django.dispatch import receiver
from django.urls import reverse

from accounts.services import accounts_lock, ratings_recount, sheets_entered, standings_recount
from scoring.access import OWNER_SESSION_KEY
from scoring.services import browser_sheets
from scoring.signals import seats_scored, sheets_owned


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
def recount_standings(sender, game, user_ids, owner_id=None, sheet_id="", finished=False, was_finished=False, **kwargs):
    """Keep the standings of the players seated at a scored sheet equal to their seats (same transaction).

    A sheet that finishes, or that was finished and changed, moves its table's ratings in
    that game: they are recomputed from the account's finished sheets (a sheet that has
    just finished, the last one played, is rated onto them: the same numbers).
    """
    if owner_id and (finished or was_finished):
        # The owner's row and the seated accounts' rows at once, in id order: two tables of
        # accounts seated at each other's sheets, finishing together, never wait in a cycle.
        accounts_lock({*user_ids, owner_id})
    standings_recount(user_ids=user_ids, game=game)
    if owner_id and (finished or was_finished):
        just_finished = sheet_id if finished and not was_finished else ""
        ratings_recount(owner_id=owner_id, game=game, finished_sheet=just_finished)


@receiver(sheets_owned)
def recognise_players(sender, user_id, sheet_ids, **kwargs):
    """Sheets entered an account: recognise « Mes joueurs » on them and give the account its own seat (same transaction)."""
    sheets_entered(user_id=user_id, sheet_ids=sheet_ids)
