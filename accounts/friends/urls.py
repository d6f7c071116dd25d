from django.urls import path

from . import views

urlpatterns = [
    path("", views.friends, name="friends"),
    path("ask", views.request_send, name="friend_request_send"),
    path("requests/<int:request_id>/accept", views.request_accept, name="friend_request_accept"),
    path("requests/<int:request_id>/refuse", views.request_refuse, name="friend_request_refuse"),
    path("requests/<int:request_id>/cancel", views.request_cancel, name="friend_request_cancel"),
    path("remove", views.friend_remove, name="friend_remove"),
    path("block", views.block, name="player_block"),
    path("unblock", views.unblock, name="player_unblock"),
]
