from django.urls import path

from . import views

urlpatterns = [
    path("sandbox/<str:reference>/", views.sandbox_checkout, name="payments_sandbox_checkout"),
    path("webhook/<str:provider>/", views.webhook, name="payments_webhook"),
]
