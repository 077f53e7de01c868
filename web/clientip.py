"""The client's address, as every rate limit counts it (pages, API, allauth, the access log).

Behind `TRUSTED_PROXIES` proxies (docs/deployment.md, "Behind a load balancer"), each
proxy appends the address it received the connection from to `X-Forwarded-For`. The
right-most entries were written by our proxies; anything further left came from the
client and may be made up. So the client is the N-th address from the right: the
address our outermost proxy saw. With no trusted proxy the header is ignored and the
client is the connection's peer, `REMOTE_ADDR`.
"""

import ipaddress

from django.conf import settings


def _address(value: str) -> str:
    """Return `value` as a normalised IP address, or "" when it is not one."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):  # some proxies bracket IPv6
        value = value[1:-1]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return ""


def client_address(remote_addr: str, forwarded_for: str, trusted_proxies: int) -> str:
    """Return the client's address from the peer, X-Forwarded-For and the number of trusted proxies.

    With fewer X-Forwarded-For entries than trusted proxies, the request crossed fewer
    proxies than configured (one was bypassed, or the count is wrong): every entry was
    then written by a proxy of ours, so the left-most is the client. Without the header,
    or when the chosen entry is not an IP address, the peer is the answer.
    """
    if trusted_proxies < 1 or not forwarded_for:
        return remote_addr
    hops = forwarded_for.split(",")
    chosen = hops[-trusted_proxies] if len(hops) >= trusted_proxies else hops[0]
    return _address(chosen) or remote_addr


def client_ip(request) -> str:
    """Return the address of the client that sent `request` (see the module docstring)."""
    meta = request.META
    return client_address(meta.get("REMOTE_ADDR", ""), meta.get("HTTP_X_FORWARDED_FOR", ""), settings.TRUSTED_PROXIES)
