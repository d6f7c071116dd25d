from django.urls import path

from . import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("accounts/push/subscribe/", views.subscribe, name="push_subscribe"),
    path("accounts/push/unsubscribe/", views.unsubscribe, name="push_unsubscribe"),
    path("accounts/push/preferences/", views.preferences, name="push_preferences"),
]
