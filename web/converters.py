"""Path converters that match only what our ids and tokens are made of.

A sheet id is `secrets.token_urlsafe(16)` (22 characters of [A-Za-z0-9_-], the column
holds 32); share and seat tokens are 32 hexadecimal digits. Anything else in those
places, a NUL byte or an accent, is not one of our URLs: 404 before any view runs
(PostgreSQL refuses NUL in text, `hmac.compare_digest` refuses non-ASCII text).
Whole numbers in paths (round number, seat, user id) have 1 to 9 digits.
"""

from django.urls import register_converter


class SheetIdConverter:
    regex = "[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class TokenConverter(SheetIdConverter):
    regex = "[A-Za-z0-9_-]{1,64}"


class NumberConverter:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(SheetIdConverter, "sheet")
register_converter(TokenConverter, "token")
register_converter(NumberConverter, "num")
