from django.urls import path

websocket_urlpatterns: list = []  # type: ignore[type-arg]
