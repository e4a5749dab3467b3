"""The browser's JSON Patch applier (``applyPatch`` in patch.js, which the game page's state and
the replay viewer use) against ``risk.rules.view_patch``.

Node imports the module and runs it on patches the server makes from real views of a random
game: it must rebuild exactly the view ``apply_patch`` rebuilds, and refuse an op that does not
fit. Needs Node.js (tests/frontend/node.py).
"""

from __future__ import annotations

import json
import random

from risk.rules import apply, apply_patch, game_dice, new_game, pending_decisions, view_for
from risk.rules import view_patch as make_patch
from risk.rules.bots import RandomBot, decide
from tests.frontend.node import import_line, run_script

RUNNER = (
    import_line("patch.js", "applyPatch")
    + """
const out = input.map(([doc, ops]) => {
  try { return { ok: applyPatch(doc, ops) }; } catch (e) { return { error: String(e.message) }; }
});
process.stdout.write(JSON.stringify(out));
"""
)


def run_in_node(cases: list[tuple[object, list[dict]]]) -> list[dict]:
    return run_script(RUNNER, cases)


def test_the_browser_rebuilds_the_same_views_as_the_server():
    players = ["alice", "bob", "carol"]
    state = new_game(players, seed="game-js-patch")
    rng = random.Random(1)
    cases, expected = [], []
    views = {p: view_for(state, p) for p in [*players, None]}
    for _ in range(120):
        decisions = pending_decisions(state)
        if not decisions:
            break
        actor = rng.choice(decisions).player
        state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
        for viewer, before in views.items():
            after = view_for(state, viewer)
            ops = make_patch(before, after)
            cases.append((before, ops))
            expected.append(apply_patch(before, ops))
            views[viewer] = after
    assert len(cases) == 4 * 120
    got = run_in_node(cases)
    assert [g.get("ok") for g in got] == json.loads(json.dumps(expected))


def test_the_browser_escapes_keys_and_refuses_ops_that_do_not_fit():
    doc = {"a/b": 1, "m~n": {"x": 1}, "list": [0]}
    after = {"a/b": 2, "m~n": {"~/": None, "~1": 3}, "list": [0, 1]}  # "~1" is "/~01"
    cases = [
        (doc, make_patch(doc, after)),
        (doc, [{"op": "remove", "path": "/missing"}]),
        (doc, [{"op": "add", "path": "/list/0", "value": 1}]),
        (doc, [{"op": "move", "path": "/a", "from": "/list"}]),
        (doc, [{"op": "replace", "path": "/m~0n/x", "value": 2},
               {"op": "remove", "path": "/nope"}]),
    ]  # fmt: skip
    got = run_in_node(cases)
    assert got[0] == {"ok": after}
    assert [sorted(g) for g in got[1:]] == [["error"]] * 4
