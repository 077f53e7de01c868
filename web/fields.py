"""Serializer fields every app's API answers share (web imports no app)."""

import datetime

from django.urls import reverse
from rest_framework import serializers


class Moment(serializers.DateTimeField):
    """A moment as stored, in UTC (`…Z`), whatever the server's or the request's time zone."""

    def __init__(self, **kwargs):
        super().__init__(default_timezone=datetime.UTC, **kwargs)


class Link(serializers.CharField):
    """An absolute link for the request: to the path its source gives, or (`view_name`) to that URL
    named with the source's value (an id)."""

    def __init__(self, view_name: str = "", **kwargs):
        super().__init__(**kwargs)
        self.view_name = view_name

    def to_representation(self, value):
        path = reverse(self.view_name, args=[value]) if self.view_name else value
        return self.context["request"].build_absolute_uri(path)


class URLLink(Link, serializers.URLField):
    """A Link the schema documents as a URI."""
