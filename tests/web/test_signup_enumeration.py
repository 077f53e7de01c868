"""Sign-up answers alike whether the email has an account or not: same page, same mail count, same work.

The work is asserted, not timed: the password hasher runs once for a new email and once
for an email that has an account (before, only a new account's password was hashed:
73 ms against 2.3 s with the real hasher).
"""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-9"


class CountingHasher(MD5PasswordHasher):
    """The tests' fast hasher, counting how many passwords it hashes."""

    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return CountingHasher


def _answer(client: Client, email: str, hasher) -> dict:
    """Sign up with `email`; return what the person and a stopwatch could tell apart."""
    hasher.calls = 0
    mail.outbox.clear()
    r = client.post("/accounts/signup/", {"email": email, "password1": PASSWORD, "password2": PASSWORD})
    hashed = hasher.calls
    page = client.get(r["Location"]) if r.status_code == 302 else r
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page.content.decode()).replace(email, "<email>")
    return {
        "status": r.status_code,
        "location": r.get("Location"),
        "page_status": page.status_code,
        "page": text,
        "mails": [m.to for m in mail.outbox],
        "hashed": hashed,
    }


def test_it_answers_sign_up_alike_whether_the_email_has_an_account_or_not(counting_hasher):
    known = get_user_model().objects.create_user("known", "known@example.org", "another-pass-phrase")
    EmailAddress.objects.create(user=known, email="known@example.org", verified=True, primary=True)
    taken = _answer(Client(), "known@example.org", counting_hasher)
    fresh = _answer(Client(), "fresh@example.org", counting_hasher)

    assert fresh["status"] == 302 and fresh["hashed"] == 1  # a new account: its password hashed once
    assert taken["hashed"] == fresh["hashed"]  # the same work for an email that has an account
    assert taken["mails"] == [["known@example.org"]] and fresh["mails"] == [["fresh@example.org"]]
    for key in ("status", "location", "page_status", "page"):
        assert taken[key] == fresh[key], key
    # Nothing changed for the account that exists: its password is its own.
    known.refresh_from_db()
    assert known.check_password("another-pass-phrase")
    assert get_user_model().objects.filter(email="known@example.org").count() == 1
