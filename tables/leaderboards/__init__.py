"""Leaderboards and seasons (issue 35): per variant family, all time, this season and this week,
by rating and by tournament points; seasons with practice chip rewards paid through the ledger.
See docs/leaderboards.md."""
