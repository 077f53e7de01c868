"""Our one rate-limit mechanism: DRF's scoped throttle, for the API and for the pages.

The rates are REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (numapp/settings.py), by scope. An
API view names its `throttle_scope` and lists `ClientRateThrottle`; a page view is wrapped
by `limit_posts(scope)`, which asks the same throttle with the same rates and answers a 429
page. A client is the signed-in user, else the address every limiter sees
(web/clientip.py). allauth keeps its own limits (ACCOUNT_RATE_LIMITS).

The counters live in the default cache, which fails open (web/cache.py): while Redis is
away every request is allowed.
"""

import functools
import math
import types

from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework.throttling import ScopedRateThrottle

from web.clientip import client_ip


class ClientRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, counting anonymous clients by their address as every limiter does.

    DRF's own `get_ident` reads the whole X-Forwarded-For unless NUM_PROXIES is set, so a
    client choosing a new header value each time would get a new budget each time.
    """

    def get_ident(self, request):
        return client_ip(request)

    def parse_rate(self, rate):
        """Read DRF's "N/unit", and "N/Kunit" for K units: "10/5m" is 10 requests in 5 minutes."""
        if rate is None:
            return (None, None)
        num, period = rate.split("/")
        count = period.rstrip("abcdefghijklmnopqrstuvwxyz")
        requests, duration = super().parse_rate(f"{num}/{period[len(count) :]}")
        return requests, duration * int(count or 1)


class PageThrottle(ClientRateThrottle):
    # The pages' budgets are their own: an API client does not spend a page's.
    cache_format = "throttle_page_%(scope)s_%(ident)s"


def limit_posts(scope: str):
    """Refuse POSTs past the scope's rate with a 429 page in the user's language and Retry-After."""
    view_scope = types.SimpleNamespace(throttle_scope=scope)

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                throttle = PageThrottle()
                if not throttle.allow_request(request, view_scope):
                    message = _("Too many attempts: wait a minute and try again.")
                    response = render(request, "429.html", {"message": message}, status=429)
                    response["Retry-After"] = str(max(1, math.ceil(throttle.wait() or 1)))
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
