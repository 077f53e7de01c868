from django.urls import path

from accounts import views

urlpatterns = [
    path("me/", views.history, name="history"),
    path("me/export.csv", views.export, {"fmt": "csv"}, name="export-csv"),
    path("me/export.json", views.export, {"fmt": "json"}, name="export-json"),
    path("me/profile/", views.profile, name="profile"),
    path("me/delete/", views.account_delete, name="account-delete"),
    path("me/sheets/<str:sheet_id>/delete/", views.sheet_delete, name="sheet-delete"),
    path("me/sheets/<str:sheet_id>/seat/", views.seat_me, name="seat-me"),
    path("me/sheets/<str:sheet_id>/save/", views.save_to_account, name="save-to-account"),
    path("seat/<str:sheet_id>/<int:seat>/<str:token>/", views.seat_join, name="seat-join"),
    path("players/<int:user_id>/", views.player, name="player"),
    path("leaderboards/<str:slug>/", views.leaderboard, name="leaderboard"),
]
