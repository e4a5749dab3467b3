"""The shared vocabulary (risk.rules.vocabulary): refusal codes, decision kinds, attack modes.

Every ``IllegalAction`` the engine raises carries a ``Refusal`` member, every pending decision a
``DecisionKind`` member, and no raise site in risk/rules names its code as a bare string. The
members are their strings, so JSON and comparisons with stored strings are unchanged.
"""

from __future__ import annotations

import ast
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from risk.rules import (
    IllegalAction,
    InvalidAction,
    action_from_dict,
    apply,
    game_dice,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.actions import Action, EndTurn
from risk.rules.state import MODES, GameState
from risk.rules.vocabulary import AttackMode, DecisionKind, Refusal

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "risk" / "rules"
POKER = ROOT / "combat" / "poker"
SEEDS = [(seed, 2 + seed % 4) for seed in range(4)]
ACTION_CAP = 600


def _junk(value: Any) -> list[Any]:
    """Values the rules should refuse in place of ``value`` (of its JSON type, wrong content)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [-1, 0, 99]
    if isinstance(value, str):
        return ["nowhere", ""]
    if isinstance(value, list):
        return [[], value + value]
    return []


def _variants(action: Action, state: GameState, rng: random.Random) -> list[Action]:
    """The action with one field spoiled, or taken by someone else, as the server would parse
    it from JSON (``action_from_dict``; what it refuses as malformed never reaches the rules)."""
    wire = json.loads(json.dumps(action.to_dict()))
    spoiled = [{**wire, name: junk} for name, value in wire.items() if name != "type"
               for junk in _junk(value)]  # fmt: skip
    others = [s.actor for s in state.seats if s.actor != action.player]
    if others:
        spoiled.append({**wire, "player": rng.choice(others)})
    out: list[Action] = []
    for data in spoiled:
        with contextlib.suppress(InvalidAction):
            out.append(action_from_dict(data))
    return out


def _sweep(seed: int, players: int) -> tuple[list[IllegalAction], list[DecisionKind]]:
    state = new_game([f"p{i}" for i in range(players)], seed=f"vocabulary-{seed}")
    rng = random.Random(seed)
    refusals: list[IllegalAction] = []
    kinds: list[Any] = []
    for step in range(ACTION_CAP):
        decisions = pending_decisions(state)
        kinds += [d.kind for d in decisions]
        if state.over:
            break
        action = sample_action(state, decisions[0].player, rng)
        if step % 3 == 0:
            for bad in _variants(action, state, rng):
                try:
                    apply(state, bad, game_dice(state))
                except IllegalAction as exc:
                    refusals.append(exc)
        state, _ = apply(state, action, game_dice(state))
    return refusals, kinds


@pytest.mark.parametrize(("seed", "players"), SEEDS)
def test_every_refusal_in_random_play_is_a_refusal_member(seed: int, players: int) -> None:
    refusals, _ = _sweep(seed, players)
    assert len(refusals) > 50
    for exc in refusals:
        assert isinstance(exc.code, Refusal), (exc.code, exc.reason)
        assert str(exc).startswith(f"{exc.code.value}: ")  # the message reads as before
    assert len({exc.code for exc in refusals}) > 5


@pytest.mark.parametrize(("seed", "players"), SEEDS)
def test_every_pending_decision_kind_is_a_decision_kind(seed: int, players: int) -> None:
    _, kinds = _sweep(seed, players)
    assert kinds
    for kind in kinds:
        assert isinstance(kind, DecisionKind), kind
    assert {DecisionKind.ARRANGE, DecisionKind.REINFORCE} <= set(kinds)


def test_a_finished_game_refuses_with_a_member() -> None:
    state = new_game(["a", "b"], seed="over")
    state.over = True
    with pytest.raises(IllegalAction) as caught:
        apply(state, EndTurn("a"), game_dice(state))
    assert caught.value.code is Refusal.GAME_OVER


def _illegal_action_codes(root: Path) -> list[tuple[str, int, ast.expr]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalAction"
                and node.args
            ):
                found.append((path.name, node.lineno, node.args[0]))
    return found


def test_no_raise_site_in_the_rules_names_its_code_as_a_string() -> None:
    text_hits = [
        f"{path.name}:{number}"
        for path in sorted(RULES.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if 'IllegalAction("' in line or "IllegalAction('" in line
    ]
    assert text_hits == []
    sites = _illegal_action_codes(RULES)
    assert len(sites) > 100
    literal = [f"{name}:{line}" for name, line, code in sites if isinstance(code, ast.Constant)]
    assert literal == []


def test_every_code_the_poker_core_refuses_with_is_a_refusal() -> None:
    """risk.rules.contest passes the poker core's codes on as ``Refusal(code)``."""
    codes = {code.value for _, _, code in _illegal_action_codes(POKER)
             if isinstance(code, ast.Constant)}  # fmt: skip
    codes |= {"not-in-hand", "not-in-stash"}  # f"not-in-{place}" in combat/poker/draw.py
    assert len(codes) > 10
    assert codes <= {member.value for member in Refusal}


def test_members_are_their_strings() -> None:
    assert Refusal.NOT_YOUR_TURN == "not-your-turn"
    assert json.dumps(Refusal.NOT_YOUR_TURN) == '"not-your-turn"'
    assert json.dumps({"rule": Refusal.NOT_PLAYING}) == '{"rule": "not-playing"}'
    assert json.dumps(DecisionKind.BATTLE_ROLLING) == '"battle:rolling"'
    assert f"{AttackMode.FLANKING}" == "flanking"
    assert Refusal("not-your-turn") is Refusal.NOT_YOUR_TURN
    assert tuple(MODES) == tuple(AttackMode) == ("normal", "committed", "flanking")
    assert {"committed": 1}[AttackMode.COMMITTED] == 1  # hashes as the string


def test_member_names_spell_their_values() -> None:
    for enum in (Refusal, DecisionKind, AttackMode):
        for member in enum:
            assert member.name == member.value.upper().replace("-", "_").replace(":", "_")
