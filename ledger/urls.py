from django.urls import path

from . import views

urlpatterns = [
    path("", views.wallet, name="wallet"),
    path("practice-top-up/", views.practice_topup, name="wallet_practice_topup"),
]
