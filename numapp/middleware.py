"""Headers every response carries."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "object-src 'none'"
)


class SecurityHeadersMiddleware:
    """Add the Content-Security-Policy (no inline script) and a permissions policy."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/api/v1/docs/"):
            # The Swagger page runs its own bundled scripts, served from our host only.
            response.setdefault(
                "Content-Security-Policy",
                CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
                    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
                ),
            )
        response.setdefault("Content-Security-Policy", CSP)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
