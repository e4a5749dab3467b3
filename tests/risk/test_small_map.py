"""The second map, ``small`` (``scripts/make_small_map.py``): its facts, and the engine, the AI and
the notation playing whole games on it, so that nothing is tied to the classic board."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from risk.ai import GreedyBot, StrategicBot
from risk.rules import (
    IllegalAction,
    action_from_dict,
    apply,
    game_dice,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.board_map import (
    BoardMap,
    board_shapes_path,
    load_board_shapes,
    load_map,
    map_names,
)
from risk.rules.bots import Bot, decide
from risk.rules.engine import legal_actions
from risk.rules.invariants import violations
from risk.rules.state import PLAYER, Options
from risk.rules.vocabulary import Refusal
from tests.conftest import ROOT
from tests.risk.test_notation import _play as play_with_notation

SMALL = Options(map="small")


@pytest.fixture(scope="module")
def small() -> BoardMap:
    return load_map("small")


def test_the_packaged_maps_are_classic_and_small():
    assert map_names() == ("classic", "small")


def test_24_territories_in_4_continents_on_2_oceans(small):
    assert len(small.territories) == 24
    assert {c.name: (c.bonus, len(c.territories)) for c in small.continents.values()} == {
        "Northland": (4, 6),
        "Southland": (3, 6),
        "Eastmarch": (4, 6),
        "Sunward Isles": (3, 6),
    }
    assert small.oceans == ("Western", "Eastern")
    two = sorted(t.name for t in small.territories.values() if len(t.oceans) == 2)
    assert two == ["Thornfield", "Wolfden"]
    inland = sorted(t.name for t in small.territories.values() if not t.oceans)
    assert inland == ["Coldpeak", "Dunmoor", "Duskvale", "Highmoor", "Stonegate"]
    assert len(small.stations) == 21  # 19 coasts, 2 of them on both oceans
    assert len(small.borders()) == 45


def test_its_deck_is_8_of_each_symbol_and_2_wild(small):
    assert Counter(t.card for t in small.territories.values()) == {
        "infantry": 8, "cavalry": 8, "artillery": 8,
    }  # fmt: skip
    assert len(small.deck()) == 26 and small.deck().count("wild") == 2


def test_it_is_for_2_to_4_players(small):
    assert (small.min_seats, small.max_seats) == (2, 4)
    with pytest.raises(IllegalAction) as refused:
        new_game([f"p{i}" for i in range(5)], seed="five", options=SMALL)
    assert refused.value.code == Refusal.PLAYER_COUNT
    assert "2-4 players, got 5" in str(refused.value)


def test_a_game_deals_six_piles_of_four(small):
    """Two players, four allied armies: each seat holds 4 of the 24 territories."""
    state = new_game(["alice", "bob"], seed="piles", options=SMALL)
    owners = Counter(h.owner for h in state.territories.values())
    assert sorted(owners.values()) == [4] * 6
    assert [s.id for s in state.seats if s.kind != PLAYER] == [f"ally-{i}" for i in (1, 2, 3, 4)]
    assert len(state.risk_deck.draw) + sum(len(s.risk_cards) for s in state.seats) == 26
    assert violations(state) == []


def test_the_files_are_what_the_script_makes():
    script = ROOT / "scripts" / "make_small_map.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_its_drawn_board_has_a_shape_per_territory_and_touches_only_neighbours(small):
    """Two shapes that share a stretch of border are neighbours on the map (the board would
    mislead a player otherwise); a neighbour whose shape does not touch is linked."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from make_board_shapes import _touch
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    shapes = load_board_shapes("small")
    polygon = {t["name"]: [tuple(p) for p in t["polygon"]] for t in shapes["territories"]}
    assert sorted(polygon) == sorted(small.territories)
    linked = {frozenset((link["a"], link["b"])) for link in shapes["links"]}
    for a in polygon:
        for b in polygon:
            if a < b and _touch(polygon[a], polygon[b]):
                assert frozenset((a, b)) in small.borders(), (a, b)
    for pair in small.borders():
        a, b = sorted(pair)
        assert _touch(polygon[a], polygon[b]) or pair in linked, (a, b)
    wraps = [(link["a"], link["b"]) for link in shapes["links"] if link["wrap"]]
    assert wraps == [("Ambermoor", "Frost Cape")]
    assert json.loads(board_shapes_path("small").read_text())["name"] == "small"


@pytest.mark.parametrize(("seed", "players"), [(seed, 2 + seed % 3) for seed in range(6)])
def test_random_games_on_it_keep_every_invariant_to_the_end(seed: int, players: int) -> None:
    """Seeded random play to the end; every invariant after every action; the game replays from
    its seed and actions to the same end."""
    names = [f"p{i}" for i in range(players)]
    state = start = new_game(names, seed=f"small-{seed}", options=SMALL)
    rng = random.Random(seed)
    log = []
    for _ in range(20_000):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        assert legal_actions(state, actor)
        action = sample_action(state, actor, rng)
        log.append(action.to_dict())
        state, _ = apply(state, action, game_dice(state))
        assert violations(state) == []
    assert state.over and state.winner in names
    assert set(state.owned(state.winner)) | set(state.territories) == set(state.territories)
    again = start
    for wire in log:
        again, _ = apply(again, action_from_dict(wire), game_dice(again))
    assert again == state


def _bots(kinds: list[str]) -> dict[str, Bot]:
    return {
        f"{kind}{i}": GreedyBot(random.Random(i))
        if kind == "greedy"
        else StrategicBot(random.Random(i), kind)
        for i, kind in enumerate(kinds)
    }


@pytest.mark.parametrize("seed", range(3))
def test_ai_games_on_it_are_played_to_the_end(seed: int) -> None:
    """Every AI level and the greedy bot, 2-4 players, only legal actions, to the end."""
    bots = _bots(["hard", "normal", "easy", "greedy"][: 2 + seed])
    state = new_game(list(bots), seed=f"ai-small-{seed}", options=SMALL)
    while not state.over:
        assert state.round <= 60, "an AI game on the small map should end well before"
        actor = pending_decisions(state)[0].player
        seat = state.seat_of_actor(actor)
        owner = actor if actor in bots else (seat.player if seat is not None else None)
        bot = bots.get(owner or "") or next(iter(bots.values()))  # an ally's own AI: any bot
        state, _ = apply(state, decide(bot, state, actor), game_dice(state))
        assert violations(state) == []
    assert state.winner in bots


def test_the_notation_writes_and_reads_every_offered_move_on_it() -> None:
    """Every action a short game on the small map offers is written as a line and read back."""
    offered, checked = set(), set()
    for seed in range(2):
        more_offered, more_checked = play_with_notation(40 + seed, 2 + seed, SMALL, steps=250)
        offered |= more_offered
        checked |= more_checked
    assert offered <= checked
    assert {"arrange", "attack", "place", "sail", "embark"} <= checked
