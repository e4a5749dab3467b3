"""The seed a game's dice run on: the server's secret seed mixed with the players' client seeds.

design.md section 2: the server commits to ``server_seed`` (publishes its SHA-256) when the game
is created, before anyone joins; players may add a client seed when they join. The engine's seed
is then ``HMAC-SHA256(key=server_seed, msg=client seeds joined by "|" in seat order)`` (hex), or
the server seed itself when nobody gave one. The server cannot steer the dice (it committed
first) and no player can (the server seed is secret until the end). ``verify_game`` recomputes it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence


def engine_seed(server_seed: str, client_seeds: Sequence[str]) -> str:
    """The seed handed to ``risk.rules.new_game``."""
    mixed = [s for s in client_seeds if s]
    if not mixed:
        return server_seed
    message = "|".join(client_seeds).encode()
    return hmac.new(server_seed.encode(), message, hashlib.sha256).hexdigest()
