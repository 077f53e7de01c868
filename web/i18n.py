"""The request's language as the code shows it (pages, API and accounts alike)."""

from django.utils import translation


def request_lang() -> str:
    """Return the active language as "fr" or "en" (the locale middleware chose it for the request)."""
    return "en" if (translation.get_language() or "fr").startswith("en") else "fr"


def plural_index(n: int) -> int:
    """Return the form the active catalogue's plural rule (its Plural-Forms) picks for ``n``: 0 singular, 1 plural.

    French counts 0 and 1 as singular, English 1 only; ``ngettext`` picks the same form for a
    message of the catalogue, this one for words that come from elsewhere (an engine's nouns).
    """
    catalogue = translation.trans_real.translation(translation.get_language() or "fr")
    return 1 if catalogue.plural(abs(int(n))) else 0
