from django.contrib import admin
from django.urls import include, path

from numapp import pwa
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
    path("sheets/<str:sheet_id>/", views.sheet_page, name="sheet"),
    path("sheets/<str:sheet_id>/rounds/", views.round_add, name="round-add"),
    path("sheets/<str:sheet_id>/rounds/<int:number>/edit/", views.round_edit, name="round-edit"),
    path("sheets/<str:sheet_id>/undo/", views.round_undo, name="round-undo"),
    path("sheets/<str:sheet_id>/rematch/", views.rematch, name="rematch"),
    path("w/<str:sheet_id>/<str:token>/", views.sheet_watch, name="sheet-watch"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", numapp_views.set_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("api/v1/", include("scoring.api.urls")),
    path("admin/", admin.site.urls),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/<str:lang>/", pwa.offline, name="offline"),
    path("engine/<str:digest>.json", pwa.engine_bundle_view, name="engine-bundle"),
]

handler404 = "numapp.views.not_found"
