"""The driver's task: it answers what the game waits on the server for and hands long runs to a
fresh task."""

from __future__ import annotations

import pytest

from games.models import ActionLog, Game, Seat
from games.play import driver, lobby, operations, tasks


@pytest.mark.django_db(transaction=True)
def test_advance_takes_a_bounded_number_of_steps_and_queues_the_rest(alice, monkeypatch):
    """With 7 steps a task, a game two bots play out alone (alice has left; with one player
    left a game would end at once) is played by several tasks, none
    taking more than 7 steps, and every step is logged once."""
    monkeypatch.setattr(driver, "STEPS_PER_RUN", 7)
    runs: list[int] = []
    advance = driver.advance

    def counted(game_id: int, *, limit: int | None = None) -> int:
        taken = advance(game_id, limit=limit)
        runs.append(taken)
        return taken

    monkeypatch.setattr(driver, "advance", counted)
    game = lobby.game_create(creator=alice, seats=3, options={"win": "round-limit",
                                                              "round_limit": 1})  # fmt: skip
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    lobby.game_start(game_id=game.pk, user=alice)
    alice_seat = Seat.objects.get(game=game, player="alice")

    operations.seat_replace_with_bot(game, alice_seat)  # the bots now play it out

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert max(runs) == 7 and len(runs) > 2
    bot_entries = ActionLog.objects.filter(game=game).exclude(source="server").count()
    assert sum(runs) == bot_entries


@pytest.mark.django_db(transaction=True)
def test_advance_on_a_game_that_waits_on_people_only_does_nothing(alice, bob):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)

    assert tasks.advance.apply((game.pk,)).get() == 0
    assert tasks.run_bots.apply((game.pk,)).get() == 0  # the task's name before the per-game driver
    game.refresh_from_db()
    assert game.version == 0
