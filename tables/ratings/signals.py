"""What the ratings tell those who listen (Django signals, the project's one observer
mechanism); the ratings import none of them.

* ``rating_changed`` is sent with ``change`` (a ``RatingChange`` of a rated game, just written)
  inside the rating's own transaction: a listener's writes commit or roll back with it, so a
  game rated once is heard once.
"""

from __future__ import annotations

from django.dispatch import Signal

rating_changed = Signal()
