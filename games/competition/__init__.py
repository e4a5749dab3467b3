"""Tournament and rating math: pure functions, no Django, no other app.

Ratings: ``glicko2_update`` (one-to-one games) and ``openskill_update`` (multiplayer tables,
Plackett-Luce), with ``inactive_deviation`` (lichess's RD growth over idle days) and
``is_provisional``. Pairings: ``round_robin`` (FIDE Berger tables), ``swiss_pairings`` (Dutch
system via caissify-pairings), ``knockout_bracket`` (seeded, byes to the top seeds) and
``seat_tables`` (multiplayer tables avoiding earlier meetings). Scoring: ``table_points`` and
``standings`` (points by place, territories as tie-break), ``buchholz`` and
``sonneborn_berger``; ``duel_standings``, ``crosstable`` and the knockout's progress
(``games.competition.duels``); ``duel_round`` / ``table_round`` / ``total_rounds``, each
format's rule in one place (``games.competition.formats``). The tournament layer loads
results, calls these and saves the answers.
"""

from games.competition.berger import round_robin
from games.competition.duels import (
    CrossCell,
    DuelStanding,
    crosstable,
    duel_standings,
    knockout_next_round,
    knockout_winner,
)
from games.competition.formats import FORMATS, duel_round, table_round, total_rounds
from games.competition.glicko2 import glicko2_update
from games.competition.inactivity import inactive_deviation, is_provisional
from games.competition.knockout import knockout_bracket
from games.competition.openskill_rating import openskill_table, openskill_update
from games.competition.points import DEFAULT_PLACE_POINTS, Standing, standings, table_points
from games.competition.seating import seat_tables, table_sizes
from games.competition.swiss import SwissPairingError, swiss_pairings
from games.competition.tiebreaks import buchholz, scores, sonneborn_berger

__all__ = [
    "DEFAULT_PLACE_POINTS",
    "FORMATS",
    "CrossCell",
    "DuelStanding",
    "Standing",
    "SwissPairingError",
    "buchholz",
    "crosstable",
    "duel_round",
    "duel_standings",
    "glicko2_update",
    "inactive_deviation",
    "is_provisional",
    "knockout_bracket",
    "knockout_next_round",
    "knockout_winner",
    "openskill_table",
    "openskill_update",
    "round_robin",
    "scores",
    "seat_tables",
    "sonneborn_berger",
    "standings",
    "swiss_pairings",
    "table_points",
    "table_round",
    "table_sizes",
    "total_rounds",
]
