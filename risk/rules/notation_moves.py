"""``legal_moves_text(state, player)``: what a player may do now, as lines of move notation.

For the "your turn" mail, so a player can answer it by reply: one line per ``ActionSpec`` that
``legal_actions`` offers, the notation's form with its choices spelt out (``place <1-5> <territory>
territories: Alaska, ...``), so a person can type a reply. The notation itself is
``risk.rules.notation`` (which re-exports this function). A list longer than ``LIST_CAP`` shows its
first ``LIST_CAP`` items and counts the rest ("..., and 12 more"): a mail line stays readable, and
the board on the site has the whole list; sailing lists the nearest stations first (with their boat
lengths), so the cut drops the far ones, and a transfer source lists the first ``DESTINATIONS``
territories it reaches.
Hand cards are numbered from 1 as ``turn in 2 9 wild`` counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from risk.rules.actions import ActionSpec
from risk.rules.engine import legal_actions
from risk.rules.state import COMMITTED, FLANKING, NORMAL, REVEAL_ALL, WILD, GameState

__all__ = ["LIST_CAP", "legal_moves_text"]

#: Longest list of choices spelt out on one line; the rest are counted ("... and 12 more").
LIST_CAP = 12


#: Destinations listed for each transfer source (a source reaches every territory of its group).
DESTINATIONS = 6


def _listed(items: Sequence[Any], cap: int = LIST_CAP) -> str:
    shown = [str(i) for i in items[:cap]]
    more = len(items) - len(shown)
    return ", ".join(shown) + (f", ... and {more} more" if more > 0 else "")


def legal_moves_text(state: GameState, player: str) -> list[str]:
    """One line per ``ActionSpec`` that ``legal_actions`` offers ``player``: the notation with its
    choices spelt out, so a person can type a reply. A list longer than ``LIST_CAP`` shows its
    first ``LIST_CAP`` items and counts the rest (the board has them all)."""
    return [
        _SPEC_TEXT.get(spec.type, _generic)(state, spec) for spec in legal_actions(state, player)
    ]


def _generic(state: GameState, spec: ActionSpec) -> str:
    return spec.type.replace("_", " ")


def _hand_text(cards: Sequence[str]) -> str:
    return ", ".join(f"{i} {c}" for i, c in enumerate(cards, 1))


def _arrange_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    ship = " [ship <station>]" if o["ship_stations"] else ""
    text = (f"arrange <territory> <armies>, ... factory <territory>{ship}   {o['armies']} armies, "
            f"at least {o['min_each']} on each of: {_listed(o['territories'])}")  # fmt: skip
    if o["ship_stations"]:
        text += f"; ship stations: {_listed(o['ship_stations'])}"
    return text


def _turn_in_spec(state: GameState, s: ActionSpec) -> str:
    seat = state.seat(state.turn.seat) if state.turn is not None else None
    hand = _hand_text(seat.risk_cards) if seat is not None else ""
    sets = "; ".join(", ".join(cards) for cards in s.options["sets"][:LIST_CAP])
    return (f"turn in <card> <card> <card> [for {'|'.join(s.options['rewards'])}]   "
            f"hand: {hand}; sets: {sets}")  # fmt: skip


def _attack_spec(state: GameState, s: ActionSpec) -> str:
    targets: dict[str, list[str]] = s.options["targets"]
    listed = [f"{t} from {'/'.join(src)}" for t, src in sorted(targets.items())]
    flanking = sorted(t for t, modes in s.options["modes"].items() if FLANKING in modes)
    text = f"attack <from> > <to> [committed] <armies>   targets: {_listed(listed)}"
    text += (
        f"; most armies: {_listed([_room_text(src, r) for src, r in s.options['room'].items()])}"
    )
    if flanking:
        text += f"; flank <from> <n> + <from> <n> > <to> on: {_listed(flanking)}"
    return text


def _room_text(source: str, room: dict[str, list[int]]) -> str:
    """``Alaska 8``, or ``S3 2 (3 committed)`` where a committed attack may send more."""
    most = room[NORMAL][1]
    committed = room.get(COMMITTED, [0, most])[1]
    return f"{source} {most}" + (f" ({committed} committed)" if committed != most else "")


def _naval_spec(state: GameState, s: ActionSpec) -> str:
    pairs = [f"{ship} > {'/'.join(ts)}" for fleet in s.options["defenders"].values()
             for ship, ts in sorted(fleet.items())]  # fmt: skip
    modes = "|".join(s.options["modes"])
    forms = f"naval <ship> [+ <ship>] > <enemy> | naval <ship> on <enemy>, ... [{modes} <armies>]"
    return f"{forms}   {_listed(pairs)}"


def _roll_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    parts = ["roll"]
    if o["max_add"]:
        parts.append(f"[add {_range(1, o['max_add'])}]")
    if o["dice"]:
        parts.append(f"[<{o['dice'][0]}-{o['dice'][-1]}> dice]")
    parts.append("[until decided | until <n> left]")
    return " ".join(parts)


def _move_in_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    if "min" in o:
        return f"move in {_range(o['min'], o['max'])}"
    extra = [f"{src} up to {n}" for src, n in o["extra_from"].items() if n > 0]
    more = f"   extra from: {_listed(extra)}" if extra else ""
    return f"move in 0 [or move in <n> from <territory>]   {o['moving']} move in{more}"


def _mobilize_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    choices = []
    if o["cards"]:
        choices.append(f"cards you may reveal: {_listed(o['cards'])}")
    if o["wild_dice"] or WILD in o["cards"]:
        choices.append(f"wild dice: {o['wild_dice']} (and one a wild card revealed), "
                       f"to any of: {_listed(o['territories'])}")  # fmt: skip
    if not choices:
        return "mobilize   (nothing to reveal, no wild dice)"
    return f"mobilize [reveal <card> ...] [to <territory> ...]   {'; '.join(choices)}"


def _support_spec(state: GameState, s: ActionSpec) -> str:
    behind = [f"{ship} > {'/'.join(t)}" for ship, t in s.options["behind"].items()]
    forms = "support none | support <ship> [+ <ship>] | support <ship> > <ship>, ..."
    return f"{forms}   {_listed(behind)}"


def _prize_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    boarders = [f"{b} up to {n}" for b, n in sorted(o["boarders"].items())]
    text = f"sink <ship> | board <ship> from <your ship> <armies>   prizes: {_listed(o['ships'])}"
    return text + (f"; boarders: {_listed(boarders)}" if boarders else "")


def _range(least: int, most: int) -> str:
    """``<1-5>``, or ``<3>`` when there is one choice."""
    return f"<{least}-{most}>" if least != most else f"<{least}>"


def _sail_spec(state: GameState, s: ActionSpec) -> str:
    """Stations nearest first, with the boat lengths to each (the cap keeps the near ones)."""
    near = sorted(s.options["stations"].items(), key=lambda kv: (kv[1], kv[0]))
    listed = [f"{station} ({lengths})" for station, lengths in near]
    return f"sail {s.options['ship']} to <station>   {_listed(listed)}"


def _embark_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    room = [f"{t} up to {o['max'][t]}" for t in o["territories"]]
    return f"embark {o['ship']} <armies> from <territory>   {_listed(room)}"


def _disembark_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    return (f"disembark {o['ship']} {_range(1, o['max'])} to <territory>   "
            f"{_listed(o['territories'])}")  # fmt: skip


def _transfer_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    room = []
    for src in o["sources"]:
        reach = o["destinations"][src]
        more = f"/+{len(reach) - DESTINATIONS} more" if len(reach) > DESTINATIONS else ""
        room.append(f"{src} (up to {o['max'][src]}, to {'/'.join(reach[:DESTINATIONS])}{more})")
    return f"transfer <from> > <to> <armies>   from: {_listed(room)}"


def _discard_spec(state: GameState, s: ActionSpec) -> str:
    count = s.options["count"]
    return f"discard <{count} card{'s' if count != 1 else ''}>   {' '.join(s.options['cards'])}"


def _poker_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    forms = {"choose": "choose <card> ...", "draw": "draw [<card> ...] [stash <card> ...]",
             "bet": "bet 1", "raise": "raise 1"}  # fmt: skip
    text = " | ".join(forms.get(m, m) for m in o["moves"])
    if "choose" in o:
        c = o["choose"]
        text += f"   choose {c['min']}-{c['max']} of your stash: {' '.join(c['stash'])}"
    if "draw" in o:
        d = o["draw"]
        text += f"   hand: {' '.join(d['hand'])}; stash: {' '.join(d['stash']) or 'none'}"
        if d.get("keep_one"):  # RULES.md A12: a stash card stays in the hand
            text += f"; keep one of {' '.join(d['keep'])} unless replaced from the stash"
    return text


def _place_spec(state: GameState, s: ActionSpec) -> str:
    o = s.options
    armies = _range(o["min"], o["max"])
    return f"place {armies} <territory>   territories: {_listed(o['territories'])}"


def _end_turn_spec(state: GameState, s: ActionSpec) -> str:
    allies = s.options["allies"]
    return "end turn" + (f" [declare <ally>]   allies: {_listed(allies)}" if allies else "")


def _prefer_spec(state: GameState, s: ActionSpec) -> str:
    now = s.options["now"]
    reveal = "all" if now["reveal"] == REVEAL_ALL else "ask"
    return (f"prefer [defence 1|2] [reveal ask|all]   "
            f"now: defence {now['defence_dice']}, reveal {reveal}")  # fmt: skip


def _choices(template: str, key: str) -> Callable[[GameState, ActionSpec], str]:
    """A spec line: ``template`` with ``{}`` filled by the spec's list under ``key``."""

    def text(state: GameState, s: ActionSpec) -> str:
        value = s.options[key]
        return template.format(_listed(value) if isinstance(value, list) else value)

    return text


def _fixed(text: str) -> Callable[[GameState, ActionSpec], str]:
    return lambda state, s: text


_SPEC_TEXT: dict[str, Callable[[GameState, ActionSpec], str]] = {
    "arrange": _arrange_spec,
    "turn_in": _turn_in_spec,
    "place": _place_spec,
    "place_ship": _choices("place ship <station>   {}", "stations"),
    "attack": _attack_spec,
    "naval_attack": _naval_spec,
    "roll": _roll_spec,
    "retreat": _fixed("retreat"),
    "move_in": _move_in_spec,
    "mobilize": _mobilize_spec,
    "join_defence": _support_spec,
    "prize": _prize_spec,
    "cruise": _choices("cruise <ship>   {}", "ships"),
    "sail": _sail_spec,
    "embark": _embark_spec,
    "disembark": _disembark_spec,
    "end_cruise": _choices("end cruise {}", "ship"),
    "end_campaign": _fixed("end campaign"),
    "place_factory": _choices("place factory <territory>   {}", "territories"),
    "transfer": _transfer_spec,
    "discard": _discard_spec,
    "end_turn": _end_turn_spec,
    "challenge": _fixed("challenge | let pass"),
    "answer": _fixed("play poker | demur"),
    "poker": _poker_spec,
    "join": _choices("join <ally>   {}", "allies"),
    "leave": _fixed("leave"),
    "concede": _fixed("concede"),
    "vote_draw": _fixed("vote draw yes | vote draw no"),
    "prefer": _prefer_spec,
}
