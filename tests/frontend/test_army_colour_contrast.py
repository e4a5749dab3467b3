"""Contrast of the text drawn on the board's army colours (WCAG 2.x, 1.4.3 and 1.4.11).

board.js fills a territory with its owner's colour (the seat's ``colour``, a CSS colour name
from ``risk.rules.state.COLOURS``) and writes the army count (``.armies``) and the name
(``.land-name``) on it; ships carry their crew (``.crew``) on a hull of the owner's colour. No one
text colour reads on all ten army colours: black on blue is 2.4:1, white on yellow 1.1:1. So
the board's text is drawn with a halo: ``paint-order: stroke`` and a white stroke around every
glyph (site.css, ``.board-svg text``), so each glyph sits on white whatever the fill, and the
contrast that counts for reading is the text's colour against the halo's. This test reads those
values from site.css itself, so a change there that breaks them fails here.

The colour is never the only cue: the seats table writes each seat's colour name next to its
swatch, and every territory's accessible name says its owner (checked in the browser, in
test_browser_a11y.py).
"""

from __future__ import annotations

import re

import pytest

from risk.rules.state import COLOURS
from tests.conftest import ROOT

SITE_CSS = ROOT / "frontend" / "static" / "frontend" / "site.css"

#: The CSS named colours of the army colours (CSS Color 4, section 6.1).
NAMED = {
    "red": "#ff0000", "blue": "#0000ff", "green": "#008000", "yellow": "#ffff00",
    "black": "#000000", "pink": "#ffc0cb", "grey": "#808080", "orange": "#ffa500",
    "purple": "#800080", "brown": "#a52a2a", "white": "#ffffff",
}  # fmt: skip
#: Small text (the army counts are 15px bold, names 9px): WCAG 1.4.3's minimum.
SMALL_TEXT = 4.5
#: Graphical objects (the label against the land it sits on): WCAG 1.4.11's minimum.
NON_TEXT = 3.0


def rgb(colour: str) -> tuple[int, int, int]:
    value = NAMED.get(colour, colour).lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def luminance(colour: str | tuple[int, int, int]) -> float:
    """WCAG 2.x relative luminance: each sRGB channel linearised, then 0.2126 R + 0.7152 G +
    0.0722 B."""
    channels = rgb(colour) if isinstance(colour, str) else colour

    def linear(c8: int) -> float:
        c = c8 / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str | tuple[int, int, int], b: str | tuple[int, int, int]) -> float:
    """(L1 + 0.05) / (L2 + 0.05), the lighter over the darker."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def over(colour: str, under: str, opacity: float) -> tuple[int, int, int]:
    """``colour`` at ``opacity`` over ``under``, composited in sRGB as browsers do."""
    top, bottom = rgb(colour), rgb(under)
    return tuple(round(opacity * t + (1 - opacity) * b) for t, b in zip(top, bottom, strict=True))  # type: ignore[return-value]


def css_rule(selector: str) -> dict[str, str]:
    """The declarations of the first rule of site.css whose selector is exactly ``selector``."""
    css = re.sub(r"/\*.*?\*/", "", SITE_CSS.read_text(), flags=re.S)  # comments are no selector
    for sel, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if sel.strip() == selector:
            pairs = (d.split(":", 1) for d in body.split(";") if ":" in d)
            return {k.strip(): v.strip() for k, v in pairs}
    raise AssertionError(f"no rule {selector!r} in site.css")


def screen_px(length: str) -> float:
    """On-screen pixels of a board length: ``3px`` or ``calc(3px * var(--k))`` (the board's
    lengths scaled by --k, board units per screen pixel, are that many screen pixels)."""
    scaled = re.fullmatch(r"calc\(([\d.]+)px \* var\(--k\)\)", length)
    return float(scaled.group(1) if scaled else length.removesuffix("px"))


def test_the_formula_worked_by_hand_for_red():
    # red is #ff0000: R = 255/255 = 1.0, linear 1.0; G = B = 0, linear 0.
    # L = 0.2126 * 1.0 = 0.2126. Black text on it: (0.2126 + 0.05) / (0 + 0.05) = 5.252;
    # white text: (1.0 + 0.05) / (0.2126 + 0.05) = 3.998.
    assert luminance("red") == pytest.approx(0.2126)
    assert contrast("#000", "red") == pytest.approx(5.252)
    assert contrast("#fff", "red") == pytest.approx(3.998, abs=0.001)
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    # grey #808080: 128/255 = 0.50196 -> ((0.50196 + 0.055) / 1.055) ** 2.4 = 0.21586
    assert luminance("grey") == pytest.approx(0.21586, abs=1e-5)


def test_no_single_text_colour_reads_on_every_army_colour():
    """Why the halo: black fails on the dark colours, white on the light ones."""
    assert contrast("#000", "blue") == pytest.approx(2.44, abs=0.01)
    assert contrast("#fff", "yellow") == pytest.approx(1.07, abs=0.01)
    assert min(contrast("#000", c) for c in COLOURS) < SMALL_TEXT
    assert min(contrast("#fff", c) for c in COLOURS) < SMALL_TEXT


def test_the_board_text_is_drawn_on_a_white_halo():
    text = css_rule(".board-svg text")
    assert text["paint-order"] == "stroke"  # the stroke under the fill: a ring, not a cover
    assert text["stroke"] == "#fff"
    # 3 screen pixels centred on the outline: 1.5px of white all round each glyph, wider than
    # the gap anti-aliasing leaves, so no glyph edge touches the fill. Written in board units
    # per screen pixel (``calc(3px * var(--k))``, board.js sets --k) so it holds at any zoom.
    assert screen_px(text["stroke-width"]) >= 3
    assert text["stroke-linejoin"] == "round"  # no gaps at sharp corners of the ring


@pytest.mark.parametrize(
    "selector", [".board-svg .armies", ".board-svg .land-name", ".board-svg .crew"]
)
def test_the_board_text_reads_on_its_halo(selector):
    fill = css_rule(selector)["fill"]
    halo = css_rule(".board-svg text")["stroke"]
    assert contrast(fill, halo) >= SMALL_TEXT, (selector, fill, contrast(fill, halo))


def test_the_army_counts_have_at_least_4_5_to_1():
    # #000 on the #fff halo: 21:1 (the worked value above).
    assert contrast(css_rule(".board-svg .armies")["fill"], "#fff") == pytest.approx(21.0)


@pytest.mark.parametrize("colour", COLOURS)
def test_each_army_colour_sets_its_labels_apart(colour):
    """The label (black glyph in its white ring) stands out from the land under it: against
    every army colour, as drawn (fill-opacity 0.8 over the sea) and hovered (opacity 1), the
    ring or the glyph has at least 3:1 with the fill."""
    land = css_rule(".board-svg .land")
    sea = css_rule(".board-svg .sea")["fill"]
    glyph = css_rule(".board-svg .armies")["fill"]
    halo = css_rule(".board-svg text")["stroke"]
    for opacity in (float(land["fill-opacity"]), 1.0):
        fill = over(colour, sea, opacity)
        assert max(contrast(glyph, fill), contrast(halo, fill)) >= NON_TEXT, (colour, opacity)


def test_the_ten_army_colours_are_css_names_we_know():
    assert set(COLOURS) <= set(NAMED)
    assert COLOURS[:6] == ("red", "blue", "green", "yellow", "black", "pink")  # six players
