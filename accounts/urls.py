from django.urls import path

from accounts import api, views
from web import converters  # noqa: F401 (registers <sheet:…>, <token:…>, <num:…>)

urlpatterns = [
    path("me/", views.history, name="history"),
    path("me/export.csv", views.export, {"fmt": "csv"}, name="export-csv"),
    path("me/export.json", views.export, {"fmt": "json"}, name="export-json"),
    path("me/export-players.csv", views.players_export, {"fmt": "csv"}, name="export-players-csv"),
    path("me/export-players.json", views.players_export, {"fmt": "json"}, name="export-players-json"),
    path("me/players/", views.players, name="players"),
    path("me/players/<num:player_id>/", views.table_player, name="table-player"),
    path("me/players/<num:player_id>/merge/", views.player_merge, name="player-merge"),
    path("me/players/<num:player_id>/split/", views.player_split, name="player-split"),
    path("me/players/<num:player_id>/rename/", views.player_rename, name="player-rename"),
    path("me/players/<num:player_id>/link/", views.player_link_make, name="player-link-make"),
    path("me/players/<num:player_id>/unlink/", views.player_unlink, name="player-unlink"),
    path("players/link/<num:player_id>/<token:token>/", views.player_link, name="player-link"),
    path("me/profile/", views.profile, name="profile"),
    path("me/delete/", views.account_delete, name="account-delete"),
    path("me/sheets/<sheet:sheet_id>/delete/", views.sheet_delete, name="sheet-delete"),
    path("me/sheets/<sheet:sheet_id>/restore/", views.sheet_restore, name="sheet-restore"),
    path("me/sheets/<sheet:sheet_id>/seat/", views.seat_me, name="seat-me"),
    path("me/sheets/<sheet:sheet_id>/save/", views.save_to_account, name="save-to-account"),
    path("me/claim/", views.claim_sheets, name="claim-sheets"),
    path("seat/<sheet:sheet_id>/<num:seat>/<token:token>/", views.seat_join, name="seat-join"),
    path("players/<num:user_id>/", views.player, name="player"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:slug>/", views.leaderboard, name="leaderboard"),
    path("api/v1/players/", api.PlayerListView.as_view(), name="api-players"),
    path("api/v1/players/<num:player_id>/", api.PlayerView.as_view(), name="api-player"),
    path("api/v1/players/<num:player_id>/merge/", api.PlayerMergeView.as_view(), name="api-player-merge"),
    path("api/v1/players/<num:player_id>/split/", api.PlayerSplitView.as_view(), name="api-player-split"),
    path("api/v1/players/<num:player_id>/link/", api.PlayerLinkView.as_view(), name="api-player-link-make"),
    path(
        "api/v1/players/link/<num:player_id>/<token:token>/",
        api.PlayerLinkAcceptView.as_view(),
        name="api-player-link",
    ),
    path("api/v1/players/seats/<sheet:sheet>/", api.SeatView.as_view(), name="api-seat"),
    path("api/v1/players/board/<str:slug>/", api.TableBoardView.as_view(), name="api-table-board"),
]
