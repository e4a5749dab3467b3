"""The questions A&A players ask of a battle, answered exactly.

Pure Python over the exact resolver (``battle_odds`` and the round code of ``engine``); every
answer comes from the Markov chain, nothing is sampled, and every function charges its work to
the ``combat.budget`` in force and refuses a battle past the exact solver's limit with a
``CombatInputError`` naming the field. Any edition ``load_edition`` knows works: units are
read by their table fields (kind, cost, hits), never by name.

Public API (results are frozen dataclasses with ``to_dict()``):

* ``take_and_hold(attacker, defender, *, rules="dice", edition="revised", attacker_order=None,
  defender_order=None, amphibious=False, techs=(), options=None, policy=None) -> TakeOdds``:
  the chance the attacker *takes* the territory (wins with a land unit left; a sea battle:
  clears the zone), apart from "wins", the chance it wins with only aircraft left, and the
  aircraft expected to need a landing place.
* ``retreat_policy_odds(attacker, defender, *, policy=RetreatPolicy(...), ...) -> PolicyOdds``:
  the exact end distribution (win, lose, draw, stalemate, retreat, with survivors) when the
  attacker retreats after round N, under a chance to win p, under k units, or strafes
  (``policies`` defines each precisely).
* ``ipc_swing(attacker, defender, ..., policy=None) -> SwingDistribution``: the distribution
  of IPC value lost per side, means, standard deviations and the expected TUV swing.
* ``waves(defender, [wave, wave, ...], ...) -> WavesOdds``: attacks one after another on the
  survivors of the previous ones, exact by conditioning on each defender state.
* ``cheapest_force(defender, available, target=0.9, *, measure="take", ...) -> CheapestForce``:
  the cheapest attacking force (IPC, then fewest units) from the units available that reaches
  the target chance.
* ``check_order(units, order, *, role="attacker", edition="revised", to_take=True)
  -> list[str]``: plain-sentence warnings about an order of loss.

Orders of loss (``attacker_order`` / ``defender_order``) are a list of unit names, first lost
first, or an ``OrderOfLoss(units, keep_one_land=..., keep_capital_ship=...)``.

Naming: the keyword is ``rules`` (as ``battle_odds`` and ``fight`` spell it), and each side has
its own order keyword, as in ``battle_odds``.
"""

from combat.axis_allies.questions.cheapest import CheapestForce, cheapest_force
from combat.axis_allies.questions.orders import OrderOfLoss, capital_ships, check_order
from combat.axis_allies.questions.policies import (
    PolicyOdds,
    RetreatPolicy,
    ipc_swing,
    retreat_policy_odds,
    take_and_hold,
)
from combat.axis_allies.questions.results import End, SwingDistribution, TakeOdds
from combat.axis_allies.questions.waves import Wave, WaveResult, WavesOdds, waves

__all__ = [
    "CheapestForce",
    "End",
    "OrderOfLoss",
    "PolicyOdds",
    "RetreatPolicy",
    "SwingDistribution",
    "TakeOdds",
    "Wave",
    "WaveResult",
    "WavesOdds",
    "capital_ships",
    "cheapest_force",
    "check_order",
    "ipc_swing",
    "retreat_policy_odds",
    "take_and_hold",
    "waves",
]
