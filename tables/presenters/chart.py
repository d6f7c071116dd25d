"""A series of numbers scaled into an SVG view box, for the line charts the templates draw
(My games' running total, a player's rating over time)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["LinePlot", "line_plot"]

WIDTH, HEIGHT, PAD = 600, 200, 20


@dataclass(frozen=True, slots=True)
class LinePlot:
    """``values`` spread evenly across a ``width`` x ``height`` view box (``PAD`` inside each
    edge), the lowest at the bottom and the highest at the top: ``xs`` are the points' x
    coordinates, ``y(value)`` a value's y coordinate."""

    values: tuple[int, ...]
    xs: tuple[float, ...]
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT

    def y(self, value: int) -> float:
        span = (self.high - self.low) or 1
        return round(self.height - PAD - (value - self.low) * (self.height - 2 * PAD) / span, 1)

    @property
    def polyline(self) -> str:
        """The SVG ``points`` of the line through every value."""
        return " ".join(f"{x},{self.y(v)}" for x, v in zip(self.xs, self.values, strict=True))


def line_plot(values: Sequence[int]) -> LinePlot:
    """The plot of ``values`` (at least two)."""
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    return LinePlot(
        values=tuple(values),
        xs=tuple(round(PAD + i * step, 1) for i in range(len(values))),
        low=min(values),
        high=max(values),
    )
