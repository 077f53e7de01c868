from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from scoring.api import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/<str:slug>/score/", views.ScoreView.as_view(), name="api-score"),
    path("sheets/", views.SheetListView.as_view(), name="api-sheets"),
    path("sheets/<str:sheet_id>/", views.SheetDetailView.as_view(), name="api-sheet"),
    path("sheets/<str:sheet_id>/rounds/", views.RoundListView.as_view(), name="api-rounds"),
    path("sheets/<str:sheet_id>/rounds/<int:number>/", views.RoundDetailView.as_view(), name="api-round"),
    path("sheets/<str:sheet_id>/draft/", views.DraftView.as_view(), name="api-draft"),
    path("sheets/<str:sheet_id>/draft/entries/<str:player>/", views.DraftEntryView.as_view(), name="api-draft-entry"),
    path("sheets/<str:sheet_id>/rematch/", views.RematchView.as_view(), name="api-rematch"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
