from django.urls import path

from tables.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/register", views.tournament_register, name="register"),
    path(
        "tournaments/<int:tournament_id>/unregister",
        views.tournament_unregister,
        name="unregister",
    ),
    path(
        "tournaments/tables/<int:table_id>/result",
        views.tournament_table_result,
        name="table_result",
    ),
    path("support/tournaments/", views.tournament_search, name="support_search"),
    path("support/tournaments/<int:tournament_id>/", views.tournament_support, name="support"),
    path(
        "support/tournaments/<int:tournament_id>/results.json",
        views.tournament_export,
        name="export",
    ),
]
