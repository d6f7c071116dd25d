from django.urls import path

from tables.leaderboards import views

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
]
