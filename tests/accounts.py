"""What the tests share about accounts: how a verified account is made and how a browser logs in to it.

A test whose subject is the login itself (its rate limits, its lockout, what it claims)
posts the login form on its own; every other test starts from these.
"""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.services import profile_update

PASSWORD = "a-long-pass-phrase"


def verified_user(email, *, display_name=""):
    """Make an account named after its e-mail address, verified and primary (allauth lets it log in);
    `display_name` gives it that name on its profile, not public."""
    user = get_user_model().objects.create_user(email.split("@")[0], email, PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    if display_name:
        profile_update(user=user, display_name=display_name, public=False)
    return user


def log_in(client, email):
    """Log `client` in through the login form, as a browser does, and assert it was let in; return `client`."""
    r = client.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert r.status_code == 302, r.content.decode()[:2000]
    return client


def logged_in(email, *, display_name="", form=True):
    """Make a verified account and a browser logged in to it: through the login form, or with
    force_login when `form` is false; return (user, client)."""
    user = verified_user(email, display_name=display_name)
    client = Client()
    if form:
        log_in(client, email)
    else:
        client.force_login(user)
    return user, client
