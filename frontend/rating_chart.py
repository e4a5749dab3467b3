"""A rating history as an inline SVG polyline: pure arithmetic, no Django, no JavaScript.

The profile page draws it server-side (like ``calc.js`` draws its bar charts: a ``viewBox``,
``role="img"`` and a caption), so the chart shows without a script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 560, 160, 24


@dataclass(frozen=True)
class Chart:
    points: str  # "x,y x,y ..." for <polyline points>
    low: float
    high: float
    width: int = WIDTH
    height: int = HEIGHT


def history_chart(values: Sequence[float]) -> Chart | None:
    """The polyline of ``values`` (oldest first) scaled into the box, lowest at the bottom;
    None for no values. One value is a flat line across; equal values sit mid-height."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = high - low
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    series = list(values) if len(values) > 1 else [values[0], values[0]]
    step = inner_w / (len(series) - 1)
    coords = []
    for i, v in enumerate(series):
        y = HEIGHT / 2 if span == 0 else PAD + inner_h * (high - v) / span
        coords.append(f"{PAD + i * step:.1f},{y:.1f}")
    return Chart(" ".join(coords), low, high)
