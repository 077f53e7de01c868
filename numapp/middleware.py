"""Headers every response carries."""

from django.conf import settings

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "object-src 'none'"
)
# The in-page engine's worker compiles Pyodide's WebAssembly: only the worker's own script
# (a worker's policy is the one its script is served with) may do it, never a page.
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
WORKER_PATH = settings.STATIC_URL + "js/engine-worker."


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
        if request.path.startswith(WORKER_PATH):
            response.setdefault("Content-Security-Policy", WORKER_CSP)
        response.setdefault("Content-Security-Policy", CSP)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
