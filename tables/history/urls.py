from django.urls import path

from tables.history import views

urlpatterns = [
    path("me/games/", views.my_games, name="history_games"),
    path("me/games/deal/<int:deal_id>/", views.deal_review, name="history_deal"),
    path("me/games/deal/<int:deal_id>/share", views.deal_share, name="history_share"),
    path("me/stats/", views.my_stats, name="history_stats"),
    path("shared/<str:token>/", views.shared_review, name="history_shared"),
]
