"""Support's pages (staff with ``accounts.review_deals``): deal search, a deal's review, its
note and export, pair signals. ``rummy_site.urls`` includes them beside the tables' pages."""

from django.urls import path

from tables.support import views

urlpatterns = [
    path("support/deals/", views.deal_search, name="support_deals"),
    path("support/deals/<int:deal_id>/", views.deal_replay, name="support_deal"),
    path("support/deals/<int:deal_id>/note", views.deal_note, name="support_deal_note"),
    path(
        "support/deals/<int:deal_id>/export.json",
        views.deal_download,
        name="support_deal_export",
    ),
    path("support/signals/", views.pair_signals, name="support_signals"),
]
