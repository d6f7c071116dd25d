"""Leaderboards under real concurrency on PostgreSQL: a season's end closed by racing sweeps
pays once; a tournament's finish awarded by racing calls gives its points once."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from tourney_kit import deals_template

from ledger import selectors as ledger_selectors
from ledger.models import Transaction
from ledger.reconcile import reconcile_run
from tables.leaderboards import services
from tables.leaderboards.models import (
    RewardRow,
    RewardTable,
    Season,
    SeasonPayout,
    Standing,
    TournamentAward,
    TournamentPoints,
    TournamentPointsRow,
    TournamentPointsTable,
)
from tables.tournaments.models import Registration, Tournament, TournamentStatus
from tests.threads import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_racing_sweeps_close_a_season_and_pay_its_rewards_once(
    user_factory: Callable[..., Any],
) -> None:
    rewards = RewardTable.objects.create(name="Top 2")
    RewardRow.objects.create(table=rewards, rank=1, chips=3_000)
    RewardRow.objects.create(table=rewards, rank=2, chips=1_000)
    season = Season.objects.create(
        name="Season 1",
        family="pool",
        starts_at=timezone.now() - timedelta(days=31),
        length_days=30,
        rating_rewards=rewards,
    )
    first, second, third = (user_factory() for _ in range(3))
    for user, delta in ((first, 2.0), (second, 1.0), (third, 0.5)):
        Standing.objects.create(
            period=season.period_key,
            family="pool",
            user=user,
            delta=delta,
            games=8,
            mu=25.0 + delta,
            games_total=30,
        )
    results = race(6, lambda i: services.season_close(season_id=season.pk))
    closed = [r for r in results if isinstance(r, services.SeasonClosed) and r.closed]
    assert len(closed) == 1, results
    assert all(isinstance(r, services.SeasonClosed) for r in results), results
    assert closed[0].paid == {first.pk: 3_000, second.pk: 1_000}
    assert SeasonPayout.objects.count() == 2
    assert Transaction.objects.filter(ref=f"season:{season.pk}").count() == 2
    assert ledger_selectors.wallet_balance(user=first, currency="practice") == 3_000
    assert ledger_selectors.wallet_balance(user=third, currency="practice") == 0
    assert Season.objects.filter(name="Season 2", starts_at=season.ends_at).count() == 1
    assert not reconcile_run().discrepancies


def test_racing_awards_give_a_tournaments_points_once(user_factory: Callable[..., Any]) -> None:
    table = TournamentPointsTable.objects.create(name="Standard", active=True)
    TournamentPointsRow.objects.create(table=table, place=1, points=50)
    TournamentPointsRow.objects.create(table=table, place=2, points=20)
    tournament = Tournament.objects.create(
        name="Cup", template=deals_template(), status=TournamentStatus.RUNNING
    )
    winner, runner_up = user_factory(), user_factory()
    Registration.objects.create(tournament=tournament, user=winner, rank_first=1, rank_last=1)
    Registration.objects.create(tournament=tournament, user=runner_up, rank_first=2, rank_last=2)
    # Finished without a save heard (the racing calls are the only awards).
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    results = race(6, lambda i: services.tournament_points_award(tournament_id=tournament.pk))
    assert sorted(results) == [0, 0, 0, 0, 0, 2], results
    assert TournamentAward.objects.count() == 1
    assert dict(TournamentPoints.objects.values_list("user_id", "points")) == {
        winner.pk: 50,
        runner_up.pk: 20,
    }
