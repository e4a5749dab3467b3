"""The hooks where features meet: a finished game or room reaches ratings and tournaments
through ``games.hooks``, after the commit, and live play and rooms import neither."""

from __future__ import annotations

import logging

import pytest

from games import hooks
from games.hooks import GameFinished, Hook, RoomFinished
from games.play import operations
from games.ratings import receivers as rating_receivers
from games.tournaments import receivers as tournament_receivers
from tests.games.helpers import start_game


@pytest.fixture
def queued(monkeypatch) -> list[tuple[object, ...]]:
    """Every task the ratings' and tournaments' receivers queue, by name, instead of running."""
    seen: list[tuple[object, ...]] = []

    def enqueue(name: str, *args: object, **kwargs: object) -> None:
        seen.append((name, *args))

    monkeypatch.setattr(rating_receivers, "enqueue", enqueue)
    monkeypatch.setattr(tournament_receivers, "enqueue", enqueue)
    return seen


def test_a_hook_calls_its_receivers_in_order_and_survives_one_that_fails(caplog):
    hook: Hook[int] = Hook("on_test")
    calls: list[str] = []

    def first(event: int) -> None:
        calls.append(f"first {event}")
        raise RuntimeError("broker down")

    def second(event: int) -> None:
        calls.append(f"second {event}")

    hook.register(first)
    hook.register(second)
    hook.register(first)  # once only
    with caplog.at_level(logging.ERROR, logger="games.hooks"):
        hook.send(7)

    assert calls == ["first 7", "second 7"]
    assert "on_test: receiver" in caplog.text and "broker down" in caplog.text


def test_ratings_then_tournaments_receive_a_finished_game_and_room():
    """Registered in ``GamesConfig.ready``: a game is rated, then recorded at its table."""
    assert [r.__module__ for r in hooks.on_game_finished.receivers()] == [
        "games.ratings.receivers",
        "games.tournaments.receivers",
    ]
    assert [r.__module__ for r in hooks.on_room_finished.receivers()] == [
        "games.ratings.receivers",
        "games.tournaments.receivers",
    ]


def test_a_rated_game_is_rated_and_recorded_an_unrated_one_only_recorded(queued):
    hooks.on_game_finished.send(GameFinished(7, rated=True))
    hooks.on_game_finished.send(GameFinished(8, rated=False))

    assert queued == [
        ("games.rate_game", 7),
        ("games.tournament_game_over", 7),
        ("games.tournament_game_over", 8),
    ]


def test_a_rated_room_is_rated_and_recorded_an_unrated_one_only_recorded(queued):
    hooks.on_room_finished.send(RoomFinished(3, rated=True))
    hooks.on_room_finished.send(RoomFinished(4, rated=False))

    assert queued == [
        ("games.rate_room", 3),
        ("games.tournament_room_over", 3),
        ("games.tournament_room_over", 4),
    ]


def test_a_game_ended_by_an_administrator_is_announced_after_the_commit_unrated(
    alice, bob, queued, django_capture_on_commit_callbacks
):
    game = start_game(alice, 2, others=[bob])
    assert game.rated

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        operations.game_end(game, "abandoned")
    assert queued == []  # nothing before the commit

    for callback in callbacks:
        callback()
    assert queued == [("games.tournament_game_over", game.pk)]
