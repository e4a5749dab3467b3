"""Events in words (``eventText`` in text.js: the game page's event log and the replay viewer),
imported by Node and fed the catalog ``GET /api/protocol`` serves (``games.protocol``); the server
renders the same catalog (``games.protocol.text.event_line``) to the same sentences.

Every event random games make (as a seat and a spectator see them) gets a sentence of its own,
with no "null", "true" or "undefined" in it; a few sentences are checked word for word.
"""

from __future__ import annotations

import json
import random

from games.protocol.schema import catalog
from games.protocol.text import event_line
from risk.rules import apply, events_for, game_dice, new_game, pending_decisions
from risk.rules.bots import RandomBot, decide
from tests.frontend.node import import_line, run_script

RUNNER = (
    import_line("text.js", "eventText", "setCatalog")
    + """
setCatalog(input.catalog);
const out = input.events.map((e) => [Boolean(input.catalog.events[e.type]), eventText(e)]);
process.stdout.write(JSON.stringify(out));
"""
)


def sentences(events: list[dict]) -> list[tuple[bool, str]]:
    return [tuple(x) for x in run_script(RUNNER, {"catalog": catalog(), "events": events})]


def random_game_events(games: int = 6) -> dict[str, dict]:
    """One event of each type and set of filled fields that random games make, as a seat and a
    spectator see them."""
    events: dict[str, dict] = {}
    for g in range(games):
        rng = random.Random(g)
        players = ["alice", "bob", "carol", "dave"][: 3 + g % 2]
        state = new_game(players, seed=f"events-{g}")
        for _ in range(1500):
            decisions = pending_decisions(state)
            if not decisions:
                break
            actor = rng.choice(decisions).player
            state, made = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
            for viewer in ("alice", None):
                for event in events_for(state, made, viewer):
                    event = json.loads(json.dumps(event))
                    key = f"{event['type']}|{sorted(k for k, v in event.items() if v)}"
                    events.setdefault(key, event)
    return events


def test_every_event_of_random_games_reads_as_a_sentence():
    events = random_game_events()
    got = sentences(list(events.values()))
    for event, (known, text) in zip(events.values(), got, strict=True):
        assert known, f"no sentence for {event['type']}: {event}"
        assert "null" not in text and "true" not in text and "undefined" not in text, (event, text)
        assert not text.startswith(event["type"].replace("_", " ") + ":"), (event, text)
    assert len({e["type"] for e in events.values()}) >= 30


def test_sentences_word_for_word():
    got = sentences([
        {"type": "placed", "seat": "alice", "territory": "Peru", "armies": 3},
        {"type": "turn_started", "seat": "bob", "controller": "bob", "turn_number": 4, "round": 2,
         "reinforcements": 5, "from_pot": True, "factory_armies": 0},
        {"type": "turn_started", "seat": "bob", "controller": "carol", "turn_number": 4, "round": 2,
         "reinforcements": 3, "from_pot": False, "factory_armies": 2},
        {"type": "attack", "attacker": "bob", "defender": "carol", "target": "Ukraine",
         "mode": "normal", "flanks": [["Scandinavia", 3]]},
        {"type": "cut", "seat": "carol", "card": "Siberia", "armies": None},
        {"type": "cut", "seat": "carol", "card": None, "armies": None},
        {"type": "something_new", "seat": "carol", "count": 2},
    ])  # fmt: skip
    assert [text for _, text in got] == [
        "alice places 3 on Peru",
        "Turn 4, round 2: bob gets + 5 from the pot",
        "Turn 4, round 2: bob (played by carol) gets 3 reinforcements, + 2 at factories",
        "bob attacks Ukraine (carol) from Scandinavia (3)",
        "carol cuts Siberia, nothing placed",
        "carol cuts no card, nothing placed",
        "something new: seat carol, count 2",
    ]


def test_the_server_and_the_browser_say_the_same_of_every_event():
    events = list(random_game_events(4).values())
    events += [  # the rare ones (games.protocol.events says why random games miss them)
        {"type": "joined", "player": "dave", "seat": "ally-1"},
        {"type": "left", "player": "bob", "seat": "bob"},
        {"type": "conceded", "player": None, "seat": "bob"},
        {"type": "draw_vote", "seat": "carol", "agree": False, "votes": []},
        {"type": "landless", "seat": "bob", "turns": 1, "out": True},
        {"type": "battle_called_off", "target": "Peru"},
        {"type": "poker_called_off", "seats": ["alice", "bob"]},
        {"type": "poker_cards_seized", "seat": "alice", "from": "ally-2", "count": 1},
        {"type": "something_new", "seat": "carol", "count": 2, "cards": ["Peru"]},
    ]
    browser = [text for _, text in sentences(events)]
    assert [event_line(e) for e in events] == browser
    assert browser[-9:] == [
        "dave takes over ally-1",
        "bob leaves bob",
        "conceded: player null, seat bob",
        "carol votes against a draw",
        "bob began 1 turn in a row without a territory: out",
        "The battle for Peru is called off: the game is over",
        "The poker hand of alice, bob is called off: the game is over",
        "alice seizes 1 poker card from ally-2",
        'something new: seat carol, count 2, cards ["Peru"]',
    ]
