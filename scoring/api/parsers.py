"""The API's JSON parser: DRF's, plus the limits every JSON body is read with (web/parsing.py).

Every endpoint with a body reads it here, so no view, engine or hash ever sees a
body nested deeper than 32 levels (Python's decoder and `json.dumps` recurse once
per level) or a string holding NUL or a lone surrogate (PostgreSQL and UTF-8
refuse them).
"""

import codecs

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from web.parsing import MAX_DEPTH, JSONRefused, load_json


class BodyRefused(ParseError):
    """A JSON body refused by the limits; the error handler says why, in the user's language."""

    def __init__(self, refused: JSONRefused):
        super().__init__(refused.code)
        self.refused = refused


class JSONParser(parsers.JSONParser):
    max_depth = MAX_DEPTH

    def parse(self, stream, media_type=None, parser_context=None):
        """Return the body's JSON value; raise BodyRefused when it is not JSON we read."""
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (ValueError, LookupError) as exc:  # not in its charset, or an unknown charset
            raise BodyRefused(JSONRefused("invalid", detail=str(exc)[:200])) from None
        try:
            return load_json(text, max_depth=self.max_depth)
        except JSONRefused as exc:
            raise BodyRefused(exc) from None
