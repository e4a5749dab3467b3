"""The player's order of loss, with "keep one land unit" and "keep the capital ship", and a
sanity check of an order.

An ``OrderOfLoss`` lists unit names, first lost first; units left out follow in the resolver's
default order (``setup.default_order_key``: lowest combat value plus support given, then
cheapest). Two options change it:

* ``keep_capital_ship``: the edition's capital ships (``capital_ships``: its two most expensive
  kinds of sea unit, battleship and carrier in every edition shipped) move to the end of the
  order. That is still a fixed order of kinds, so the fast exact path applies.
* ``keep_one_land``: the side's last land unit is lost only after every other unit (the
  attacker keeps a unit that can take the territory; its aircraft die first). Which land unit
  is last depends on the state, so no fixed order of kinds expresses it: ``KeepOneLandSide``
  places hits one at a time and skips the last land unit while anything else can take the hit.
  Undamaged two-hit units still absorb hits before anything is lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from combat.axis_allies.editions import Edition, UnitType
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.rules import ATTACKER
from combat.axis_allies.setup import BattleSetup, SideSetup


@dataclass(frozen=True)
class OrderOfLoss:
    """A side's order of loss: ``units`` first lost first, then the two keep options."""

    units: tuple[str, ...] = ()
    keep_one_land: bool = False
    keep_capital_ship: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "units": list(self.units),
            "keep_one_land": self.keep_one_land,
            "keep_capital_ship": self.keep_capital_ship,
        }


OrderLike = OrderOfLoss | Sequence[str] | None


def parse_order(order: OrderLike, field_name: str) -> OrderOfLoss:
    """An ``OrderOfLoss`` from what a caller passes: None, a list of names, or the object."""
    if order is None:
        return OrderOfLoss()
    if isinstance(order, OrderOfLoss):
        if not all(isinstance(name, str) for name in order.units):
            raise CombatInputError(f"{field_name}.units", "must be a list of unit names")
        for flag in ("keep_one_land", "keep_capital_ship"):
            if not isinstance(getattr(order, flag), bool):
                raise CombatInputError(f"{field_name}.{flag}", "must be true or false")
        return replace(order, units=tuple(order.units))
    if isinstance(order, str) or not isinstance(order, Sequence):
        raise CombatInputError(field_name, "must be a list of unit names, first lost first")
    if not all(isinstance(name, str) for name in order):
        raise CombatInputError(field_name, "must be a list of unit names, first lost first")
    return OrderOfLoss(units=tuple(order))


def capital_ships(edition: Edition) -> frozenset[str]:
    """The edition's capital ships: its two most expensive kinds of sea unit that can be lost.

    Read from the costs, not the names, so a new edition's table needs nothing more; in every
    edition shipped these are the battleship and the carrier.
    """
    sea = sorted(
        (u for u in edition.units.values() if u.kind == "sea" and u.casualty),
        key=lambda u: -u.cost,
    )
    if not sea:
        return frozenset()
    costs = sorted({u.cost for u in sea}, reverse=True)
    floor = costs[min(1, len(costs) - 1)]
    return frozenset(u.name for u in sea if u.cost >= floor)


def apply_order(setup: BattleSetup, role: str, order: OrderOfLoss) -> BattleSetup:
    """``setup`` with ``role``'s side following ``order``'s keep options.

    ``build_setup`` has already applied ``order.units``; capital ships move to the end of the
    order, and ``keep_one_land`` swaps in ``KeepOneLandSide``.
    """
    side = setup.side(role)
    names = list(side.order)
    if order.keep_capital_ship:
        capital = capital_ships(setup.edition)
        names = [n for n in names if n not in capital] + [n for n in names if n in capital]
    if tuple(names) == side.order and not order.keep_one_land:
        return setup
    counts = side.alive(side.initial)
    cls = KeepOneLandSide if order.keep_one_land else SideSetup
    new_side = cls(side.role, side.units, counts, names)
    if role == ATTACKER:
        return replace(setup, attacker=new_side)
    return replace(setup, defender=new_side)


class KeepOneLandSide(SideSetup):
    """A side that loses its last land unit only when nothing else can take the hit."""

    def _loss_groups(self, counts: list[int]) -> list[tuple[int, int]]:
        """The base order, with the last land unit of the order held back to the very end (it
        is lost only when nothing else can take the hit)."""
        groups = super()._loss_groups(counts)
        land = [
            k for k, (i, _n) in enumerate(groups) if self.units[self.slots[i][0]].kind == "land"
        ]
        if not land:
            return groups
        k = land[-1]
        i, n = groups[k]
        kept = groups[:k] + ([(i, n - 1)] if n > 1 else []) + groups[k + 1 :]
        return [*kept, (i, 1)]


def check_order(
    units: Mapping[str, int],
    order: OrderLike,
    *,
    role: str = ATTACKER,
    edition: str = "revised",
    to_take: bool = True,
) -> list[str]:
    """Plain-sentence warnings about an order of loss that makes no sense; [] when it is sound.

    What is checked (a warning, never an error: the player may have a reason):

    * a unit listed before one that fights worse in this role (defence: armor D3 before
      infantry D2; attack: counting the +1 an artillery gives its infantry), or before an
      equally good but cheaper one;
    * attacking to take a territory with land and air units, and an order that loses the last
      land unit before the aircraft (won with only aircraft left, nothing takes it):
      ``keep_one_land`` fixes that;
    * a capital ship lost before a cheaper ship of no greater value (``keep_capital_ship``);
    * units listed that are not in the force, and ``keep_one_land`` on defence (it does
      nothing: the defender holds with any unit).
    """
    from combat.axis_allies.editions import load_edition
    from combat.axis_allies.setup import default_order_key

    ed = load_edition(edition)
    if role not in (ATTACKER, "defender"):
        raise CombatInputError("role", f"unknown side {role!r}", (ATTACKER, "defender"))
    parsed = parse_order(order, "order")
    present = {}
    for name, count in units.items():
        if name not in ed.units:
            raise CombatInputError(f"units.{name}", f"not a unit of the {ed.key} edition", ed.units)
        if isinstance(count, int) and not isinstance(count, bool) and count > 0:
            present[name] = count
    for name in parsed.units:
        if name not in ed.units:
            raise CombatInputError("order", f"{name!r} is not a unit of {ed.key}", ed.units)
    warnings: list[str] = []
    for name in parsed.units:
        if name not in present:
            warnings.append(f"{name} is in the order but not in the force.")
    fighting = {n: c for n, c in present.items() if ed.units[n].casualty}
    key = default_order_key(role, ed.units, fighting)
    default = sorted(fighting, key=key)
    listed = [n for n in dict.fromkeys(parsed.units) if n in fighting]
    effective = listed + [n for n in default if n not in listed]
    if parsed.keep_capital_ship:
        capital = capital_ships(ed)
        effective = [n for n in effective if n not in capital] + [
            n for n in effective if n in capital
        ]
    word = "attacks" if role == ATTACKER else "defends"
    kept = capital_ships(ed) if parsed.keep_capital_ship else frozenset()
    for i, first in enumerate(effective):
        for later in effective[i + 1 :]:
            if later in kept and first not in kept:
                continue  # the player asked for the capital ships last
            v1, c1, _ = key(first)
            v2, c2, _ = key(later)
            if v1 > v2:
                warnings.append(
                    f"{first} ({word} at {v1}) is lost before {later} ({word} at {v2})."
                )
            elif v1 == v2 and c1 > c2:
                warnings.append(
                    f"{first} (costs {c1}) is lost before {later} (costs {c2}), which "
                    f"{word} as well."
                )
    if role == ATTACKER and to_take:
        warnings.extend(_take_warnings(ed.units, fighting, effective, parsed))
    if role != ATTACKER and parsed.keep_one_land:
        warnings.append("keep_one_land does nothing on defence: any surviving unit holds.")
    return warnings


def _take_warnings(
    units: Mapping[str, UnitType],
    present: Mapping[str, int],
    effective: list[str],
    order: OrderOfLoss,
) -> list[str]:
    land = [n for n in effective if units[n].kind == "land"]
    air = [n for n in effective if units[n].is_air]
    if not land or not air or order.keep_one_land:
        return []
    last_land = land[-1]
    after = [n for n in air if effective.index(n) > effective.index(last_land)]
    if not after:
        return []
    return [
        f"the last land unit ({last_land}) is lost before {', '.join(after)}: a battle won "
        "with only aircraft left does not take the territory (use keep_one_land)."
    ]
