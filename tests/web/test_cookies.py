"""Cookies as docs/security.md says: with DEBUG off, Secure and SameSite=Lax; none readable by scripts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
COOKIE_SETTINGS = [
    "LANGUAGE_COOKIE_SECURE",
    "LANGUAGE_COOKIE_SAMESITE",
    "LANGUAGE_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_SAMESITE",
    "CSRF_COOKIE_HTTPONLY",
]


def production_cookie_settings() -> dict:
    """Return the cookie settings numapp/settings.py gives a process started with DEBUG=0."""
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{k: getattr(s, k) for k in {COOKIE_SETTINGS!r}}}))"
    )
    env = {"DEBUG": "0", "SECRET_KEY": "x" * 50, "DJANGO_SETTINGS_MODULE": "numapp.settings", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_it_sets_production_cookies_secure_lax_and_out_of_scripts_reach():
    production = production_cookie_settings()
    with override_settings(**production):
        client = Client()
        client.get("/new/coop/")  # a page with a form: the CSRF cookie
        csrf = client.cookies["csrftoken"]
        r = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, HTTP_ORIGIN="http://testserver")
        assert r.status_code == 302
        language = r.cookies["django_language"]
    assert language.value == "en"
    for cookie in (language, csrf):
        assert cookie["secure"] is True, cookie.key
        assert cookie["samesite"] == "Lax", cookie.key
        assert cookie["httponly"] is True, cookie.key


def test_it_sends_no_script_that_reads_cookies():
    # The CSRF cookie is HttpOnly because no script needs it: the pages' forms carry the token.
    for script in (ROOT / "static" / "js").glob("*.js"):
        assert "document.cookie" not in script.read_text().lower(), script.name
