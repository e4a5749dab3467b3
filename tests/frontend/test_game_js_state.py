"""What the game page holds (``GameState`` in state.js), imported by Node and fed the messages the
server sends: a state, then updates whose patches come from ``risk.rules.view_patch`` on a real
game. An update for the version held is applied (the view rebuilt exactly), an old one ignored,
and one after a gap (or whose patch does not fit) reported as missed, so the page asks for the
state; a timed game's update (``games.play.push``) carries the deadlines, so the page
keeps its countdowns and asks for nothing. Needs Node.js (tests/frontend/node.py).
"""

from __future__ import annotations

import json
import random

from risk.rules import apply, game_dice, new_game, pending_decisions, view_for
from risk.rules import view_patch as make_patch
from risk.rules.bots import RandomBot, decide
from tests.frontend.node import import_line, run_script

RUNNER = (
    import_line("state.js", "GameState")
    + """
const page = new GameState();
page.applyState(input.state);
const out = input.messages.map((m) => {
  const outcome = page.applyUpdate(m);
  return { outcome, version: page.version, view: page.view, pending: page.pendingList() };
});
process.stdout.write(JSON.stringify(out));
"""
)


def updates(steps: int) -> tuple[dict, list[dict], list[dict]]:
    """A state body at version 0 and the ``update`` messages of ``steps`` moves after it (as the
    server pushes them to alice), with the views they should rebuild."""
    state = new_game(["alice", "bob", "carol"], seed="state-js")
    rng = random.Random(3)
    before = view_for(state, "alice")
    start = {"version": 0, "status": "running", "view": before, "pending": []}
    messages, views = [], []
    for version in range(1, steps + 1):
        actor = rng.choice(pending_decisions(state)).player
        state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
        after = view_for(state, "alice")
        messages.append({"type": "update", "version": version, "base_version": version - 1,
                         "sequence": version, "status": "running", "events": [],
                         "patch": make_patch(before, after)})  # fmt: skip
        views.append(after)
        before = after
    return start, messages, json.loads(json.dumps(views))


def test_updates_in_order_rebuild_the_views_and_old_ones_are_ignored():
    start, messages, views = updates(12)
    got = run_script(RUNNER, {"state": start, "messages": [*messages, messages[4]]})
    assert [g["outcome"] for g in got] == ["applied"] * 12 + ["ignored"]
    assert [g["version"] for g in got] == [*range(1, 13), 12]
    assert [g["view"] for g in got[:12]] == views


def test_a_gap_or_a_patch_that_does_not_fit_is_missed():
    start, messages, _ = updates(3)
    broken = {**messages[0], "patch": [{"op": "remove", "path": "/no-such-key"}]}
    got = run_script(RUNNER, {"state": start, "messages": [messages[1], broken, messages[0]]})
    assert [(g["outcome"], g["version"]) for g in got] == [
        ("missed", 0),  # based on version 1: the page holds 0
        ("missed", 0),
        ("applied", 1),
    ]


def test_the_pending_decisions_carry_the_deadlines_of_the_last_state():
    start, _, _ = updates(0)
    start["view"]["pending"] = [{"player": "alice", "seat": "alice", "kind": "arrange"},
                                {"player": "bob", "seat": "bob", "kind": "arrange"}]  # fmt: skip
    start["pending"] = [{"player": "bob", "seat": "bob", "kind": "arrange",
                         "deadline": "2030-01-02T03:04:05Z"}]  # fmt: skip
    same = {"type": "update", "version": 0, "base_version": None, "sequence": 0,
            "status": "open", "events": [], "view": start["view"]}  # fmt: skip
    (got,) = run_script(RUNNER, {"state": start, "messages": [same]})
    assert got["outcome"] == "applied"
    assert [(p["player"], p["deadline"]) for p in got["pending"]] == [
        ("alice", None),
        ("bob", "2030-01-02T03:04:05Z"),
    ]


RECEIVER = (
    import_line("state.js", "GameState")
    + """
const page = new GameState();
page.applyState(input.state);
const out = input.messages.map((m) => ({ ...page.receiveUpdate(m), pending: page.pendingList() }));
process.stdout.write(JSON.stringify(out));
"""
)


def test_a_timed_games_update_carries_the_deadlines_and_the_page_asks_for_no_state():
    start, messages, views = updates(3)
    start["time_control"] = "live"
    due = "2030-01-02T03:09:05+00:00"
    timed = [  # as broadcast.update_messages sends them in a timed game
        {**message, "pending": [{**p, "deadline": due} for p in view["pending"]]}
        for message, view in zip(messages, views, strict=True)
    ]
    gap = {**messages[2], "version": 9, "base_version": 8}
    got = run_script(RECEIVER, {"state": start, "messages": [*timed, gap]})
    assert [(g["render"], g["askState"]) for g in got] == [(True, False)] * 3 + [(False, True)]
    for g, view in zip(got[:3], views, strict=True):
        assert [(p["player"], p["kind"], p["deadline"]) for p in g["pending"]] == [
            (p["player"], p["kind"], due) for p in view["pending"]
        ]
        assert g["pending"]
