"""The parts of scoring's pages that another app draws, for the templates: `{% include parts.<name> %}`.

settings.SCORING_PAGE_PARTS names them (the account's side: its players' names on a new
sheet, the owner's seats on a sheet's page); scoring's templates include what it names and
never name that app themselves (tests/test_layers.py).
"""

from django.conf import settings


def context(request) -> dict:
    """Return the parts of the pages, by name (a context processor)."""
    return {"parts": settings.SCORING_PAGE_PARTS}
