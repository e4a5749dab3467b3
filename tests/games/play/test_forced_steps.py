"""Forced steps through the server (risk/RULES.md F1): when a person's one pending decision
allows exactly one action with nothing to choose, the driver takes it after the commit, as it
takes a bot's, logged with the server as its source and a ``forced`` note before its events;
``verify_game`` replays the game with the notes left out and checks each noted step was forced.
"""

from __future__ import annotations

import pytest

from combat.dice import commitment_of
from games.models import ActionLog, Game
from games.play import driver, lobby
from games.play.reads import fetch
from games.play.verify import game_verify
from risk.rules import pending_decisions
from risk.rules.forced import forced_action
from tests.games.helpers import person_step

# reset_sequences: the game is always #1. The bots' and the person's choices follow the game's
# id (games.play.driver), so without it the game played here depended on the tests run before
# it on the worker; one such game never forced a step of alice's (a CI failure).
pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

OPTIONS = {"map": "small", "win": "round-limit", "round_limit": 4}
SERVER_SEED = "forced-steps-3"  # alice gets forced rolls, move-ins and campaign ends


def _game(alice) -> Game:
    game = lobby.game_create(creator=alice, seats=2, options=OPTIONS)
    Game.objects.filter(pk=game.pk).update(
        server_seed=SERVER_SEED, seed_commitment=commitment_of(SERVER_SEED)
    )
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    return lobby.game_start(game_id=game.pk, user=alice)


def test_the_server_takes_a_persons_forced_steps_and_the_game_verifies(alice):
    game = _game(alice)
    asked_forced = 0
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        state = fetch.game_state(game)
        if any(d.player == "alice" for d in pending_decisions(state)):
            if forced_action(state, "alice") is not None:
                # the server answers it: the game says so, and the driver takes it
                asked_forced += 1
                assert game.snapshot.server_turn is True
                assert driver.step(game.pk) is True
                continue
            person_step(game, alice, state)
        else:
            assert driver.step(game.pk), "the game waits on nobody"
    assert game.status == Game.Status.FINISHED
    noted = list(
        ActionLog.objects.filter(game=game, source=ActionLog.Source.SERVER, actor="alice")
        .order_by("sequence")
        .values_list("action", "events")
    )
    assert noted, "no forced step in the whole game"
    for action, events in noted:
        assert events[0] == {"type": "forced", "player": "alice", "action": action["type"]}
        assert action["type"] in {"end_campaign", "end_turn", "roll", "move_in", "place",
                                  "place_factory", "place_ship", "mobilize", "poker"}  # fmt: skip
    report = game_verify(game)
    assert report.ok, report.lines()
    assert report.entries == game.version


def test_a_forged_note_on_a_step_with_a_choice_fails_verification(alice):
    game = _game(alice)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        state = fetch.game_state(game)
        if any(d.player == "alice" for d in pending_decisions(state)):
            if forced_action(state, "alice") is None:
                person_step(game, alice, state)
            else:
                driver.step(game.pk)
        else:
            driver.step(game.pk)
    chosen = ActionLog.objects.filter(game=game, source=ActionLog.Source.PLAYER).first()
    assert chosen is not None
    chosen.events = [{"type": "forced", "player": "alice", "action": chosen.action["type"]},
                     *chosen.events]  # fmt: skip
    chosen.save(update_fields=["events"])
    report = game_verify(game)
    assert not report.ok
    assert report.mismatch.sequence == chosen.sequence
    assert "did not force" in report.mismatch.what
