import ipaddress

from allauth import app_settings as allauth_settings
from allauth.account.adapter import DefaultAccountAdapter

from scoring import device
from web.clientip import client_ip


def rate_address(address: str) -> str:
    """Return the address a rate limit counts: IPv6 by its network (allauth's RATE_LIMIT_IPV6_PREFIX, /64)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(
            ipaddress.ip_network(f"{ip}/{allauth_settings.RATE_LIMIT_IPV6_PREFIX}", strict=False).network_address
        )
    return str(ip)


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter, with the client address every other limiter uses."""

    def get_client_ip(self, request) -> str:
        """Return the address allauth's rate limits count (web/clientip.py).

        allauth's own reading (ALLAUTH_TRUSTED_PROXY_COUNT) would need a second setting
        that could disagree with ours, and it fails the request when X-Forwarded-For is
        shorter than the proxy count.
        """
        return client_ip(request) or super().get_client_ip(request)

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """Return the `key` of the failed-login limit: the email *and* the client address.

        allauth's key is the email alone, so anyone's wrong passwords locked its owner out
        (docs/security.md, "a stranger locking an account"). Counted per address and
        email, a stranger's tries hold back only the stranger; the per-address limit
        (`10/m/ip`) still bounds one address across every email. A successful password
        reset clears the count of the address it is done from.
        """
        email_key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{email_key}:{rate_address(self.get_client_ip(request))}"

    def logout(self, request) -> None:
        """Log out, and have the next page delete what this browser's identities kept on the device (scoring/device.py)."""
        device.logout(request)
