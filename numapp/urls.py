"""The project's URLs: each app's own, included, and the project's health checks and error pages."""

from django.contrib import admin
from django.urls import include, path
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from web import views
from web.ratelimit import limit_posts

# The admin login is limited like allauth's: brute force gets a 429.
admin.site.login = limit_posts("admin_login")(admin.site.login)

urlpatterns = [
    path("", include("scoring.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("i18n/setlang/", require_POST(set_language), name="set_language"),  # Django's own, POST only
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("api/v1/", include("scoring.api.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "web.views.not_found"
handler403 = "web.views.forbidden"
handler500 = "web.views.server_error"
