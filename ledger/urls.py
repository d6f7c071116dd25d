from django.urls import path

from . import views
from .payments import views as payment_views

urlpatterns = [
    path("", views.wallet, name="wallet"),
    path("practice-top-up/", views.practice_topup, name="wallet_practice_topup"),
    path("deposit/", payment_views.deposit_create, name="wallet_deposit"),
    path("deposits/", payment_views.deposits_live, name="wallet_deposits"),
    path(
        "deposit/<str:reference>/cancel/",
        payment_views.deposit_cancel,
        name="wallet_deposit_cancel",
    ),
    path("withdraw/", payment_views.withdrawal_create, name="wallet_withdraw"),
]
