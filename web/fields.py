"""Serializer fields every app's API answers share (web imports no app)."""

import datetime

from rest_framework import serializers


class Moment(serializers.DateTimeField):
    """A moment as stored, in UTC (`…Z`), whatever the server's or the request's time zone."""

    def __init__(self, **kwargs):
        super().__init__(default_timezone=datetime.UTC, **kwargs)
