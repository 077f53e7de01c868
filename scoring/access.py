"""Who may read or write a sheet: its creator (account, browser or edit token) or a share-link holder."""

import secrets

from django.http import Http404

from scoring.exceptions import SheetGone
from scoring.models import Sheet
from scoring.tokens import (
    edit_token_matches,
    entry_link_live,
    entry_token_matches,
    read_token_matches,
    share_link_live,
)

OWNER_SESSION_KEY = "owner_id"
# Sheets this browser opened with their edit link (…/?edit=<edit token>).
EDIT_GRANTS_KEY = "edit_grants"
MAX_GRANTS = 50
EDITOR, VIEWER, PLAYER = "editor", "viewer", "player"


def owner_key(request, *, create: bool = False) -> str:
    """Return this browser's anonymous owner id, kept in the session data.

    A random id, not the session key: login rotates the key, and the sheets
    this browser made must follow.
    """
    key = request.session.get(OWNER_SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(16)
        request.session[OWNER_SESSION_KEY] = key
    return key


def my_sheets(request):
    """Return the live sheets this account, or else this browser, may edit, newest first."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        sheets = Sheet.objects.filter(user=user)
    else:
        key = owner_key(request)
        sheets = Sheet.objects.filter(user__isnull=True, owner_key=key) if key else Sheet.objects.none()
    return sheets.alive().order_by("-updated_at")


def role_for(request, sheet: Sheet, *, share: str = "") -> str | None:
    """Return EDITOR, VIEWER or None for this request on this sheet."""
    user = getattr(request, "user", None)
    if sheet.user_id is not None and user is not None and user.is_authenticated and user.pk == sheet.user_id:
        return EDITOR
    key = request.session.get(OWNER_SESSION_KEY, "") if hasattr(request, "session") else ""
    if sheet.user_id is None and key and secrets.compare_digest(key, sheet.owner_key):
        return EDITOR
    if edit_token_matches(sheet, request.headers.get("X-Edit-Token", "")):
        return EDITOR
    # A grant lasts as long as the edit token it was given for: saving the sheet into an
    # account retires the token (scoring/services.py), and with it every browser's grant.
    if sheet.edit_token_hash and hasattr(request, "session") and sheet.pk in request.session.get(EDIT_GRANTS_KEY, []):
        return EDITOR
    share = share or request.headers.get("X-Share-Token", "") or request.GET.get("share", "")
    if read_token_matches(sheet.pk, share, sheet.links_epoch) and share_link_live(sheet):
        return VIEWER
    if seat_of(request, sheet) is not None:
        return PLAYER  # reads the sheet; writes only their own entry of the round in progress
    return None


def grant_edit_link(request, sheet_id: str, token: str) -> bool:
    """Let this browser edit the sheet if `token` is its live edit token; tell whether it was."""
    sheet = Sheet.objects.alive().filter(pk=sheet_id).first()
    if sheet is None or not edit_token_matches(sheet, token):
        return False
    grants = [g for g in request.session.get(EDIT_GRANTS_KEY, []) if g != sheet_id]
    request.session[EDIT_GRANTS_KEY] = (grants + [sheet_id])[-MAX_GRANTS:]
    if not request.user.is_authenticated:
        owner_key(request, create=True)  # what its page keeps on the device is tagged with it (scoring/device.py)
    return True


def seat_of(request, sheet: Sheet, *, token: str = "") -> int | None:
    """Return the seat whose entry link `token` (or the `X-Seat-Token` header) is, if any, while such links live."""
    token = token or request.headers.get("X-Seat-Token", "")
    if not token or not entry_link_live(sheet):
        return None
    epoch = sheet.links_epoch
    return next((seat for seat in range(len(sheet.players)) if entry_token_matches(sheet.pk, seat, token, epoch)), None)


def get_sheet(request, sheet_id: str, *, write: bool, share: str = "") -> tuple[Sheet, str]:
    """Return the live sheet and the request's role, or raise 404 for anyone else.

    Outsiders and share-link holders asking to write all get the same 404, so a
    response never tells whether a sheet exists.
    """
    sheet = Sheet.objects.read_alive(sheet_id) if isinstance(sheet_id, str) else None
    if sheet is None:
        raise Http404
    role = role_for(request, sheet, share=share)
    if role is None or (write and role != EDITOR):
        raise Http404
    return sheet, role


def get_seat_sheet(sheet_id: str, seat: int, token: str) -> Sheet:
    """Return the live sheet whose seat `seat` the entry link's `token` opens, or raise 404."""
    sheet = Sheet.objects.read_alive(sheet_id) if isinstance(sheet_id, str) else None
    if sheet is None or seat >= len(sheet.players) or not entry_token_matches(sheet.pk, seat, token, sheet.links_epoch):
        raise Http404
    if not entry_link_live(sheet):
        raise Http404
    return sheet


class GoneMiddleware:
    """Answer a page whose sheet went away while it was being answered (`SheetGone`: expired or
    purged since it was read) as the 404 of a sheet that never was. The API's own handler
    answers it in the API's error shape (scoring/api/errors.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, SheetGone):
            raise Http404 from exception
        return None
