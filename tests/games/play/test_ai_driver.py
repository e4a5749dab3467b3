"""The server's AI: the driver plays ``risk.ai.StrategicBot`` at the game's level,
thinks with no lock held and commits only at the version it thought at; a game's AI delay
spaces its moves; hints."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import ActionLog, Game, GameSnapshot
from games.play import driver, effects, lobby
from games.play import hints as advice
from games.play.reads import fetch
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError
from risk.rules.actions import EndTurn

pytestmark = pytest.mark.django_db(transaction=True)

THREE_ROUNDS = {"win": "round-limit", "round_limit": 3}


def bots_game(alice, **kw) -> Game:
    """alice and two bots; alice then hands her seat over, so the AI plays the game out."""
    game = lobby.game_create(creator=alice, seats=3, options=THREE_ROUNDS, **kw)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    return lobby.game_start(game_id=game.pk, user=alice)


def test_each_ai_decision_is_committed_at_the_version_it_was_thought_at(alice):
    game = bots_game(alice, ai_level="normal")
    bots = ActionLog.objects.filter(game=game, source=ActionLog.Source.BOT).order_by("sequence")
    entries = list(bots.values_list("sequence", "actor", "idempotency_key"))
    assert {actor for _, actor, _ in entries} == {"bot:2", "bot:3"}  # both set up
    for sequence, actor, key in entries:
        assert key == f"ai:{sequence - 1}:{actor}"


def test_a_decision_thought_at_a_version_the_game_has_left_is_thought_again(alice, monkeypatch):
    """The AI thought at version 5; the game is at version 0 when the step locks it: nothing is
    committed and the step asks to think again. Thought again at 0, the decision commits."""
    kicked: list[int] = []
    monkeypatch.setattr(effects, "kick_driver", kicked.append)  # the start's run held back
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    game = lobby.game_start(game_id=game.pk, user=alice)
    assert (kicked, game.version) == ([game.pk], 0)  # bot:2 waited on, its run not yet taken
    stale = driver.Decision(version=5, actor="bot:2", action=EndTurn("bot:2"))
    monkeypatch.setattr(driver, "_think", lambda game_id: stale)
    assert driver.step(game.pk) is True  # not done: think again
    assert GameSnapshot.objects.get(pk=game.pk).version == 0  # nothing committed
    monkeypatch.undo()
    assert driver.advance(game.pk) == 1  # the bot's set-up, thought at version 0
    assert ActionLog.objects.get(game=game, sequence=1).idempotency_key == "ai:0:bot:2"
    assert GameSnapshot.objects.get(pk=game.pk).version == 1  # now only alice is waited on


def test_a_run_that_queues_its_sequel_returns_before_the_sequel_starts(alice, monkeypatch):
    """Runs of the driver never nest: the sequel a run queues after ``STEPS_PER_RUN`` steps
    starts once that run has returned (here one step a run: the two bots' set-ups are two
    runs, one after the other). Nested, a game whose driver kept finding work recursed a run
    deeper every ``STEPS_PER_RUN`` steps until Python's recursion limit."""
    monkeypatch.setattr(driver, "STEPS_PER_RUN", 1)
    depth, deepest, runs = 0, 0, []
    real_advance = driver.advance

    def counted(game_id: int, **kw) -> int:
        nonlocal depth, deepest
        depth += 1
        deepest = max(deepest, depth)
        try:
            taken = real_advance(game_id, **kw)
        finally:
            depth -= 1
        runs.append(taken)
        return taken

    monkeypatch.setattr(driver, "advance", counted)
    game = lobby.game_create(creator=alice, seats=3)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    lobby.game_start(game_id=game.pk, user=alice)
    assert GameSnapshot.objects.get(pk=game.pk).version == 2  # both bots have set up
    assert (runs, deepest) == ([1, 1], 1)


def test_a_driver_run_that_fails_after_the_commit_is_logged_with_its_traceback(
    alice, monkeypatch, caplog
):
    """The start is committed whatever its driver run does; the run's failure is logged with
    its traceback by the dispatcher (and by the runner), not lost."""

    def broken(game_id: int, **kw) -> int:
        raise RuntimeError("the AI crashed")

    monkeypatch.setattr(driver, "advance", broken)
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    with caplog.at_level(logging.ERROR):
        game = lobby.game_start(game_id=game.pk, user=alice)
    assert game.status == Game.Status.RUNNING
    (record,) = [r for r in caplog.records if r.name == "games.play.effects"]
    assert record.getMessage() == f"game {game.pk}: driver after the commit failed"
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError


def test_with_an_ai_delay_each_run_takes_one_step_and_queues_the_next_that_much_later(
    alice, monkeypatch
):
    queued: list[tuple[str, int, object]] = []
    monkeypatch.setattr(driver, "enqueue", lambda name, game_id, eta=None:
                        queued.append((name, game_id, eta)))  # fmt: skip
    game = lobby.game_create(creator=alice, seats=3, ai_delay_ms=800)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    before = timezone.now()
    game = lobby.game_start(game_id=game.pk, user=alice)  # its driver run: one bot sets up
    assert GameSnapshot.objects.get(pk=game.pk).version == 1
    ((name, game_id, eta),) = queued  # ... and queues the next run 0.8 s on
    assert (name, game_id) == ("games.advance", game.pk)
    assert timedelta(milliseconds=800) <= eta - before < timedelta(milliseconds=1500)
    assert driver.advance(game.pk) == 1  # that run: the other bot sets up
    assert len(queued) == 1  # only alice is waited for now: nothing more queued
    assert GameSnapshot.objects.get(pk=game.pk).version == 2


@pytest.mark.parametrize(
    ("options", "field"),
    [({"ai_level": "expert"}, "ai_level"), ({"ai_delay_ms": 10_001}, "ai_delay_ms"),
     ({"ai_delay_ms": -1}, "ai_delay_ms")],
)  # fmt: skip
def test_ai_options_out_of_range_are_refused_naming_them(alice, options, field):
    with pytest.raises(ApplicationError) as refused:
        lobby.game_create(creator=alice, seats=2, **options)
    assert refused.value.field == field


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_ai_plays_a_game_to_its_end_at_each_level(alice, bob, level):
    """alice hands her seat to the AI at once: the bots play the whole game (3 rounds)."""
    from games.models import Seat
    from games.play import operations

    game = bots_game(alice, ai_level=level)
    operations.seat_replace_with_bot(game, Seat.objects.get(game=game, player="alice"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winner"]


# --- hints ---------------------------------------------------------------------------------------


def test_a_hint_is_the_hard_ais_choice_for_the_callers_decision(alice, bob):
    game = lobby.game_create(creator=alice, seats=2, rated=False)
    lobby.game_join(game_id=game.pk, user=bob)
    game = lobby.game_start(game_id=game.pk, user=alice)
    answer = advice.game_hint(game, alice)
    assert (answer["version"], answer["player"]) == (0, "alice")
    assert answer["action"]["type"] == "arrange" and answer["action"]["player"] == "alice"
    assert answer["reasons"] == ["The hard AI's choice for this arrange decision."]
    assert advice.game_hint(fetch.game_get(game.pk), alice) == answer  # asked again: same


def test_hints_are_refused_when_off_to_strangers_and_when_nothing_is_asked(alice, bob, carol):
    game = lobby.game_create(creator=alice, seats=2, hints=False)
    lobby.game_join(game_id=game.pk, user=bob)
    game = lobby.game_start(game_id=game.pk, user=alice)
    with pytest.raises(ForbiddenError) as off:
        advice.game_hint(game, alice)
    assert off.value.code == "hints_off"

    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    game = lobby.game_start(game_id=game.pk, user=alice)
    with pytest.raises(ForbiddenError) as stranger:
        advice.game_hint(game, carol)
    assert stranger.value.code == "not_seated"
    # Two people in a rated game: the AI does not help either (hints on or not).
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    game = lobby.game_start(game_id=game.pk, user=alice)
    assert game.rated is True
    with pytest.raises(ForbiddenError) as rated:
        advice.game_hint(game, alice)
    assert rated.value.code == "hints_rated"
    game = lobby.game_create(creator=alice, seats=2, rated=False)
    lobby.game_join(game_id=game.pk, user=bob)
    game = lobby.game_start(game_id=game.pk, user=alice)
    advice_for_alice = advice.game_hint(game, alice)  # both arrange at once: each may ask
    assert advice_for_alice["player"] == "alice"
    from games.play import submit

    action = dict(advice_for_alice["action"])
    action.pop("player")
    submit.action_submit(game_id=game.pk, user=alice, action=action, expected_version=0)
    with pytest.raises(ConflictError) as nothing:
        advice.game_hint(fetch.game_get(game.pk), alice)  # she has arranged; bob has not
    assert nothing.value.code == "not_your_decision"


def test_the_hint_endpoint_answers_the_caller_and_is_throttled(alice, bob, settings):
    from rest_framework.test import APIClient

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                   "hint": "2/min"},
    }  # fmt: skip
    game = lobby.game_create(creator=alice, seats=2, rated=False)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)
    client = APIClient()
    client.force_authenticate(alice)
    first = client.get(f"/api/games/{game.pk}/hint")
    assert first.status_code == 200, first.json()
    assert first.json()["action"]["type"] == "arrange"
    assert client.get(f"/api/games/{game.pk}/hint").json() == first.json()
    refused = client.get(f"/api/games/{game.pk}/hint")
    assert (refused.status_code, refused.json()["error"]) == (429, "throttled")
    anonymous = APIClient().get(f"/api/games/{game.pk}/hint")
    assert anonymous.status_code == 401
