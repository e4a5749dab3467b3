"""``views_for`` builds every viewer's view at once with the public part shared; ``plain`` is
``dataclasses.asdict`` without the deep copy. Both must give exactly what the one-viewer path
and ``asdict`` give, and sharing must not carry one viewer's cards into another's view."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

from risk.rules import GameState, apply, game_dice, new_game, pending_decisions, view_for
from risk.rules.bots import RandomBot, decide
from risk.rules.state import plain, to_dict
from risk.rules.views import PER_VIEWER_KEYS, views_for


def _states(players: list[str], seed: int, every: int = 9, steps: int = 600) -> list[GameState]:
    state = new_game(players, seed=f"{seed:064d}")
    rng = random.Random(seed)
    kept = []
    for step in range(steps):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        try:
            state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
        except Exception:  # a rare pick the redacted state allowed; the next draw differs
            continue
        if step % every == 0:
            kept.append(state)
    kept.append(state)
    return kept


def test_each_viewers_view_is_the_one_built_for_them_alone():
    """Over 3 random games: the views built together equal, key for key and in JSON (key order
    included), the view each viewer gets built on their own; a spectator's view has no hand."""
    checked = 0
    for seed, players in enumerate((["a", "b"], ["a", "b", "c", "d"], list("abcdef"))):
        for state in _states(players, seed):
            viewers = [*players, None]
            together = views_for(state, viewers)
            for viewer in viewers:
                alone = views_for(state, [viewer])[viewer]
                assert together[viewer] == alone
                assert json.dumps(together[viewer]) == json.dumps(alone)
                assert view_for(state, viewer) == alone
                checked += 1
            assert all("risk_hand" not in s for s in together[None]["seats"])
    assert checked > 300


def test_a_seat_sees_its_own_hand_and_no_other():
    state = _states(["a", "b", "c"], 5, steps=200)[-1]
    views = views_for(state, ["a", "b", None])
    for viewer in ("a", "b"):
        with_hand = [s["id"] for s in views[viewer]["seats"] if "poker_hand" in s]
        assert with_hand == [state.seat_of_actor(viewer).id]
        mine = next(s for s in views[viewer]["seats"] if s["id"] == with_hand[0])
        assert mine["risk_hand"] == list(state.seat_of_actor(viewer).risk_cards)
    # The public part is the very same object in every view; the per-viewer keys are not.
    assert views["a"]["territories"] is views["b"]["territories"] is views[None]["territories"]
    assert views["a"]["seats"] is not views["b"]["seats"]
    assert set(PER_VIEWER_KEYS) == {"you", "seats", "contest", "legal_actions"}


def test_plain_is_asdict_on_the_engines_records():
    """Records of every kind, and whole states (``to_dict`` is built on ``plain``)."""
    compared = 0
    for state in _states(list("abcd"), 11, every=3, steps=900):
        assert plain(state) == asdict(state)
        assert json.dumps(to_dict(state)) == json.dumps({**asdict(state), **_replaced(state)})
        records = [state.turn, state.battle, *pending_decisions(state)]
        for record in records:
            if record is not None:
                assert plain(record) == asdict(record)
                compared += 1
    assert compared > 200


def _replaced(state: GameState) -> dict:
    """What ``to_dict`` writes differently from ``asdict``: the options (their own
    ``to_dict``) and a contest's poker hand."""
    out: dict = {"options": state.options.to_dict()}
    if state.contest is not None:
        out["contest"] = to_dict(state)["contest"]
    return out
