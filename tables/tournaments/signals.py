"""What the tournaments tell those who listen (Django signals, the project's one observer
mechanism); the tournaments import none of them.

* ``tournament_finished`` is sent with ``tournament_id`` after the commit of the transaction in
  which a tournament's final ended and its prizes were paid.
"""

from __future__ import annotations

from django.dispatch import Signal

tournament_finished = Signal()
