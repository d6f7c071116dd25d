from django.urls import path

from tables.web import rules_pages, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/view", views.table_view, name="table_view"),
    path("tables/<int:table_id>/join", views.table_join, name="table_join"),
    path("tables/<int:table_id>/leave", views.table_leave, name="table_leave"),
    path("tables/<int:table_id>/act", views.table_act, name="table_act"),
    path("play/<int:template_id>/", views.template_play, name="template_play"),
    path("private/<int:template_id>/", views.private_create, name="private_create"),
    path("private/join", views.join_by_code, name="join_by_code"),
    path("invite/<str:token>/", views.invite, name="table_invite"),
    path("tables/<int:table_id>/start", views.private_start, name="private_start"),
    path(
        "tables/<int:table_id>/invite-friend",
        views.table_invite_friend,
        name="table_invite_friend",
    ),
    path("rules/<str:variant>/", rules_pages.rules_page, name="rules"),
]
