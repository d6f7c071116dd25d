from django.urls import path

from . import views

urlpatterns = [path("", views.wallet, name="wallet")]
