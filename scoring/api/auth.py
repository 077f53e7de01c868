"""Who an API request is for, and the one CSRF check of the API's writes."""

from django.middleware.csrf import CsrfViewMiddleware
from rest_framework.authentication import BaseAuthentication

from scoring.exceptions import CsrfRefused

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


def csrf_failure(request) -> bool:
    """Tell whether an unsafe request that carries cookies fails the CSRF check.

    Clients that send no cookie (the edit token in a header, or nothing) have no ambient
    authority to abuse.
    """
    request = getattr(request, "_request", request)
    if request.method in SAFE_METHODS or not request.COOKIES:
        return False
    check = CsrfViewMiddleware(lambda r: None)
    check.process_request(request)
    return check.process_view(request, None, (), {}) is not None


def answered(view, request) -> bool:
    """Tell whether the view has a handler for the request's method (else DRF answers 405)."""
    method = request.method.lower()
    return method in view.http_method_names and hasattr(view, method)


class DjangoSessionAuthentication(BaseAuthentication):
    """Use the user Django's middleware found; refuse a cookie-carrying write that fails the CSRF check.

    DRF's SessionAuthentication checks CSRF only for logged-in users, while an anonymous
    browser's session also carries authority here (the sheets it created), so every
    cookie-carrying write is checked, here and nowhere else, before the view's handler runs
    (403 `csrf`, scoring.exceptions.CsrfRefused). Not checked: a method the view does not
    answer (it gets its 405), and a view that reads no session and stores nothing
    (`stateless`: scoring a game, refereeing a trick).
    """

    def authenticate(self, request):
        view = request.parser_context.get("view")
        if view is not None and not getattr(view, "stateless", False) and answered(view, request):
            if csrf_failure(request):
                raise CsrfRefused()
        user = getattr(request._request, "user", None)
        if user is not None and user.is_authenticated and user.is_active:
            return (user, None)
        return None
