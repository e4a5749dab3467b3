"""The AI of Nautical-but-Nice Fast Risk: a pure core beside the engine (design.md section 6).

Pure like ``risk.rules``: the standard library, ``combat``, ``risk.rules`` and numpy, no
framework. ``StrategicBot(rng, level)`` implements ``risk.rules.bots.Bot`` at the levels in
``LEVELS``; ``GreedyBot(rng)`` is the simple heuristic player it is measured against
(``bench/ai_strength.py``).
"""

from risk.ai.greedy import GreedyBot
from risk.ai.strategic import LEVELS, StrategicBot

__all__ = ["LEVELS", "GreedyBot", "StrategicBot"]
