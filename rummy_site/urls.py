from django.contrib import admin
from django.urls import include, path

from . import health, metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("accounts/", include("accounts.urls")),
    path("", include("accounts.push.urls")),
    path("wallet/", include("ledger.urls")),
    path("payments/", include("ledger.payments.urls")),
    path("", include("tables.tournaments.urls")),
    path("", include("tables.history.urls")),
    path("", include("tables.leaderboards.urls")),
    path("", include("tables.web.urls")),
    path("", include("tables.support.urls")),
]
