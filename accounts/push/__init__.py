"""Web Push (issue 35): players' push subscriptions, their notification preferences, and the
notices sent to them from Celery (``accounts.push.services.push_notify``). The app's label is
``push``; like the rest of ``accounts`` it imports nothing of the tables or the ledger: the
tables and the friends call ``push_notify`` (docs/push.md)."""
