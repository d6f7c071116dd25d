from django.urls import path

from . import views
from .payments import views as payment_views

urlpatterns = [
    path("", views.wallet, name="wallet"),
    path("practice-top-up/", views.practice_topup, name="wallet_practice_topup"),
    path("deposit/", payment_views.deposit_create, name="wallet_deposit"),
    path("withdraw/", payment_views.withdrawal_create, name="wallet_withdraw"),
]
