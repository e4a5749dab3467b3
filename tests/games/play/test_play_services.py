"""The services under the API: starting a game, bots answering, a seat leaving, the seed mix."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.models import ActionLog, Game, Seat
from games.play import driver, lobby, operations
from games.play.reads import fetch
from games.play.seeds import engine_seed
from risk.rules import pending_decisions


def _started_with_bots(creator, seats: int, **options) -> Game:
    game = lobby.game_create(creator=creator, seats=seats, options=options)
    lobby.game_fill_with_bots(game_id=game.pk, user=creator)
    return lobby.game_start(game_id=game.pk, user=creator)


@pytest.mark.django_db(transaction=True)
def test_it_leaves_only_alices_arrangement_pending_once_the_bots_have_answered(alice):
    game = _started_with_bots(alice, 3)

    game.refresh_from_db()
    state = fetch.game_state(game)
    assert [(d.player, d.kind) for d in pending_decisions(state)] == [("alice", "arrange")]
    arranged = ActionLog.objects.filter(game=game).order_by("sequence")
    assert [(e.actor, e.source, e.action["type"]) for e in arranged] == [
        ("bot:2", "bot", "arrange"),
        ("bot:3", "bot", "arrange"),
    ]
    assert game.version == 2
    assert [s.colour for s in game.seats.order_by("position")] == ["red", "blue", "green"]


@pytest.mark.django_db(transaction=True)
def test_a_seat_that_retires_becomes_an_allied_army_and_the_bots_finish_the_game(alice):
    """Alice leaves at once: her army is an allied army (``ai:alice`` speaks for it) and the
    two bot seats play the game out to its round limit with nobody else waiting."""
    game = _started_with_bots(alice, 3, win="round-limit", round_limit=2)
    seat = Seat.objects.get(game=game, player="alice")

    assert operations.seat_replace_with_bot(game, seat).state == Seat.State.LEFT

    game.refresh_from_db()
    seat.refresh_from_db()
    assert seat.state == Seat.State.LEFT
    assert game.status == Game.Status.FINISHED
    state = fetch.game_state(game)
    assert state.seat("alice").player is None  # the army stays, nobody plays it
    assert state.over and state.round == 3  # the round after the limit never starts
    log = ActionLog.objects.filter(game=game)
    assert log.filter(actor="alice", source="server", action__type="leave").count() == 1
    assert set(log.values_list("actor", flat=True)) <= {"alice", "bot:2", "bot:3"} | {
        f"ai:{s.id}" for s in state.seats
    }
    sequences = list(log.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, game.version + 1))
    assert game.result["ranking"][0] == game.result["winner"]


@pytest.mark.django_db(transaction=True)
def test_a_driver_step_with_nobody_waiting_on_the_server_changes_nothing(alice, bob):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)

    assert driver.step(game.pk) is False  # only people are waited for (their arrangements)
    game.refresh_from_db()
    assert game.version == 0


def test_the_engine_seed_is_the_server_seed_when_nobody_adds_one():
    assert engine_seed("ab" * 32, ["", ""]) == "ab" * 32


def test_client_seeds_are_mixed_in_seat_order_with_hmac():
    server = "00" * 32
    expected = hmac.new(server.encode(), b"|bob-seed|", hashlib.sha256).hexdigest()
    assert engine_seed(server, ["", "bob-seed", ""]) == expected
    assert engine_seed(server, ["bob-seed", "", ""]) != expected  # the order counts


@pytest.mark.django_db
def test_an_account_named_like_an_allied_army_cannot_sit(alice):
    """The engine names allied armies ally-1, ally-2, ...: a person so named would be taken for
    one, so a user made outside registration (createsuperuser) is refused a seat."""
    from games.web.exceptions import ApplicationError
    from tests.games.conftest import make_user

    impostor = make_user("ally-1")
    game = lobby.game_create(creator=alice, seats=2)

    with pytest.raises(ApplicationError) as refused:
        lobby.game_join(game_id=game.pk, user=impostor)
    assert (refused.value.code, refused.value.field) == ("reserved_username", "user")
    assert game.seats.count() == 1
