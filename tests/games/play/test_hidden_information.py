"""Hidden information over HTTP: nobody reads another player's cards, the decks or the seeds.

A running game of alice, bob and carol (three people, three allied armies) is played once for
the module by the random player, past the set-up and into a poker hand alice is in, so her
private cards are both in her hands and in the log. It lives in an outer transaction rolled back
at the end of the module; each test runs in a savepoint of it, plays on from there if it needs
to, and reads the game through the API as alice, bob, carol and anonymously.

The checks are *structural*: a Risk card is a territory name ("Alaska" is both a card and a
territory on the public board), so they look at keys and at the values under them, not at the
text. The seeds are long random hex, so for them a text search is exact.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from games.models import ActionLog, Game, GameSnapshot
from games.play import lobby
from games.play.reads import fetch
from risk.rules import GameState, legal_actions
from tests.games.conftest import client_for, make_user
from tests.games.helpers import play_out, start_game

SERVER_SEED = hashlib.sha256(b"warboard: hidden information").hexdigest()
CAROL_SEED = "carol-" + hashlib.sha256(b"carol's client seed").hexdigest()[:40]
POKER_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
HANDS = ("risk_hand", "poker_hand")  # a seat's own cards in view_for
HAND_KEYS = ("hand", "stash", "discards")  # a poker-hand player's own cards


def private_events_of(game: Game, seat: str) -> list[tuple[int, int]]:
    """(sequence, index) of the logged events only ``seat`` may read in full."""
    return [
        (entry.sequence, i)
        for entry in ActionLog.objects.filter(game=game).order_by("sequence")
        for i, event in enumerate(entry.events)
        if event.get("private_to") == seat
    ]


def in_a_hand_with_alice(game: Game, state: GameState) -> bool:
    hand = state.contest.hand if state.contest is not None else None
    return (
        hand is not None
        and any(s.player == "alice" and s.chosen for s in hand.seats)
        and bool(private_events_of(game, "alice"))
    )


@dataclass(frozen=True)
class World:
    game_id: int
    alice: Any
    bob: Any
    carol: Any


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    with (
        pytest.MonkeyPatch.context() as patch,
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        patch.setattr(lobby, "new_seed", lambda: SERVER_SEED)  # the same game on every run
        alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
        game = start_game(alice, 3, others=[bob, carol], client_seeds={"carol": CAROL_SEED})
        game = play_out(game, [alice, bob, carol], until=in_a_hand_with_alice)
        assert game.status == Game.Status.RUNNING
        yield World(game.pk, alice, bob, carol)
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """Games a test creates itself get a known server seed too."""
    monkeypatch.setattr(lobby, "new_seed", lambda: SERVER_SEED)


@pytest.fixture
def table(world, db) -> Game:
    return Game.objects.get(pk=world.game_id)


@pytest.fixture
def alice(world):
    return world.alice


@pytest.fixture
def bob(world):
    return world.bob


@pytest.fixture
def carol(world):
    return world.carol


# --- reading what came back ---------------------------------------------------------------------


def get(user, path: str) -> dict[str, Any]:
    client = client_for(user) if user is not None else APIClient()
    answer = client.get(path)
    assert answer.status_code == 200, answer.content
    return answer.json()


def walk(value: Any, path: str = "") -> Iterator[tuple[str, str | None, Any]]:
    """Every (path, key, value) inside a JSON value; ``key`` is None for list items."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield f"{path}.{key}", key, inner
            yield from walk(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield f"{path}[{i}]", None, inner
            yield from walk(inner, f"{path}[{i}]")


def secrets_of(game: Game) -> list[str]:
    """What no response may contain while the game runs: the seeds, server and engine."""
    game.refresh_from_db()
    engine = GameSnapshot.objects.get(pk=game.pk).state["seed"]
    found = [game.server_seed, engine, CAROL_SEED]
    assert engine != game.server_seed  # carol's client seed was mixed in
    return found


def assert_no_secrets(game: Game, *bodies: Any) -> None:
    secrets = secrets_of(game)
    for body in bodies:
        text = body if isinstance(body, str) else json.dumps(body)
        for secret in secrets:
            assert secret not in text
        if isinstance(body, str):
            continue
        for path, key, value in walk(body):
            assert key not in ("server_seed", "client_seeds", "seed", "context"), path
            # The logged dice stream ({counter, sides, value}: it would give away every shuffle);
            # the dice an event shows and a battle's count of rolls are public.
            assert not (
                key == "rolls"
                and isinstance(value, list)
                and any(isinstance(r, dict) and "counter" in r for r in value)
            ), path


def hidden_poker_cards(state: GameState, seat_id: str) -> set[str]:
    """The poker cards of ``seat_id`` nobody else may see: its stash, and its cards in a hand."""
    cards = set(state.seat(seat_id).poker_cards)
    contest = state.contest
    if contest is not None and contest.hand is not None:
        for hseat in contest.hand.seats:
            if hseat.player == seat_id and not hseat.shown:
                cards |= set(hseat.hand) | set(hseat.stash) | set(hseat.discards)
    return cards


def assert_view_hides(view: dict[str, Any], state: GameState, viewer_seat: str | None) -> None:
    """Only ``viewer_seat``'s own hands are in ``view``; decks are counts; no hidden poker card."""
    for seat in view["seats"]:
        real = state.seat(seat["id"])
        assert seat["risk_cards"] == len(real.risk_cards)
        assert seat["poker_cards"] == len(real.poker_cards)
        if seat["id"] == viewer_seat:
            assert seat["risk_hand"] == real.risk_cards
            assert seat["poker_hand"] == real.poker_cards
        else:
            assert not set(HANDS) & set(seat), seat
    owners = [path for path, key, _ in walk(view) if key in HANDS]
    assert len(owners) == (2 if viewer_seat is not None else 0), owners
    for deck in ("risk_deck", "poker_deck"):
        assert set(view[deck]) == {"draw", "discard"}
        assert all(isinstance(n, int) for n in view[deck].values())
    hand = (view["contest"] or {}).get("hand")
    if hand is not None:
        for player in hand["players"]:
            mine = player["player"] == viewer_seat
            assert mine == bool(set(HAND_KEYS) & set(player)), player
    others = set().union(
        *(hidden_poker_cards(state, s.id) for s in state.seats if s.id != viewer_seat)
    )
    seen = {
        value
        for path, key, value in walk(view)
        if isinstance(value, str) and POKER_CARD.match(value) and ".shown" not in path
    }
    assert not seen & others, seen & others


# --- the detail ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_reader_sees_only_their_own_cards(table, alice, bob, carol):
    state = fetch.game_state(table)
    assert state.seat("alice").risk_cards and hidden_poker_cards(state, "alice")
    hand = state.contest.hand
    assert "alice" in [s.player for s in hand.seats]

    bodies = {}
    for user in (alice, bob, carol, None):
        viewer = user.get_username() if user is not None else None
        body = bodies[viewer] = get(user, f"/api/games/{table.pk}")
        assert body["view"]["you"] == viewer
        assert_view_hides(body["view"], state, viewer)
        shown = body["view"]["contest"]["hand"]
        assert shown["deck_size"] == len(hand.deck) and "deck" not in shown
        assert body["seed_commitment"] == table.seed_commitment  # the commitment is public
    assert bodies["alice"]["view"]["seats"][0]["poker_hand"] == state.seat("alice").poker_cards
    mine = next(p for p in bodies["alice"]["view"]["contest"]["hand"]["players"]
                if p["player"] == "alice")  # fmt: skip
    assert mine["hand"] == list(next(s for s in hand.seats if s.player == "alice").hand)
    assert_no_secrets(table, *bodies.values())


@pytest.mark.django_db
def test_the_lobby_list_shows_no_seed(table, alice, bob):
    for user in (alice, bob, None):
        body = get(user, "/api/games")
        listed = [g for g in body["games"] if g["id"] == table.pk]
        assert listed and listed[0]["seed_commitment"] == table.seed_commitment
        assert_no_secrets(table, body)
    assert_no_secrets(table, get(bob, "/api/games?status=running"))


# --- the log --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_log_strips_others_private_cards_and_every_roll(table, alice, bob):
    private = private_events_of(table, "alice")
    assert private
    raw = {e.sequence: e for e in ActionLog.objects.filter(game=table)}
    mine = get(alice, f"/api/games/{table.pk}/events")
    theirs = get(bob, f"/api/games/{table.pk}/events")
    anyone = get(None, f"/api/games/{table.pk}/events")

    for body in (mine, theirs, anyone):
        assert [e["sequence"] for e in body["entries"]] == sorted(raw)
        for entry in body["entries"]:
            assert "rolls" not in entry and "context" not in entry
    by_seq = {
        name: {e["sequence"]: e for e in body["entries"]}
        for name, body in (("alice", mine), ("bob", theirs), ("anyone", anyone))
    }
    for sequence, index in private:
        logged = raw[sequence].events[index]
        assert by_seq["alice"][sequence]["events"][index] == logged
        for reader in ("bob", "anyone"):
            event = by_seq[reader][sequence]["events"][index]
            assert not {"cards", "discards", "private_to"} & set(event), event
            assert event["type"] == logged["type"]
    for sequence, entry in raw.items():
        if entry.actor == "alice" and entry.action["type"] in ("poker", "discard"):
            for reader in ("bob", "anyone"):
                assert "cards" not in by_seq[reader][sequence]["action"]
    assert_no_secrets(table, mine, theirs, anyone)
    later = get(bob, f"/api/games/{table.pk}/events?after={table.version - 1}")
    assert [e["sequence"] for e in later["entries"]] == [table.version]


# --- refusals -----------------------------------------------------------------------------------


def refused(user, game: Game, action: dict[str, Any]) -> dict[str, Any]:
    game.refresh_from_db()
    answer = client_for(user).post(
        f"/api/games/{game.pk}/actions",
        {"action": action, "expected_version": game.version},
        format="json",
    )
    assert answer.status_code in (400, 403), answer.content
    return answer.json()


def masked(body: dict[str, Any], names: list[str]) -> str:
    """The answer with each card's name masked, and the symbol a refusal gives after a card it
    names ("Peru (infantry) is not in the hand"): that is the symbol of the card the caller
    named, printed on the map's deck for all to see, so two refusals that differ only there tell
    nothing of anyone's hand (a deal where alice's card and the pile's had different symbols
    failed the comparison)."""
    text = json.dumps(body)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "<card>")
    return re.sub(r"<card> \(\w+\)", "<card>", text)


@pytest.mark.django_db
def test_refusals_tell_nothing_of_others_cards(table, alice, bob, carol):
    game = play_out(
        table,
        [alice, bob, carol],
        until=lambda g, s: s.turn is not None and s.turn.seat == "bob"
        and s.turn.controller == "bob" and s.turn.phase == "reinforce" and s.battle is None
        and s.contest is None and len(s.seat("alice").risk_cards) >= 2,
    )  # fmt: skip
    state = fetch.game_state(game)
    alice_risk = list(state.seat("alice").risk_cards)
    alice_poker = sorted(hidden_poker_cards(state, "alice"))
    deck = [c for c in state.risk_deck.draw if c != "wild"][:3]
    nobodys_poker = state.poker_deck.draw[:1]

    # Naming alice's cards is answered exactly as naming cards in the draw pile.
    hers = {"type": "turn_in", "cards": [*alice_risk[:2], deck[2]], "reward": "armies"}
    nobodys = {"type": "turn_in", "cards": deck, "reward": "armies"}
    requests = [(bob, hers), (bob, nobodys)]
    for cards in (alice_poker[:1], nobodys_poker):
        requests += [
            (bob, {"type": "discard", "cards": cards}),
            (bob, {"type": "poker", "move": "choose", "cards": cards}),
            (carol, {"type": "poker", "move": "choose", "cards": cards}),
        ]
    answers = [refused(user, game, action) for user, action in requests]

    assert answers[0]["error"] == answers[1]["error"] == "illegal_action"
    everything = [*alice_risk, *deck, *alice_poker, *nobodys_poker]
    for hers_answer, nobodys_answer in zip(answers[2:5], answers[5:8], strict=True):
        assert masked(hers_answer, everything) == masked(nobodys_answer, everything)
    assert masked(answers[0], everything) == masked(answers[1], everything)
    for (_, action), answer in zip(requests, answers, strict=True):
        text = json.dumps(answer)
        for card in [*alice_risk, *alice_poker]:
            if card not in action["cards"]:  # a refusal names only cards the request named
                assert not re.search(rf"\b{re.escape(card)}\b", text), (card, text)
    assert_no_secrets(game, *answers)


# --- leaving and joining ------------------------------------------------------------------------


def may(state: GameState, person: str, kind: str, ally: str | None = None) -> bool:
    for spec in legal_actions(state, person):
        if spec.type == kind and (ally is None or ally in spec.options.get("allies", ())):
            return True
    return False


def post(user, game: Game, action: dict[str, Any]) -> dict[str, Any]:
    game.refresh_from_db()
    answer = client_for(user).post(
        f"/api/games/{game.pk}/actions",
        {"action": action, "expected_version": game.version},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.mark.django_db
def test_a_leaver_loses_sight_of_their_old_army_and_a_late_comer_gains_it(table, alice, bob, carol):
    dave = make_user("dave")
    game = play_out(
        table,
        [alice, bob, carol],
        until=lambda g, s: bool(private_events_of(g, "bob")) and may(s, "bob", "leave"),
    )
    before = private_events_of(game, "bob")
    assert before

    left = post(bob, game, {"type": "leave"})
    assert left["events"][0]["type"] == "left"
    state = fetch.game_state(game)
    assert state.seat("bob").player is None  # an allied army now, its cards with it
    detail = get(bob, f"/api/games/{game.pk}")
    assert detail["you"]["state"] == "left" and detail["view"]["you"] is None
    assert_view_hides(detail["view"], state, None)

    game = play_out(game, [alice, carol], until=lambda g, s: may(s, "dave", "join", ally="bob"))
    joined = post(dave, game, {"type": "join", "ally": "bob"})
    join_sequence = joined["sequence"]
    drawn = next(e for e in joined["events"] if e["type"] == "cards_drawn")
    assert drawn["cards"]  # dave sees the cards his army was dealt on joining

    state = fetch.game_state(game)
    assert state.seat("bob").player == "dave"
    assert_view_hides(get(dave, f"/api/games/{game.pk}")["view"], state, "bob")
    assert_view_hides(get(bob, f"/api/games/{game.pk}")["view"], state, None)
    # Dave reads the army's private events from his join on, bob only up to his leaving.
    for reader, visible in (
        (dave, lambda seq: seq >= join_sequence),
        (bob, lambda seq: seq < left["sequence"]),
    ):
        entries = {e["sequence"]: e for e in get(reader, f"/api/games/{game.pk}/events")["entries"]}
        for sequence, index in private_events_of(game, "bob"):
            event = entries[sequence]["events"][index]
            assert ("cards" in event) == visible(sequence), (reader, sequence, event)
    assert any(seq < left["sequence"] for seq, _ in private_events_of(game, "bob"))
    assert any(seq >= join_sequence for seq, _ in private_events_of(game, "bob"))
    assert_no_secrets(game, left, joined)


# --- after the end -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_end_reveals_the_seeds(alice, bob):
    game = start_game(alice, 2, others=[bob], options={"win": "round-limit", "round_limit": 1},
                      client_seeds={"bob": CAROL_SEED})  # fmt: skip
    engine = GameSnapshot.objects.get(pk=game.pk).state["seed"]
    assert_view_hides(get(bob, f"/api/games/{game.pk}")["view"], fetch.game_state(game), "bob")
    game = play_out(game, [alice, bob])
    assert game.status == Game.Status.FINISHED

    detail = get(bob, f"/api/games/{game.pk}")
    assert detail["server_seed"] == SERVER_SEED
    assert detail["client_seeds"] == ["", CAROL_SEED]
    assert detail["view"]["seed"] == engine
    events = get(None, f"/api/games/{game.pk}/events")
    assert all("rolls" in e and "context" in e for e in events["entries"])
    replay = get(None, f"/api/games/{game.pk}/replay")
    assert replay["server_seed"] == SERVER_SEED
    assert hashlib.sha256(SERVER_SEED.encode()).hexdigest() == replay["seed_commitment"]
