from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from scoring.api import events, views
from web import converters  # noqa: F401 (registers <sheet:…>, <num:…>)

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/<str:slug>/score/", views.ScoreView.as_view(), name="api-score"),
    path("games/<str:slug>/trick/", views.TrickView.as_view(), name="api-trick"),
    path("sheets/", views.SheetListView.as_view(), name="api-sheets"),
    path("sheets/<sheet:sheet_id>/", views.SheetDetailView.as_view(), name="api-sheet"),
    path("sheets/<sheet:sheet_id>/rounds/", views.RoundListView.as_view(), name="api-rounds"),
    path("sheets/<sheet:sheet_id>/rounds/<num:number>/", views.RoundDetailView.as_view(), name="api-round"),
    path("sheets/<sheet:sheet_id>/draft/", views.DraftView.as_view(), name="api-draft"),
    path("sheets/<sheet:sheet_id>/draft/tricks/<num:n>/", views.DraftTrickView.as_view(), name="api-draft-trick"),
    path("sheets/<sheet:sheet_id>/draft/entries/<str:player>/", views.DraftEntryView.as_view(), name="api-draft-entry"),
    path("sheets/<sheet:sheet_id>/events/", events.sheet_events, name="api-events"),
    path("sheets/<sheet:sheet_id>/rematch/", views.RematchView.as_view(), name="api-rematch"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
