from django.contrib import admin
from django.urls import include, path
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import api as accounts_api
from accounts import views as accounts_views
from numapp import (
    converters,  # noqa: F401 (registers <sheet:…>, <token:…>, <num:…>)
    pwa,
)
from numapp import views as numapp_views
from numapp.ratelimit import limit_posts
from scoring import views

# The admin login is limited like allauth's: brute force gets a 429.
admin.site.login = limit_posts("admin_login")(admin.site.login)

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<str:slug>/", views.sheet_new, name="sheet-new"),
    path("rules/<str:slug>/", views.rules, name="rules"),
    path("sheets/", views.my_sheets, name="my-sheets"),
    path("sheets/<sheet:sheet_id>/", views.sheet_page, name="sheet"),
    path("sheets/<sheet:sheet_id>/rounds/", views.round_add, name="round-add"),
    path("sheets/<sheet:sheet_id>/rounds/<num:number>/edit/", views.round_edit, name="round-edit"),
    path("sheets/<sheet:sheet_id>/undo/", views.round_undo, name="round-undo"),
    path("sheets/<sheet:sheet_id>/draft/", views.draft_save, name="draft-save"),
    path("sheets/<sheet:sheet_id>/rematch/", views.rematch, name="rematch"),
    path("sheets/<sheet:sheet_id>/links/", views.links_renew, name="links-renew"),
    path("w/<sheet:sheet_id>/<token:token>/", views.sheet_watch, name="sheet-watch"),
    path("p/<sheet:sheet_id>/<num:seat>/<token:token>/", views.seat_entry, name="seat-entry"),
    path("healthz", numapp_views.healthz, name="healthz"),
    path("readyz", numapp_views.readyz, name="readyz"),
    path("i18n/setlang/", require_POST(set_language), name="set_language"),  # Django's own, POST only
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("api/v1/players/", accounts_api.PlayerListView.as_view(), name="api-players"),
    path("api/v1/players/<num:player_id>/", accounts_api.PlayerDetailView.as_view(), name="api-player"),
    path("api/v1/", include("scoring.api.urls")),
    path("admin/", admin.site.urls),
    path("sheets/<sheet:sheet_id>/restore/", views.round_restore, name="round-restore"),
    path("me/sheets/<sheet:sheet_id>/restore/", accounts_views.sheet_restore, name="sheet-restore"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/<str:lang>/", pwa.offline, name="offline"),
    path("engine/<str:digest>.json", pwa.engine_bundle_view, name="engine-bundle"),
]

handler404 = "numapp.views.not_found"
handler403 = "numapp.views.forbidden"
handler500 = "numapp.views.server_error"
