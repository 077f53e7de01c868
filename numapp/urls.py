from django.contrib import admin
from django.urls import include, path

from numapp import converters  # noqa: F401 (registers <sheet:…>, <token:…>, <num:…>)
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
    path("sheets/<sheet:sheet_id>/rematch/", views.rematch, name="rematch"),
    path("w/<sheet:sheet_id>/<token:token>/", views.sheet_watch, name="sheet-watch"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", numapp_views.set_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("api/v1/", include("scoring.api.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "numapp.views.not_found"
