from rest_framework.authentication import BaseAuthentication


class DjangoSessionAuthentication(BaseAuthentication):
    """Use the user Django's middleware found; CSRF is checked by the write views.

    DRF's SessionAuthentication checks CSRF only for logged-in users, while an
    anonymous browser's session also carries authority here: `scoring.access`
    checks every cookie-carrying write instead.
    """

    def authenticate(self, request):
        user = getattr(request._request, "user", None)
        if user is not None and user.is_authenticated and user.is_active:
            return (user, None)
        return None
