"""Every token a link or a header carries, each named after what it grants.

- the edit token: read and write a sheet (random, shown once, stored hashed);
- the read token: read a sheet, the share link's last part (derived from the secret key);
- a seat's entry token: that player's own entry in the round in progress (derived);
- a seat's claim token: attach that seat to one's account, for the stats (derived);
- a restore token: put back the round this browser removed, once, within an hour, while the
  sheet is still at the version the removal left it at (signed).

Derived tokens are HMACs of the secret key: nothing is stored, and rotating the key
retires them all. Every check runs in constant time and takes any text (a header or a
query string) without raising.

Each right ends (docs/security.md, "Who holds which right, and until when"): the
`*_live` functions say whether a sheet's links still grant theirs. An anonymous sheet's
links live as long as the sheet (48 hours after its last change); an account's sheet
ends them by its game and its last change, since it is kept for good. The sheet's editor
ends them all at once by moving the sheet's `links_epoch` on: the derived tokens of the
share, entry and claim links include it.
"""

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import salted_hmac

from web.parsing import same_token

RESTORE_MAX_AGE = 60 * 60  # the "Restore" button of a removed round works for an hour
# The share and claim links of an account's sheet work until this long after its last change.
ACCOUNT_LINK_KEEP = timedelta(days=30)


def _idle(sheet, now) -> timedelta:
    return (now or timezone.now()) - sheet.updated_at


def share_link_live(sheet, now=None) -> bool:
    """Tell whether the sheet's share link still reads it: an account's sheet, until 30 days after its last change."""
    return sheet.user_id is None or _idle(sheet, now) < ACCOUNT_LINK_KEEP


def entry_link_live(sheet, now=None) -> bool:
    """Tell whether the players' entry links still read the sheet and write their entries.

    An account's sheet: while its game is not finished, and never past 48 hours
    (ANONYMOUS_SHEET_TTL) after its last change; the owner's next change opens them again.
    """
    if sheet.user_id is None:
        return True
    return not sheet.finished and _idle(sheet, now) < settings.ANONYMOUS_SHEET_TTL


def claim_link_live(sheet, now=None) -> bool:
    """Tell whether the seats' claim links (an account's sheet only) still work: until 30 days after its last change."""
    return sheet.user_id is not None and _idle(sheet, now) < ACCOUNT_LINK_KEEP


def new_edit_token() -> str:
    """Return a new edit token (192 random bits)."""
    return secrets.token_urlsafe(24)


def edit_token_hash(token: str) -> str:
    """Return the stored form of an edit token (SHA-256; tokens carry 192 random bits)."""
    return hashlib.sha256(token.encode()).hexdigest()


def edit_token_matches(sheet, token) -> bool:
    """Tell in constant time whether `token` is this sheet's live edit token."""
    if not isinstance(token, str) or not token or not sheet.edit_token_hash:
        return False
    return hmac.compare_digest(sheet.edit_token_hash, edit_token_hash(token))


def _derived(salt: str, value: str, epoch: int = 0) -> str:
    """Return the HMAC token of `value` under the secret key, for the sheet's links of generation `epoch`.

    The first generation (0) is the value alone, as links were before generations existed.
    """
    if epoch:
        value = f"{value}~{epoch}"
    return salted_hmac(salt, value, algorithm="sha256").hexdigest()[:32]


def read_token(sheet_id: str, epoch: int = 0) -> str:
    """Return the token of the sheet's share link: reading the sheet, nothing else.

    `epoch` is the sheet's `links_epoch`: "new links" moves it on and ends the old ones
    (the same for the entry and claim tokens below).
    """
    return _derived("numapp.share", sheet_id, epoch)


def read_token_matches(sheet_id: str, token, epoch: int = 0) -> bool:
    return same_token(read_token(sheet_id, epoch), token)


def entry_token(sheet_id: str, seat: int, epoch: int = 0) -> str:
    """Return the token of a player's own entry link: their entry in the round in progress, nothing else."""
    return _derived("numapp.seat-entry", f"{sheet_id}:{seat}", epoch)


def entry_token_matches(sheet_id: str, seat: int, token, epoch: int = 0) -> bool:
    return same_token(entry_token(sheet_id, seat, epoch), token)


def claim_token(sheet_id: str, seat: int, epoch: int = 0) -> str:
    """Return the token of a seat's claim link: a logged-in player attaches that seat to their account."""
    return _derived("numapp.seat", f"{sheet_id}:{seat}", epoch)


def claim_token_matches(sheet_id: str, seat: int, token, epoch: int = 0) -> bool:
    return same_token(claim_token(sheet_id, seat, epoch), token)


def _restore_signer(sheet_id: str) -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=f"numapp.round-restore:{sheet_id}")


def restore_token(sheet_id: str, number: int, data: dict, version: int) -> str:
    """Return the signed token that puts removed round `number` (with `data`) back on this sheet.

    `version` is the sheet's version right after the removal: the token is good for that
    version only, so it restores once (restoring makes a new version) and never over a
    sheet that changed since (docs/security.md, "a stale Restore").
    """
    return _restore_signer(sheet_id).sign_object({"number": number, "data": data, "version": version}, compress=True)


def restore_token_round(sheet_id: str, token) -> tuple[int, dict, int] | None:
    """Return the (number, data, version) a restore token carries, or None if it is not one of this sheet's."""
    try:
        removed = _restore_signer(sheet_id).unsign_object(str(token), max_age=RESTORE_MAX_AGE)
        return int(removed["number"]), removed["data"], int(removed["version"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
