"""The sheets' pages, the players' own pages, and the installable app (numapp/urls.py includes them)."""

from django.urls import path

from scoring import pwa, views
from web import converters  # noqa: F401 (registers <sheet:…>, <token:…>, <num:…>)

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<str:slug>/", views.sheet_new, name="sheet-new"),
    path("rules/<str:slug>/", views.rules, name="rules"),
    path("sheets/", views.my_sheets, name="my-sheets"),
    path("sheets/<sheet:sheet_id>/", views.sheet_page, name="sheet"),
    path("sheets/<sheet:sheet_id>/rounds/", views.round_add, name="round-add"),
    path("sheets/<sheet:sheet_id>/rounds/<num:number>/edit/", views.round_edit, name="round-edit"),
    path("sheets/<sheet:sheet_id>/undo/", views.round_undo, name="round-undo"),
    path("sheets/<sheet:sheet_id>/restore/", views.round_restore, name="round-restore"),
    path("sheets/<sheet:sheet_id>/draft/", views.draft_save, name="draft-save"),
    path("sheets/<sheet:sheet_id>/rematch/", views.rematch, name="rematch"),
    path("sheets/<sheet:sheet_id>/links/", views.links_renew, name="links-renew"),
    path("w/<sheet:sheet_id>/<token:token>/", views.sheet_watch, name="sheet-watch"),
    path("p/<sheet:sheet_id>/<num:seat>/<token:token>/", views.seat_entry, name="seat-entry"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/<str:lang>/", pwa.offline, name="offline"),
    path("engine/<str:digest>.json", pwa.engine_bundle_view, name="engine-bundle"),
    path("jsi18n/<str:lang>/<str:digest>.js", pwa.js_catalogue_view, name="js-catalogue"),
]
