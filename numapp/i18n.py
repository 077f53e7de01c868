"""The request's language as the code shows it (pages, API and accounts alike)."""

from django.utils import translation


def request_lang() -> str:
    """Return the active language as "fr" or "en" (the locale middleware chose it for the request)."""
    return "en" if (translation.get_language() or "fr").startswith("en") else "fr"
