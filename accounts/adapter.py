from allauth.account.adapter import DefaultAccountAdapter

from numapp.clientip import client_ip


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter, with the client address every other limiter uses."""

    def get_client_ip(self, request) -> str:
        """Return the address allauth's rate limits count (numapp/clientip.py).

        allauth's own reading (ALLAUTH_TRUSTED_PROXY_COUNT) would need a second setting
        that could disagree with ours, and it fails the request when X-Forwarded-For is
        shorter than the proxy count.
        """
        return client_ip(request) or super().get_client_ip(request)
