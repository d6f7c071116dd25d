"""The rating arithmetic, on openskill's Weng-Lin Plackett-Luce model (no Django here).

A rating is openskill's ``(mu, sigma)``: a new player starts at the model's defaults (25,
25/3). A game rates everyone at it at once from their places (equal places are ties);
computer players take part as anchors: their ``(mu, sigma)`` are fixed from the measured
strength of each level (``ANCHOR_MU``, docs/ratings.md) and nothing moves them.

The figure shown is ``display(mu) = round(60 * mu)`` (a new player shows 1500); leaderboards
rank by openskill's ordinal ``mu - 3 * sigma`` (``conservative``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "ANCHOR_MU",
    "ANCHOR_SIGMA",
    "DISPLAY_SCALE",
    "MODEL",
    "Entrant",
    "Skill",
    "anchor_skill",
    "conservative",
    "display",
    "initial",
    "rate",
]

MODEL = PlackettLuce()
DISPLAY_SCALE = 60.0

# Computer players' skill per level, from docs/benchmarks.md "Computer players": the measured
# win share p of the stronger level heads-up gives the gap in mu that the Plackett-Luce model
# predicts that share with, c * ln(p / (1 - p)), c = sqrt(2 * ANCHOR_SIGMA**2 + 2 * beta**2)
# (about 6.06). Medium is put at a new player's 25. 13-card games (pool, deals, points):
# medium beats easy 64.5 %, hard beats medium 57.5 %; classic: 98.8 % and 70.0 %.
ANCHOR_SIGMA = 1.0
ANCHOR_MU: dict[str, dict[str, float]] = {
    "pool": {"easy": 21.4, "medium": 25.0, "hard": 26.8},
    "deals": {"easy": 21.4, "medium": 25.0, "hard": 26.8},
    "points": {"easy": 21.4, "medium": 25.0, "hard": 26.8},
    "classic": {"easy": -1.7, "medium": 25.0, "hard": 30.1},
}


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


@dataclass(frozen=True)
class Entrant:
    """One player of a game: their skill before it, their place (1 = best; equal = tie), and
    whether they are an anchor (a computer player: never moved)."""

    skill: Skill
    place: int
    anchor: bool = False


def initial() -> Skill:
    return Skill(MODEL.mu, MODEL.sigma)


def anchor_skill(family: str, level: str) -> Skill:
    levels = ANCHOR_MU.get(family, ANCHOR_MU["points"])
    return Skill(levels.get(level, levels["medium"]), ANCHOR_SIGMA)


def rate(entrants: Sequence[Entrant]) -> list[Skill]:
    """Everyone's skill after the game, in the order given: openskill's ``rate`` with one team
    a player and the places as ranks; an anchor keeps its skill."""
    teams = [[MODEL.rating(mu=e.skill.mu, sigma=e.skill.sigma)] for e in entrants]
    after = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    return [
        e.skill if e.anchor else Skill(team[0].mu, team[0].sigma)
        for e, team in zip(entrants, after, strict=True)
    ]


def display(mu: float) -> int:
    """The figure players see: 60 * mu, rounded (a new player: 1500)."""
    return round(mu * DISPLAY_SCALE)


def conservative(mu: float, sigma: float) -> float:
    """openskill's ordinal: the skill the player is 99.7 % sure to be above."""
    return mu - 3.0 * sigma
