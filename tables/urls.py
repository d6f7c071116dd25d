from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/view", views.table_view, name="table_view"),
    path("tables/<int:table_id>/join", views.table_join, name="table_join"),
    path("tables/<int:table_id>/leave", views.table_leave, name="table_leave"),
    path("tables/<int:table_id>/act", views.table_act, name="table_act"),
]
