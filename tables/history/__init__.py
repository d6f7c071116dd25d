"""My games: a player's finished games, the review of each deal they played with the engine's
advice, their statistics and the deals they share.

* ``selectors``: the reads (games of a player with the money each moved, statistics, the deal a
  player may review, the review itself: replayed by ``tables.rules.replay`` and advised by
  ``tables.rules.review``, cached);
* ``services``: ``deal_share_set`` (a player's public link to one deal's review);
* ``presenters``: the review and the statistics in the player's words and the chart's points;
* ``views`` and ``urls``: the pages under ``/me/`` and the shared review ``/shared/<token>/``.
"""
