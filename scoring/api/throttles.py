from rest_framework.throttling import ScopedRateThrottle

from numapp.clientip import client_ip
from numapp.ratelimit import count_hit


class WindowThrottle(ScopedRateThrottle):
    """DRF's scoped rates, counted in fixed windows (one counter per client and window).

    DRF's own throttle keeps a list of every request time per client and rewrites it
    on each request; a counter costs one INCR.
    """

    def allow_request(self, request, view):
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        allowed, self._retry = count_hit(
            f"api:{self.scope}:{self.get_ident(request)}", self.num_requests, self.duration
        )
        return allowed

    def get_ident(self, request):
        """Return the client's address as every limiter sees it (numapp/clientip.py).

        DRF's own reads the whole X-Forwarded-For unless NUM_PROXIES is set, so a
        client choosing a new header value each time would get a new budget each time.
        """
        return client_ip(request)

    def wait(self):
        return max(1.0, self._retry)
