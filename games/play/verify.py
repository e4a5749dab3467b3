"""Checking a finished game's dice and log: the replay behind ``manage.py verify_game``.

design.md section 2. Once a game is over its server seed is revealed, and anyone can check that
the server played fair:

1. ``SHA-256(server_seed)`` equals the ``seed_commitment`` published when the game was created;
2. the engine's seed is ``games.play.seeds.engine_seed(server_seed, client seeds)``, the
   client seeds taken from the seats the game started with, in seat order;
3. replaying from scratch (``risk.rules.new_game`` with that seed, the players in seat order and
   the game's options, then every logged action in sequence order, each with
   ``risk.rules.game_dice`` -- ``SeededDice(seed, "action:<n>")``) makes exactly the logged dice
   context, rolls (counter, sides, value) and events, and every logged roll re-derives on its
   own with ``combat.dice.verify`` (a roll-on action's rolls all run in its one context, one
   counter after another); a forced step's note (the server's, ``risk.rules.forced``) is not
   the engine's and is left out, but the step must be forced in the replayed state;
4. the replay ends in the stored final state (the game's snapshot row), its piece rows
   (holdings, ships, cards: ``games.models.pieces``) are the replayed state's, and its winner
   and ranking are the game's result.

The checking (``verify_replay``) is plain Python over a ``ReplayData`` of dicts and lists, so
the same code checks the rows of this server (``game_verify``) and a downloaded
``GET /api/games/{id}/replay`` body (``replay_data_from_json``). A replay body has no board rows:
its final state is not compared (the report says so); the result still is, and the last entry's
events were already checked against the log.

The first difference stops the check and is reported with the log sequence it occurred at.
A game that is not over is refused: its seed is still secret.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from combat.dice import commitment_of, derive_roll
from combat.dice import verify as verify_rolls
from games.models import ActionLog, Game
from games.play import pieces, snapshots
from games.play.seeds import engine_seed
from games.web.exceptions import ConflictError
from risk.rules import (
    IllegalAction,
    InvalidAction,
    action_from_dict,
    apply,
    game_dice,
    new_game,
    to_dict,
)
from risk.rules.forced import FORCED_NOTE, forced_action
from risk.rules.pieces import Pieces, pieces_of
from risk.rules.upcast import stored_options


@dataclass(frozen=True)
class Entry:
    """One log entry as the checker needs it (from a row or from a replay body)."""

    sequence: int
    action: dict[str, Any]
    events: list[Any]
    context: str
    rolls: list[Any]


@dataclass
class ReplayData:
    """Everything a check needs; ``final_state`` is None when there is no board to compare."""

    game_id: int | None
    server_seed: str
    seed_commitment: str
    client_seeds: list[str]
    players: list[str]
    options: dict[str, Any]
    entries: list[Entry]
    result: dict[str, Any] | None = None
    final_state: dict[str, Any] | None = None
    #: The stored piece rows (``games.play.pieces.rows_of``), compared with the replayed
    #: state's; None when there are none to compare (a replay file).
    pieces: Pieces | None = None


def _server_notes(events: list[Any]) -> tuple[list[Any], bool]:
    """The engine's events of an entry, without the server's leading forced-step note (the
    driver writes it before them, ``risk.rules.forced``), and whether there was one."""
    lead = 0
    while lead < len(events) and _is_note(events[lead]):
        lead += 1
    return list(events[lead:]), lead > 0


def _is_note(event: Any) -> bool:
    return isinstance(event, dict) and event.get("type") == FORCED_NOTE


@dataclass(frozen=True)
class Mismatch:
    """The first difference found: at log entry ``sequence`` (None: before any entry)."""

    sequence: int | None
    what: str

    def __str__(self) -> str:
        where = f"entry {self.sequence}" if self.sequence is not None else "the seeds"
        return f"mismatch at {where}: {self.what}"


@dataclass
class VerifyReport:
    """What a check did and found; ``ok`` when nothing differed."""

    game_id: int | None
    engine_seed: str = ""
    entries: int = 0  # log entries replayed
    rolls: int = 0  # logged rolls re-derived from the seed
    final_state_equal: bool | None = None  # None: not compared (no board rows)
    pieces_equal: bool | None = None  # None: not compared (no piece rows)
    mismatch: Mismatch | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def lines(self) -> list[str]:
        """The human-readable report, a few lines."""
        name = f"game {self.game_id}" if self.game_id is not None else "replay"
        out = [f"{name}: {self.entries} entries replayed, {self.rolls} rolls checked"]
        if self.final_state_equal is True:
            out.append("final state equal to the stored board")
        if self.pieces_equal is True:
            out.append("piece rows (holdings, ships, cards) equal to the final state's")
        out += self.notes
        out.append(f"FAILED: {self.mismatch}" if self.mismatch is not None else "OK")
        return out


# --- the sources of a check -----------------------------------------------------------------------


def game_verify(game: Game) -> VerifyReport:
    """Check a finished game of this server from its rows; ``ConflictError`` while it runs."""
    return verify_replay(game_replay_data(game))


def game_replay_data(game: Game, *, with_final_state: bool = True) -> ReplayData:
    """A finished game's rows as ``ReplayData`` (also what the board replay replays);
    ``ConflictError`` ``not_over`` while it runs: its seed stays secret until the end.
    ``with_final_state=False`` skips loading the stored board (only a check compares it)."""
    if game.status != Game.Status.FINISHED:
        raise ConflictError(
            f"game {game.pk} is {game.status}: its seed stays secret until the game is over",
            code="not_over",
        )
    seats = list(game.seats.filter(position__lt=game.seat_count).order_by("position"))
    entries = [
        Entry(e.sequence, e.action, e.events, e.context, e.rolls)
        for e in ActionLog.objects.filter(game=game).order_by("sequence")
    ]
    final, rows = None, None
    if with_final_state:
        started = snapshots.load_if_started(game)
        final = to_dict(started) if started is not None else None
        rows = pieces.rows_of(game) if started is not None else None
    return ReplayData(
        game_id=game.pk,
        server_seed=game.server_seed,
        seed_commitment=game.seed_commitment,
        client_seeds=[s.client_seed for s in seats],
        players=[s.player for s in seats],
        options=dict(game.options),
        entries=entries,
        result=dict(game.result) if game.result else None,
        final_state=final,
        pieces=rows,
    )


class ReplayFormatError(ValueError):
    """A replay body that lacks what a check needs."""


def replay_data_from_json(body: Mapping[str, Any]) -> ReplayData:
    """A ``GET /api/games/{id}/replay`` body as ``ReplayData`` (no final state to compare)."""
    try:
        entries = [
            Entry(int(e["sequence"]), e["action"], e["events"], e["context"], e["rolls"])
            for e in body["entries"]
        ]
        return ReplayData(
            game_id=body.get("id"),
            server_seed=str(body["server_seed"]),
            seed_commitment=str(body["seed_commitment"]),
            client_seeds=[str(s) for s in body["client_seeds"]],
            players=[str(p) for p in body["players"]],
            options=dict(body.get("options") or {}),
            entries=entries,
            result=body.get("result") or None,
            final_state=None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayFormatError(f"not a replay body: {exc!r} missing or malformed") from exc


# --- the check ----------------------------------------------------------------------------------


def verify_replay(data: ReplayData) -> VerifyReport:
    """Replay ``data`` from its seeds and compare everything; the first difference is reported."""
    report = VerifyReport(game_id=data.game_id)
    report.mismatch = _check(data, report)
    return report


def _check(data: ReplayData, report: VerifyReport) -> Mismatch | None:
    commitment = commitment_of(data.server_seed)
    if commitment != data.seed_commitment.lower():
        return Mismatch(
            None,
            f"SHA-256 of the server seed is {commitment}, the published commitment is "
            f"{data.seed_commitment}",
        )
    seed = engine_seed(data.server_seed, data.client_seeds)
    report.engine_seed = seed
    seed_commitment = commitment_of(seed)
    try:
        state = new_game(data.players, seed=seed, options=stored_options(data.options))
    except (TypeError, ValueError) as exc:  # IllegalAction and MapError are ValueErrors
        return Mismatch(None, f"the game cannot be set up again: {exc}")
    for n, entry in enumerate(data.entries):
        if entry.sequence != n + 1:
            return Mismatch(entry.sequence, f"expected log entry {n + 1} here (a gap or reorder)")
        try:
            action = action_from_dict(entry.action)
        except InvalidAction as exc:
            return Mismatch(entry.sequence, f"the logged action is not an engine action: {exc}")
        dice = game_dice(state)
        if dice.context != entry.context:
            return Mismatch(
                entry.sequence,
                f"dice context: logged {entry.context!r}, the replay uses {dice.context!r}",
            )
        if not verify_rolls(seed, seed_commitment, entry.context, _roll_dicts(entry.rolls)):
            return Mismatch(entry.sequence, _bad_roll(seed, entry))
        report.rolls += len(entry.rolls)
        logged, noted = _server_notes(entry.events)
        if noted and forced_action(state, str(entry.action.get("player"))) != action:
            return Mismatch(entry.sequence, "a forced-step note on a step the rules did not force")
        try:
            state, events = apply(state, action, dice)
        except IllegalAction as exc:
            return Mismatch(entry.sequence, f"the replay refuses the logged action: {exc}")
        except Exception as exc:  # a forged action the engine trips on is a mismatch too
            return Mismatch(entry.sequence, f"the replay fails on the logged action: {exc!r}")
        rolls = [r.as_dict() for r in dice.log]
        if rolls != _roll_dicts(entry.rolls):
            return Mismatch(
                entry.sequence,
                f"rolls: logged {_short(entry.rolls)}, the replay rolled {_short(rolls)}",
            )
        replayed = _plain([e.to_dict() for e in events])
        if replayed != _plain(logged):
            return Mismatch(
                entry.sequence,
                f"events differ at {_first_difference(_plain(logged), replayed, 'events')}",
            )
        report.entries += 1
    if data.result is not None and state.over:
        result = {"winner": state.winner, "ranking": list(state.ranking)}
        claimed = {key: data.result.get(key) for key in result}
        if _plain(result) != _plain(claimed):
            return Mismatch(
                data.entries[-1].sequence if data.entries else None,
                f"result: the game says {claimed}, the replay ends with {result}",
            )
    elif not state.over:
        report.notes.append("note: the replayed game is not over (ended from outside the rules)")
    if data.final_state is None:
        report.notes.append(
            "note: no board rows (a replay file): the final state was not compared; the result "
            "and every entry's events were"
        )
        return None
    where = _first_difference(_plain(data.final_state), _plain(to_dict(state)), "state")
    if where is not None:
        report.final_state_equal = False
        last = data.entries[-1].sequence if data.entries else None
        return Mismatch(last, f"the final state differs from the stored board at {where}")
    report.final_state_equal = True
    if data.pieces is not None:
        report.pieces_equal = False
        where = _pieces_difference(data.pieces, pieces_of(state))
        if where is not None:
            last = data.entries[-1].sequence if data.entries else None
            return Mismatch(last, f"the piece rows differ from the final state: {where}")
        report.pieces_equal = True
    return None


def _pieces_difference(stored: Pieces, replayed: Pieces) -> str | None:
    """The first row that differs between the stored rows and the replayed state's, named."""
    tables: list[tuple[str, Sequence[Any], Sequence[Any]]] = [
        ("holdings", stored.holdings, replayed.holdings),
        ("ships", stored.ships, replayed.ships),
        ("cards", stored.cards, replayed.cards),
    ]
    for table, rows, expected in tables:
        for found, wanted in zip(rows, expected, strict=False):
            if found != wanted:
                was, now = _short(list(found), 120), _short(list(wanted), 120)
                return f"{table}: stored {was}, replayed {now}"
        if len(rows) != len(expected):
            return f"{table}: {len(rows)} rows stored, {len(expected)} in the replayed state"
    return None


def _roll_dicts(rolls: Sequence[Any]) -> list[dict[str, int]]:
    try:
        return [
            {"counter": int(r["counter"]), "sides": int(r["sides"]), "value": int(r["value"])}
            for r in rolls
        ]
    except (KeyError, TypeError, ValueError):
        return [{"counter": -1, "sides": 0, "value": 0}]  # malformed: fails every comparison


def _bad_roll(seed: str, entry: Entry) -> str:
    """Which logged roll does not re-derive from the seed, for the report."""
    for roll in _roll_dicts(entry.rolls):
        counter, sides, value = roll["counter"], roll["sides"], roll["value"]
        if counter < 0 or sides < 2:
            return f"roll {roll} is malformed"
        derived = derive_roll(seed, entry.context, counter, sides)
        if derived != value:
            return (
                f"roll {counter} (d{sides}) of {entry.context!r}: logged {value}, the seed "
                f"gives {derived}"
            )
    return "the logged rolls do not re-derive from the seed"


def _plain(value: Any) -> Any:
    """JSON-shaped (tuples as lists, keys as strings), as the log stores it."""
    return json.loads(json.dumps(value, sort_keys=True))


def _short(value: Any, limit: int = 200) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _first_difference(expected: Any, found: Any, path: str) -> str | None:
    """The path of the first place ``found`` differs from ``expected`` and both values there."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found), key=str):
            if key not in found:
                return f"{path}.{key}: missing from the replay"
            if key not in expected:
                return f"{path}.{key}: only in the replay"
            inner = _first_difference(expected[key], found[key], f"{path}.{key}")
            if inner is not None:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            inner = _first_difference(a, b, f"{path}[{i}]")
            if inner is not None:
                return inner
        if len(expected) != len(found):
            return f"{path}: {len(expected)} items logged/stored, {len(found)} replayed"
        return None
    if expected != found:
        return f"{path}: logged/stored {_short(expected, 80)}, replayed {_short(found, 80)}"
    return None
