"""The wire protocol's catalog (``games.protocol``) against what the server really sends.

Every event seeded random games emit (as each seat and a spectator see them) validates against
its definition, and every definition is emitted by these games or says why it is rare; every
legal action they offer fits its type's options, and every type and optional option is offered;
the views fit ``GameView`` and the pushes fit ``UpdateMessage``; a timed game's push carries the
deadlines (so its clients need not ask for the state); ``GET /api/protocol`` serves the catalog.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from django.urls import reverse

from games.models import Deadline
from games.play import lobby
from games.play import push as broadcast
from games.protocol import events as catalog_events
from games.protocol import legal as catalog_legal
from games.protocol import schema
from games.protocol import socket as socket_messages
from games.protocol import view as game_view
from risk.rules import (
    ACTION_TYPES,
    Options,
    apply,
    events_for,
    game_dice,
    legal_actions,
    new_game,
    pending_decisions,
    view_for,
)
from risk.rules.bots import RandomBot, decide
from risk.rules.state import plain
from tests.risk.test_rules_naval import sea

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]


def seeded_games(
    count: int = 8,
    steps: int = 2500,
    *,
    seats: Callable[[int], int] = lambda g: 3 + g % 2,
    options: Callable[[int], Options] = lambda g: Options(),
    seed: str = "protocol",
):
    """(state before, state after, the action's events) of seeded random games to their end (or
    ``steps`` actions); game ``g`` has ``seats(g)`` players and ``options(g)``."""
    for g in range(count):
        rng = random.Random(g)
        state = new_game(PLAYERS[: seats(g)], seed=f"{seed}-{g}", options=options(g))
        for _ in range(steps):
            decisions = pending_decisions(state)
            if not decisions:
                break
            actor = rng.choice(decisions).player
            after, made = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
            yield state, after, made
            state = after


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_every_event_fits_its_definition_and_every_definition_is_emitted_or_rare():
    emitted: set[str] = set()
    for _, after, made in seeded_games():
        for viewer in [*PLAYERS[:4], None]:
            for event in as_json(events_for(after, made, viewer)):
                try:
                    catalog_events.validate(event)
                except msgspec.ValidationError as error:
                    raise AssertionError(f"{event}: {error}") from None
                emitted.add(event["type"])
    definitions = catalog_events.EVENTS
    assert emitted <= set(definitions)
    rare = {kind for kind, cls in definitions.items() if cls.rare}
    assert set(definitions) - emitted <= rare, "emitted by no game and not marked rare"
    assert len(definitions) == 66 and len(emitted) >= 55


def test_a_field_the_catalog_does_not_name_is_refused():
    with pytest.raises(msgspec.ValidationError, match="unknown field `colour`"):
        catalog_events.validate(
            {"type": "placed", "seat": "a", "territory": "Peru", "armies": 3, "colour": "red"}
        )
    with pytest.raises(msgspec.ValidationError, match="Expected `int`, got `str`"):
        catalog_events.validate({"type": "placed", "seat": "a", "territory": "Peru", "armies": "3"})


#: Legal action types the games below never offer, each with why. None today: a type added
#: here must say why random games cannot reach it (and leaves once they do).
NEVER_OFFERED: dict[str, str] = {}


def offered_legal_actions():
    """Every legal action seeded random games of 3 to 6 seats offer (with ships, the ally
    contest's poker, mobilization, allied armies and naval battles), as JSON: to the seats the
    game waits for, to one more seat in turn and to a spectator (``zed``, offered ``join``)."""

    def options(g: int) -> Options:
        return Options(reveal_once=g % 2 == 1, revision=1 + g % 2, min_commitment=2 + g % 3 // 2)

    games = seeded_games(6, 1000, seats=lambda g: 3 + g % 4, options=options, seed="legal")
    for i, (state, _, _) in enumerate(games):
        seated = [s.player for s in state.seats if s.player]
        askers = {d.player for d in pending_decisions(state)} | {seated[i % len(seated)], "zed"}
        for player in sorted(askers):
            for spec in legal_actions(state, player):
                yield as_json(plain(spec))
    # A naval flanking attack needs two crewed ships in an enemy's ocean, which random games
    # seldom gather: the naval rules' own fleet (tests/risk/test_rules_naval.py) offers it.
    fleet = sea(
        A1=("alice", "Pacific:Japan", 3),
        A2=("alice", "Pacific:Mongolia", 2),
        B1=("bob", "Pacific:Kamchatka", 2),
    )
    for spec in legal_actions(fleet, "alice"):
        yield as_json(plain(spec))


def set_fields(value: Any, found: set[str]) -> None:
    """Adds ``Struct.field`` for each field of ``value`` (and of the structs in it) that is set."""
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            field = getattr(value, name)
            if field is not msgspec.UNSET:
                found.add(f"{type(value).__name__}.{name}")
                set_fields(field, found)
    elif isinstance(value, list | tuple):
        for item in value:
            set_fields(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            set_fields(item, found)


def test_every_legal_action_fits_its_options_and_every_type_and_option_is_offered():
    offered: set[str] = set()
    filled: set[str] = set()
    for action in offered_legal_actions():
        try:
            typed = catalog_legal.validate(action)
        except msgspec.ValidationError as error:
            raise AssertionError(f"{action}: {error}") from None
        offered.add(action["type"])
        set_fields(typed, filled)
    definitions = set(catalog_legal.LEGAL)
    assert set(catalog_legal.BUILT_FROM.values()) <= definitions
    assert definitions | set(catalog_legal.BUILT_FROM) == set(ACTION_TYPES), (
        "an engine action type without its legal options"
    )
    assert definitions - offered == set(NEVER_OFFERED), "offered by no game and not listed"
    optional = {
        f"{cls.__name__}.{f.name}"
        for cls in vars(catalog_legal).values()
        if isinstance(cls, type) and issubclass(cls, msgspec.Struct)
        for f in msgspec.structs.fields(cls)
        if f.default is msgspec.UNSET
    }
    assert len(optional) == 11 and optional <= filled, optional - filled


def test_a_legal_action_is_typed_by_its_type():
    place = {"type": "place", "options": {"territories": ["Peru"], "min": 1, "max": 3}}
    assert catalog_legal.validate(place) == catalog_legal.LegalPlace(
        options=catalog_legal.PlaceOptions(territories=["Peru"], min=1, max=3)
    )
    assert catalog_legal.validate({"type": "retreat", "options": {}}) == (
        catalog_legal.LegalRetreat()
    )
    with pytest.raises(msgspec.ValidationError, match=r"unknown field `colour` - at `\$.options`"):
        catalog_legal.validate({**place, "options": {**place["options"], "colour": "red"}})
    with pytest.raises(msgspec.ValidationError, match="Object missing required field `stations`"):
        catalog_legal.validate({"type": "place_ship", "options": {}})
    with pytest.raises(msgspec.ValidationError, match="Invalid value 'fly'"):
        catalog_legal.validate({"type": "fly", "options": {}})
    attack = {"targets": {"Peru": ["Brazil"]}, "room": {"Brazil": {"normal": [1, 4, 5]}},
              "modes": {"Peru": ["normal"]}}  # fmt: skip
    with pytest.raises(msgspec.ValidationError, match="Expected `array` of length 2"):
        catalog_legal.validate({"type": "attack", "options": attack})


def test_views_and_pushes_fit_their_definitions():
    checked = 0
    for i, (before, after, made) in enumerate(seeded_games(count=2, steps=600)):
        if i % 5:
            continue
        for viewer in ["alice", "bob", None]:
            game_view.validate(as_json(view_for(after, viewer)))
        messages = broadcast.update_messages(
            before, after, made, ["alice", None], version=i + 1, sequence=i + 1, status="running",
            pending=[{"player": "bob", "seat": "bob", "kind": "attack", "deadline": None}],
        )  # fmt: skip
        for message in messages.values():
            msgspec.convert(as_json(message), socket_messages.ServerMessage, strict=True)
            checked += 1
    assert checked > 100


def test_a_finished_games_view_fits_its_definition_and_reveals_the_seed():
    """Once over, the view adds the server seed (so every roll can be checked): typed too."""
    options = Options(win="round-limit", round_limit=1)
    *_, (_, after, _) = seeded_games(
        count=1, steps=5000, seats=lambda g: 3, options=lambda g: options
    )
    assert after.over
    for viewer in ["alice", None]:
        assert game_view.validate(as_json(view_for(after, viewer))).seed == after.seed


@pytest.mark.django_db
def test_a_timed_game_pushes_its_deadlines_and_an_untimed_one_does_not(
    alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    pushed: list[dict[str, Any]] = []

    async def record(messages: list[tuple[str, dict[str, Any]]]) -> None:
        pushed.extend(message for _, message in messages)

    monkeypatch.setattr(broadcast, "_send_all", record)
    games = {}
    for time_control, minutes in (("live", 5), ("untimed", None)):
        game = lobby.game_create(
            creator=alice, seats=3, time_control=time_control, minutes=minutes, max_timeouts=3
        )
        lobby.game_join(game_id=game.pk, user=bob)
        lobby.game_fill_with_bots(game_id=game.pk, user=alice)
        with django_capture_on_commit_callbacks(execute=True):
            lobby.game_start(game_id=game.pk, user=alice)
        games[time_control] = game
    timed = [m for m in pushed if m["type"] == "update" and "pending" in m]
    deadlines = {
        d.seat.player: d.due_at.isoformat()
        for d in Deadline.objects.filter(game=games["live"], status=Deadline.Status.OPEN)
    }
    assert deadlines.keys() == {"alice", "bob"}  # the people, not the bot
    assert timed, "no update of the timed game carried its pending decisions"
    start = timed[0]["pending"]
    assert {p["player"]: p["deadline"] for p in start if p["deadline"]} == deadlines
    untimed = [m for m in pushed if m["type"] == "update" and m not in timed]
    assert untimed and all("pending" not in m for m in untimed)


def test_the_catalog_is_served_with_its_schema(client):
    response = client.get(reverse("protocol"))
    assert response.status_code == 200
    body = response.json()
    assert body["events"]["placed"] == {
        "line": "{seat} places {armies} on {territory}",
        "summary": "{seat} placed {armies} on {territory}",
    }
    assert body["events"]["attack"]["summary"] is None  # told as the battle's one line
    assert "end_turn" in body["quiet_actions"]
    defs = body["schema"]["$defs"]
    assert defs["Event"]["discriminator"]["mapping"]["placed"] == "#/$defs/PlacedEvent"
    assert {"GameView", "SocketClientMessage", "SocketServerMessage"} <= set(defs)
    assert body == as_json(schema.catalog())
