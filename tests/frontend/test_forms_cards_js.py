"""The card, poker and ally forms (``buildCards`` in forms_cards.js) against the engine.

Node imports forms_cards.js and runs its pure functions. Seeded random games are driven into
every decision the module has a form for (turn_in, discard, challenge, answer, the poker hand's
choose, bet and draw steps, end_turn with an ally to declare, join): the forms' choices are built
in Node and each action must be one the engine accepts; where a spec's choices are few enough,
every one of them is built and applied, so the form allows nothing the engine refuses.
Hand-worked specs check the exact actions built, and choices outside a spec's bounds give a
sentence, never an action. Needs Node.js.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from risk.rules import (
    action_from_dict,
    apply,
    game_dice,
    legal_actions,
    new_game,
    pending_decisions,
)
from risk.rules.bots import RandomBot, decide
from risk.rules.state import GameState
from tests.frontend.node import call_each

TYPES = ("turn_in", "discard", "challenge", "answer", "poker", "end_turn", "join")
FUNCTIONS = ["buildCards", "pokerCardName", "pokerCardFace", "redQueenSentence", "cardsInSets",
             "contestSentences", "moveText"]  # fmt: skip


def run_cards(cases: list[tuple[str, list[Any]]]) -> list[Any]:
    """Each ``(function, args)`` called in Node on the module's exports; their results."""
    out = call_each("forms_cards.js", FUNCTIONS, cases)
    assert all("ok" in r for r in out), [r for r in out if "ok" not in r][:3]
    return [r["ok"] for r in out]


def build(spec: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    return run_cards([("buildCards", [spec, choice])])[0]


# --- choices a player could make in the forms ----------------------------------------------------


def subsets(items: list[str], lo: int, hi: int) -> list[list[str]]:
    return [list(c) for n in range(lo, hi + 1) for c in itertools.combinations(items, n)]


def form_choices(spec: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Choices the form for ``spec`` lets a player make: all of them where they are few, else
    the ends of each range and a random middle."""
    o, kind = spec["options"], spec["type"]
    if kind == "turn_in":  # every set, picked in a shuffled order, with every reward
        picks = []
        for cards, reward in itertools.product(o["sets"], o["rewards"]):
            shuffled = list(cards)
            rng.shuffle(shuffled)
            picks.append({"cards": shuffled, "reward": reward})
        return picks
    if kind == "discard":
        return [{"cards": c} for c in subsets(o["cards"], o["count"], o["count"])]
    if kind == "challenge":
        return [{"contest": v} for v in o["contest"]]
    if kind == "answer":
        return [{"demur": v} for v in o["demur"]]
    if kind in ("end_turn", "join"):
        return ([{}] if kind == "end_turn" else []) + [{"ally": a} for a in o["allies"]]
    assert kind == "poker"
    moves = o["moves"]
    if "choose" in moves:
        ch = o["choose"]
        return [{"move": "choose", "cards": c} for c in subsets(ch["stash"], ch["min"], ch["max"])]
    if "draw" in moves:
        d = o["draw"]
        picks = [{"move": "draw", "cards": [], "from_stash": []},
                 {"move": "draw", "cards": list(d["hand"]),
                  "from_stash": d["stash"][: len(d["hand"])]}]  # fmt: skip
        for _ in range(6):
            discard = rng.sample(d["hand"], rng.randint(0, len(d["hand"])))
            least = max(0, len(discard) - d["deck"])
            most = min(len(discard), len(d["stash"]))
            if least <= most:
                stash = rng.sample(d["stash"], rng.randint(least, most))
                picks.append({"move": "draw", "cards": discard, "from_stash": stash})
        keep = set(d["keep"]) if d.get("keep_one") else set()  # a stash card stays in the hand
        return [p for p in picks if not keep or p["from_stash"] or keep - set(p["cards"])]
    return [{"move": m} for m in moves]


def decisions_of_games(seeds: list[str], steps: int) -> list[tuple[GameState, str, dict]]:
    """(state, actor, spec) for every spec of ``TYPES`` met in seeded random games of three; an
    outsider ("dave", no seat) is offered ``join`` once the set-up is over."""
    found: list[tuple[GameState, str, dict]] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(["alice", "bob", "carol"], seed=seed)
        for _ in range(steps):
            decisions = pending_decisions(state)
            if not decisions:
                break
            for actor in sorted({d.player for d in decisions} | {"dave"}):
                for spec in legal_actions(state, actor):
                    if spec.type in TYPES:
                        found.append((state, actor, {"type": spec.type, "options": spec.options}))
            actor = rng.choice(decisions).player
            state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
    return found


def kind_of(spec: dict[str, Any]) -> str:
    if spec["type"] == "poker":
        moves = spec["options"]["moves"]
        return "poker:" + ("choose" if "choose" in moves else "draw" if "draw" in moves else "bet")
    if spec["type"] == "end_turn" and spec["options"]["allies"]:
        return "end_turn+ally"
    return spec["type"]


def test_every_choice_the_forms_allow_is_accepted_by_the_engine():
    """Seeded games to every card, poker and ally decision; each form choice built in Node and
    applied to the state it was offered in (an IllegalAction fails the test)."""
    rng = random.Random(11)
    cases = []
    for state, actor, spec in decisions_of_games(["cards-0", "cards-2"], 700):
        if kind_of(spec) in ("end_turn", "join") and rng.random() < 0.9:
            continue  # common and cheap to check: a sample is enough
        for choice in form_choices(spec, rng):
            cases.append((state, actor, spec, choice))
    built = run_cards([("buildCards", [spec, choice]) for _, _, spec, choice in cases])
    seen: dict[str, int] = {}
    for (state, actor, spec, choice), got in zip(cases, built, strict=True):
        assert "action" in got, (spec, choice, got)
        assert got["action"]["type"] == spec["type"]
        action = action_from_dict({**got["action"], "player": actor})
        apply(state, action, game_dice(state))
        seen[kind_of(spec)] = seen.get(kind_of(spec), 0) + 1
    wanted = {"turn_in", "discard", "challenge", "answer", "poker:choose", "poker:bet",
              "poker:draw", "end_turn+ally", "join"}  # fmt: skip
    assert wanted <= set(seen), seen


def test_the_poker_steps_choices_cover_the_spec_exactly():
    """At a real ``choose`` step, every subset of the stash is built: the form gives an action for
    exactly the sizes min..max and an error sentence for the others (none the engine takes)."""
    found = [d for d in decisions_of_games(["cards-0"], 700) if kind_of(d[2]) == "poker:choose"]
    if not found:
        pytest.fail("no poker choose step in the seeded game")
    state, actor, spec = found[0]
    ch = spec["options"]["choose"]
    every = subsets(ch["stash"], 0, len(ch["stash"]))
    built = run_cards([("buildCards", [spec, {"move": "choose", "cards": c}]) for c in every])
    for cards, got in zip(every, built, strict=True):
        if ch["min"] <= len(cards) <= ch["max"]:
            assert got == {"action": {"type": "poker", "move": "choose", "cards": cards}}
            apply(state, action_from_dict({**got["action"], "player": actor}), game_dice(state))
        else:
            assert set(got) == {"error"} and "stash" in got["error"], (cards, got)


# --- hand-worked specs ---------------------------------------------------------------------------

TURN_IN = {"type": "turn_in", "options": {
    "sets": [["Alaska", "Peru", "wild"], ["Alaska", "Brazil", "Peru"]],
    "rewards": ["armies", "factory"]}}  # fmt: skip
CHOOSE = {"type": "poker", "options": {"moves": ["choose"], "amount": 1, "pot": 4,
          "choose": {"stash": ["Qh", "2c", "As"], "min": 2, "max": 3}}}  # fmt: skip
DRAW = {"type": "poker", "options": {"moves": ["draw"], "amount": 1, "pot": 3,
        "draw": {"hand": ["Qh", "2c", "7d", "9s", "Kh"], "stash": ["As"], "deck": 1}}}  # fmt: skip
DRAW_KEEP = {"type": "poker", "options": {"moves": ["draw"], "amount": 1, "pot": 3,
             "draw": {"hand": ["Qh", "2c", "7d", "9s", "Kh"], "stash": ["As"], "deck": 5,
                      "keep": ["Qh", "Kh"], "keep_one": True}}}  # fmt: skip
BET = {"type": "poker", "options": {"moves": ["call", "raise", "fold"], "amount": 1, "pot": 3}}
DISCARD = {"type": "discard", "options": {"count": 2, "cards": ["Qh", "2c", "7d", "9s", "Kh",
                                                               "As", "3d"]}}  # fmt: skip
CHALLENGE = {"type": "challenge", "options": {"contest": [True, False]}}
ANSWER = {"type": "answer", "options": {"demur": [True, False]}}
END_TURN = {"type": "end_turn", "options": {"allies": ["ally-4", "ally-5"]}}
JOIN = {"type": "join", "options": {"allies": ["ally-5"]}}


def test_hand_worked_actions():
    got = run_cards([
        ("buildCards", [TURN_IN, {"cards": ["Peru", "Brazil", "Alaska"], "reward": "factory"}]),
        ("buildCards", [CHOOSE, {"move": "choose", "cards": ["As", "Qh"]}]),
        ("buildCards", [DRAW, {"move": "draw", "cards": ["2c", "7d"], "from_stash": ["As"]}]),
        ("buildCards", [DRAW, {"move": "draw", "cards": [], "from_stash": []}]),
        ("buildCards", [BET, {"move": "raise"}]),
        ("buildCards", [DISCARD, {"cards": ["3d", "2c"]}]),
        ("buildCards", [CHALLENGE, {"contest": False}]),
        ("buildCards", [ANSWER, {"demur": True}]),
        ("buildCards", [END_TURN, {"ally": "ally-5"}]),
        ("buildCards", [END_TURN, {"ally": None}]),
        ("buildCards", [JOIN, {"ally": "ally-5"}]),
        ("buildCards", [DRAW_KEEP, {"move": "draw", "cards": ["Qh", "2c"], "from_stash": []}]),
        ("buildCards", [DRAW_KEEP, {"move": "draw", "cards": ["Qh", "Kh"], "from_stash": ["As"]}]),
    ])  # fmt: skip
    assert got == [
        # the set's own order (the engine's), whatever order the cards were clicked in
        {"action": {"type": "turn_in", "cards": ["Alaska", "Brazil", "Peru"], "reward": "factory"}},
        {"action": {"type": "poker", "move": "choose", "cards": ["As", "Qh"]}},
        # two discarded, one replaced from the stash, one from the deck (which holds one)
        {"action": {"type": "poker", "move": "draw", "cards": ["2c", "7d"], "from_stash": ["As"]}},
        {"action": {"type": "poker", "move": "draw", "cards": [], "from_stash": []}},
        {"action": {"type": "poker", "move": "raise"}},
        {"action": {"type": "discard", "cards": ["3d", "2c"]}},
        {"action": {"type": "challenge", "contest": False}},
        {"action": {"type": "answer", "demur": True}},
        {"action": {"type": "end_turn", "ally": "ally-5"}},
        {"action": {"type": "end_turn"}},
        {"action": {"type": "join", "ally": "ally-5"}},
        # keep_one: Kh, a stash card, stays; or both go and a stash card replaces one
        {"action": {"type": "poker", "move": "draw", "cards": ["Qh", "2c"], "from_stash": []}},
        {"action": {"type": "poker", "move": "draw", "cards": ["Qh", "Kh"], "from_stash": ["As"]}},
    ]


def test_choices_outside_the_spec_are_refused_with_a_sentence():
    bad = [
        (TURN_IN, {"cards": ["Alaska", "Brazil"], "reward": "armies"}, "three cards"),
        (TURN_IN, {"cards": ["Alaska", "Brazil", "wild"], "reward": "armies"}, "not a set"),
        (TURN_IN, {"cards": ["Alaska", "Brazil", "Peru"], "reward": "ship"}, "armies, factory"),
        (CHOOSE, {"move": "choose", "cards": ["Qh"]}, "2 to 3"),
        (CHOOSE, {"move": "choose", "cards": ["Qh", "Kd"]}, "from your stash"),
        (CHOOSE, {"move": "choose", "cards": ["Qh", "Qh"]}, "from your stash"),
        (CHOOSE, {"move": "bet"}, "choose"),
        (DRAW, {"move": "draw", "cards": ["2c", "7d"], "from_stash": []}, "deck holds 1 card"),
        (DRAW, {"move": "draw", "cards": ["2c"], "from_stash": ["As", "Kd"]}, "stash"),
        (DRAW, {"move": "draw", "cards": [], "from_stash": ["As"]}, "at most that many"),
        (DRAW, {"move": "draw", "cards": ["As"], "from_stash": []}, "from your hand"),
        (DRAW_KEEP, {"move": "draw", "cards": ["Qh", "Kh"], "from_stash": []}, "Keep one"),
        (BET, {"move": "check"}, "call, raise, fold"),
        (DISCARD, {"cards": ["3d"]}, "exactly 2 poker cards"),
        (DISCARD, {"cards": ["3d", "4d"]}, "from your poker hand"),
        (CHALLENGE, {}, "contest"),
        (ANSWER, {"demur": "yes"}, "demur"),
        (END_TURN, {"ally": "ally-3"}, "ally-3 cannot be declared"),
        (JOIN, {"ally": "ally-4"}, "allied army"),
        (JOIN, {}, "allied army"),
    ]
    got = run_cards([("buildCards", [spec, choice]) for spec, choice, _ in bad])
    for (spec, choice, words), result in zip(bad, got, strict=True):
        assert set(result) == {"error"}, (spec["type"], choice, result)
        assert words in result["error"], (result["error"], words)
        assert result["error"].endswith("."), result["error"]  # a sentence


def test_card_names_and_the_red_queen_sentence():
    got = run_cards([
        ("pokerCardName", ["Qh"]), ("pokerCardName", ["Td"]), ("pokerCardFace", ["Td"]),
        ("pokerCardFace", ["As"]), ("redQueenSentence", [True]), ("redQueenSentence", [False]),
        ("cardsInSets", [TURN_IN["options"]["sets"]]), ("moveText", ["call", 2]),
        ("moveText", ["raise", 1]),
    ])  # fmt: skip
    assert got[:4] == ["queen of hearts", "ten of diamonds", "10♦", "A♠"]
    assert "above the ace" in got[4] and "never make a straight" in got[4]
    assert "ordinary queens" in got[5]
    assert got[6] == ["Alaska", "Brazil", "Peru", "wild"]
    assert got[7] == "Call (put in 2 armies)"
    assert got[8] == "Raise (put in 2 armies: call 1, raise 1)"


def test_the_contest_in_words():
    hand = {"phase": "bet1", "on_table": 3, "live_bet": 1, "to_act": ["s2"]}
    contest = {"declarer": "s1", "ally": "s4", "answers": {"s2": True, "s3": False},
               "stage": "poker", "owed": [], "hand": hand}  # fmt: skip
    (lines,) = run_cards([("contestSentences", [contest])])
    assert lines == [
        "s1 declared the allied army s4.",
        "A poker hand decides it: the declarer plays the ally on a win with a card of the"
        " ally's suit.",
        "Contesting: s2.",
        "Letting it pass: s3.",
        "Poker: the first betting round; 3 armies on the table, live bet 1.",
        "Waiting for s2.",
    ]


def test_the_board_data_carries_each_territorys_card_symbol(client):
    """The hand is drawn with each card's symbol: /board/classic.json adds them from the map."""
    cards = client.get("/board/classic.json").json()["cards"]
    assert len(cards) == 42
    assert cards["Alaska"] == "infantry"  # classic-risk-map.json: Alaska's card is Infantry
    assert cards["Northwest Territory"] == "artillery"
