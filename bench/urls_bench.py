"""The app's URLs plus `/bench/bare`, the yardstick of bench/load.py (bench settings only)."""

from django.http import JsonResponse
from django.urls import path

from numapp.urls import urlpatterns as app_urlpatterns


def bare(request):
    """Return a small JSON object: the cost of Django and its middleware, nothing else."""
    return JsonResponse({"ok": True, "view": "bare"})


urlpatterns = [path("bench/bare", bare, name="bench-bare"), *app_urlpatterns]
