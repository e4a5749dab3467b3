"""Draw the web app's icons (``frontend/static/frontend/icons/*.png``) from nothing but numpy.

The icon is an eight-pointed compass star in white inside a gold ring, on the site's ink colour
(#1d2230): a map's compass rose, legible at 32 pixels. Two shapes: "any" (a rounded square,
transparent corners) and "maskable" (full bleed, the star inside the central 80% safe zone that
a launcher's mask never cuts). Each pixel is the mean of 4x4 samples (smooth edges); the PNG is
written by hand (zlib + CRC), so no imaging library is needed. The output is committed; run
this again only to change the drawing:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "frontend" / "static" / "frontend" / "icons"
INK = (0x1D, 0x22, 0x30)
GOLD = (0xE0, 0xB0, 0x3A)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4
#: (file name, size in pixels, maskable)
ICONS = [
    ("icon-32.png", 32, False),
    ("icon-180.png", 180, False),
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-192.png", 192, True),
    ("maskable-512.png", 512, True),
]


def star_mask(x: np.ndarray, y: np.ndarray, outer: float, inner: float, points: int) -> np.ndarray:
    """Inside a star of ``points`` tips (radius ``outer``, notches at ``inner``), centred at 0,
    first tip straight up: the radius allowed at each angle, interpolated tip to notch."""
    angle = np.arctan2(x, -y) % (2 * math.pi)
    step = math.pi / points
    phase = (angle % (2 * step)) / step  # 0 at a tip, 1 at a notch, 2 at the next tip
    t = np.where(phase <= 1, phase, 2 - phase)
    # Straight edges between a tip and a notch: the polar line through both points.
    tip, notch = np.array([0.0, outer]), np.array([math.sin(step) * inner, math.cos(step) * inner])
    edge = notch - tip
    normal = np.array([edge[1], -edge[0]])
    normal /= np.linalg.norm(normal)
    distance = abs(float(tip @ normal))
    local = t * step
    allowed = distance / np.abs(np.sin(local) * normal[0] + np.cos(local) * normal[1])
    return np.hypot(x, y) <= allowed


def draw(size: int, maskable: bool) -> np.ndarray:
    """RGBA pixels of one icon."""
    n = size * SAMPLES
    coords = (np.arange(n) + 0.5) / n * 2 - 1  # -1..1 across the icon
    x, y = np.meshgrid(coords, coords)
    scale = 0.8 if maskable else 0.92  # maskable: everything inside the safe zone
    r = np.hypot(x, y) / scale
    rgb = np.zeros((n, n, 3))
    alpha = np.ones((n, n))
    rgb[:] = INK
    if not maskable:  # a rounded square; the corners transparent
        corner = 0.35
        qx, qy = np.maximum(np.abs(x) - (1 - corner), 0), np.maximum(np.abs(y) - (1 - corner), 0)
        alpha = (np.hypot(qx, qy) <= corner).astype(float)
    ring = (r >= 0.78) & (r <= 0.9)
    rgb[ring] = GOLD
    big = star_mask(x / scale, y / scale, 0.72, 0.2, 4)
    small = star_mask(
        (x * math.cos(math.pi / 4) - y * math.sin(math.pi / 4)) / scale,
        (x * math.sin(math.pi / 4) + y * math.cos(math.pi / 4)) / scale,
        0.45,
        0.14,
        4,
    )
    rgb[small] = GOLD
    rgb[big] = WHITE
    rgb[r <= 0.07] = INK  # the rose's pin
    image = np.concatenate([rgb, alpha[..., None] * 255], axis=2)
    image = image.reshape(size, SAMPLES, size, SAMPLES, 4).mean(axis=(1, 3))
    return np.clip(np.rint(image), 0, 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    """An 8-bit RGBA PNG of ``pixels`` (height x width x 4)."""
    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in ICONS:
        (OUT / name).write_bytes(png(draw(size, maskable)))
        print(f"{OUT / name}: {size}x{size}{' maskable' if maskable else ''}")


if __name__ == "__main__":
    main()
