"""Deadlines of timed games: reminders, expiry by the bot, leaving after timeouts, the sweep,
pause/resume/extend, and the embedded sweeper. The clock is frozen (time-machine) and moved by
hand; tasks with an ETA are not run inline, so the sweep is what claims due work here."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

from config.celery import app as celery_app
from games import sweeper
from games.models import ActionLog, Deadline, Game, GameSnapshot, Seat
from games.play import clock, deadlines, driver, effects, lobby, operations, push, submit, tasks
from games.play.reads import fetch
from games.web.exceptions import ApplicationError, ConflictError
from risk.rules import pending_decisions
from risk.rules.bots import RandomBot, decide

START = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)
ALLOWANCE = timedelta(minutes=5)
JUST_PAST_DUE = ALLOWANCE + timedelta(seconds=1)


# --- helpers (test_notify and test_admin use them too) ----------------------------------------


@pytest.fixture(autouse=True)
def _nobody_connected() -> Iterator[None]:
    """An empty cache: presence left by another test (game ids repeat after each rollback)
    would make a player look connected and silence their mail. Only the in-process cache is
    cleared: clearing a Redis cache is FLUSHDB, which would wipe a developer's Redis."""
    local = isinstance(cache, LocMemCache)
    if local:
        cache.clear()
    yield
    if local:
        cache.clear()


@pytest.fixture
def frozen() -> Iterator[Any]:
    """The clock stands at START until the test moves it (``frozen.shift(...)``)."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def commits(django_capture_on_commit_callbacks) -> Callable[[], Any]:
    """``with commits():`` runs the on-commit hooks (pushes, bots, mail tasks) at the end of
    the block, as a real commit would; the test's own transaction never commits."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def new_game(creator, *, others=(), seats=3, max_timeouts=3, minutes=5, client_seed="", **kw):
    """A lobby game with ``creator`` and ``others`` seated and the rest bots (not started)."""
    game = lobby.game_create(
        creator=creator,
        seats=seats,
        time_control=kw.pop("time_control", "live"),
        minutes=minutes,
        max_timeouts=max_timeouts,
        client_seed=client_seed,
        **kw,
    )
    for user in others:
        lobby.game_join(game_id=game.pk, user=user, client_seed=f"{user.get_username()}-seed")
    lobby.game_fill_with_bots(game_id=game.pk, user=creator)
    return game


def started(commits, creator, **kw) -> Game:
    """A started game; the bots have set up (their on-commit hooks ran)."""
    game = new_game(creator, **kw)
    with commits():
        lobby.game_start(game_id=game.pk, user=creator)
    game.refresh_from_db()
    return game


def waiting(game: Game) -> set[str]:
    game.refresh_from_db()
    if game.status != Game.Status.RUNNING:
        return set()
    return set(clock.waited_for(fetch.game_state(game)))


def move(commits, game: Game, user, *, salt: int = 0) -> dict[str, Any]:
    """One legal decision of ``user`` chosen by the random player, submitted as a client would."""
    name = user.get_username()
    for attempt in range(30):
        game.refresh_from_db()
        state = fetch.game_state(game)
        action = decide(RandomBot(random.Random(f"{salt}:{game.version}:{attempt}")), state, name)
        body = action.to_dict()
        body.pop("player")
        try:
            with commits():
                return submit.action_submit(
                    game_id=game.pk, user=user, action=body, expected_version=game.version
                )
        except ApplicationError:
            continue  # a rare pick the redacted state allowed; draw again
    raise AssertionError(f"no legal move for {name}")


def play_while_waited(commits, game: Game, user, *, limit: int = 300) -> None:
    """``user`` plays until the game no longer waits for them."""
    for step in range(limit):
        if user.get_username() not in waiting(game):
            return
        move(commits, game, user, salt=step)
    raise AssertionError("still waited for")


def open_deadline(game: Game, user) -> Deadline | None:
    return Deadline.objects.filter(game=game, seat__user=user, status=Deadline.Status.OPEN).first()


def sweep(commits) -> dict[str, int]:
    with commits():
        return deadlines.deadlines_sweep()


# --- opening ----------------------------------------------------------------------------------


def test_a_deadline_opens_for_each_person_at_the_start_and_none_for_bots(
    alice, bob, commits, frozen
):
    game = started(commits, alice, others=[bob])

    rows = Deadline.objects.filter(game=game).select_related("seat").order_by("seat__position")
    assert [(d.seat.player, d.kind, d.status) for d in rows] == [
        ("alice", "arrange", "open"),
        ("bob", "arrange", "open"),
    ]
    for d in rows:
        assert d.opened_at == START
        assert d.remind_at == START + timedelta(minutes=4)  # 80% of 5 minutes
        assert d.due_at == START + ALLOWANCE
        assert d.reminded_at is None


def test_an_untimed_game_has_no_deadlines(alice, commits):
    game = started(commits, alice, time_control="untimed", minutes=None)
    assert waiting(game) == {"alice"}
    assert Deadline.objects.filter(game=game).count() == 0


# --- reminder -----------------------------------------------------------------------------------


def test_the_sweep_reminds_once_past_80_percent(alice, commits, frozen, monkeypatch):
    notices = []
    monkeypatch.setattr(push, "notice", lambda *args: notices.append(args))
    game = started(commits, alice)
    mail.outbox.clear()  # the "your turn" of the start
    deadline = open_deadline(game, alice)

    frozen.shift(timedelta(minutes=3, seconds=59))
    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    assert mail.outbox == []

    frozen.shift(timedelta(seconds=2))  # 4:01, past 80%
    assert sweep(commits) == {"reminded": 1, "expired": 0, "kicked": 0, "failed": 0}
    assert len(mail.outbox) == 1
    reminder = mail.outbox[0]
    assert reminder.to == ["alice@example.org"]
    assert reminder.subject == f"[Warboard] Reminder: 59 seconds left in Game {game.pk}"
    assert "2030-03-01 12:05 UTC" in reminder.body
    assert f"http://127.0.0.1:8000/games/{game.pk}" in reminder.body
    deadline.refresh_from_db()
    assert deadline.reminded_at == START + timedelta(minutes=4, seconds=1)
    seat = Seat.objects.get(game=game, player="alice")
    assert notices == [
        (
            game.pk,
            seat.position,
            {
                "type": "notice",
                "kind": "reminder",
                "due_at": "2030-03-01T12:05:00+00:00",
                "game": game.pk,
            },
        )
    ]

    frozen.shift(timedelta(seconds=30))
    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    assert len(mail.outbox) == 1
    assert deadlines.deadline_remind(deadline.pk) is False  # the task, late: claimed already
    assert len(notices) == 1


def test_the_reminder_mail_respects_the_opt_out_but_the_socket_notice_goes(
    alice, commits, frozen, monkeypatch
):
    notices = []
    monkeypatch.setattr(push, "notice", lambda *args: notices.append(args))
    alice.profile.email_reminder = False
    alice.profile.save()
    game = started(commits, alice)
    mail.outbox.clear()

    frozen.shift(timedelta(minutes=4, seconds=1))
    assert sweep(commits)["reminded"] == 1
    assert mail.outbox == []
    assert [n[2]["kind"] for n in notices] == ["reminder"]
    assert open_deadline(game, alice).reminded_at is not None


def test_a_reminder_task_that_runs_early_does_nothing(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(timedelta(minutes=1))
    assert deadlines.deadline_remind(deadline.pk) is False
    deadline.refresh_from_db()
    assert deadline.reminded_at is None


# --- expiry -------------------------------------------------------------------------------------


def test_past_due_the_sweep_claims_the_deadline_and_the_bot_decides(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    assert waiting(game) == {"alice"}

    frozen.shift(JUST_PAST_DUE)
    assert sweep(commits) == {"reminded": 0, "expired": 1, "kicked": 0, "failed": 0}

    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.EXPIRED
    assert deadline.closed_at == START + JUST_PAST_DUE
    timed_out = ActionLog.objects.filter(game=game, source=ActionLog.Source.TIMEOUT)
    assert timed_out.exists()
    assert set(timed_out.values_list("actor", flat=True)) == {"alice"}
    assert timed_out.order_by("sequence").first().action["type"] == "arrange"
    seat = Seat.objects.get(game=game, player="alice")
    assert (seat.timeouts, seat.state) == (1, Seat.State.AWAY)
    # The bots played on (inline tasks) until the game came back to alice, with a new clock.
    game.refresh_from_db()
    if "alice" in waiting(game):
        fresh = open_deadline(game, alice)
        assert fresh is not None and fresh.pk != deadline.pk
        assert fresh.due_at == START + JUST_PAST_DUE + ALLOWANCE
    else:
        assert game.status == Game.Status.FINISHED


def test_expiry_is_claimed_exactly_once(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(JUST_PAST_DUE)

    with commits():
        assert deadlines.deadline_expire(deadline.pk) is True
    entries = ActionLog.objects.filter(game=game).count()
    with commits():
        assert deadlines.deadline_expire(deadline.pk) is False  # the sweep, or a retried task
    assert ActionLog.objects.filter(game=game).count() == entries
    assert Seat.objects.get(game=game, player="alice").timeouts == 1
    assert sweep(commits)["expired"] == 0 or open_deadline(game, alice) is None


def test_expiry_claims_marks_the_seat_and_kicks_the_driver_which_answers_for_the_player(
    alice, commits, frozen, monkeypatch
):
    """The expiry itself takes no decision. It claims the deadline (now overdue),
    counts the timeout and queues the driver; the driver then answers for alice until the game
    stops waiting on her, and the row becomes expired."""
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    kicked: list[int] = []
    monkeypatch.setattr(effects, "kick_driver", kicked.append)
    frozen.shift(JUST_PAST_DUE)

    with commits():
        assert deadlines.deadline_expire(deadline.pk) is True

    assert kicked == [game.pk]
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.OVERDUE
    seat = Seat.objects.get(game=game, player="alice")
    assert (seat.timeouts, seat.state) == (1, Seat.State.AWAY)
    assert not ActionLog.objects.filter(game=game, source=ActionLog.Source.TIMEOUT).exists()
    assert driver.wanted(game.pk) is True
    monkeypatch.undo()

    with commits():
        taken = driver.advance(game.pk)

    timed_out = ActionLog.objects.filter(game=game, source=ActionLog.Source.TIMEOUT)
    assert timed_out.count() >= 1 and set(timed_out.values_list("actor", flat=True)) == {"alice"}
    assert taken >= timed_out.count()  # the bots' replies count too
    deadline.refresh_from_db()
    assert (deadline.status, deadline.closed_at) == (Deadline.Status.EXPIRED, START + JUST_PAST_DUE)
    # No deadline opened for alice while the bot answered for her: at most the one of her
    # next wait, opened after the stretch ended.
    later = Deadline.objects.filter(game=game, seat=seat).exclude(pk=deadline.pk)
    assert later.count() == (1 if "alice" in waiting(game) else 0)


def test_a_player_back_while_overdue_ends_the_stretch_and_gets_a_fresh_deadline(
    alice, commits, frozen
):
    """The expiry is claimed but the driver has not run yet (its task is queued): alice acts
    herself first. Her count starts again, the overdue row expires, the driver has nothing to
    do for her, and while the game still waits on her she has a fresh allowance."""
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(JUST_PAST_DUE)
    assert deadlines.deadline_expire(deadline.pk) is True  # outside commits(): not kicked
    assert Deadline.objects.get(pk=deadline.pk).status == Deadline.Status.OVERDUE

    move(commits, game, alice)

    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.EXPIRED
    seat = Seat.objects.get(game=game, player="alice")
    assert (seat.timeouts, seat.state) == (0, Seat.State.ACTIVE)
    assert not ActionLog.objects.filter(game=game, source=ActionLog.Source.TIMEOUT).exists()
    if "alice" in waiting(game):
        fresh = open_deadline(game, alice)
        assert fresh is not None and fresh.due_at == START + JUST_PAST_DUE + ALLOWANCE
        assert driver.step(game.pk) is False  # the game waits on alice herself again


def test_the_sweep_requeues_the_driver_of_a_game_left_waiting_on_a_bot(
    alice, commits, frozen, monkeypatch
):
    """The start's driver task is lost (a broker outage): the bots' set-up is pending and the
    state row says the game waits on the server. The sweep leaves it alone for
    ``stalled_seconds()``, then queues the driver, which answers the bots."""
    game = new_game(alice)
    lost: list[int] = []
    monkeypatch.setattr(effects, "kick_driver", lost.append)
    with commits():
        lobby.game_start(game_id=game.pk, user=alice)
    assert lost == [game.pk]
    monkeypatch.undo()
    row = GameSnapshot.objects.get(pk=game.pk)
    assert row.server_turn is True and row.version == 0
    bots_pending = {d.player for d in pending_decisions(fetch.game_state(game))} - {"alice"}
    assert bots_pending == {"bot:2", "bot:3"}

    assert deadlines.stalled_seconds() == 60  # the default
    frozen.shift(timedelta(seconds=59))
    assert sweep(commits)["kicked"] == 0  # not yet: the task may still come
    frozen.shift(timedelta(seconds=2))
    assert sweep(commits)["kicked"] == 1

    row.refresh_from_db()
    assert row.server_turn is False and row.version == 2  # both bots arranged
    assert waiting(game) == {"alice"}
    assert sweep(commits)["kicked"] == 0


def test_a_game_flagged_as_waiting_on_the_server_for_nothing_is_kicked_once(alice, commits, frozen):
    """As migration 0005 leaves a running game that waits on a person: the sweep queues its
    driver once, which finds nothing to answer and clears the flag (it was kicked every
    minute before)."""
    game = started(commits, alice)
    assert waiting(game) == {"alice"}
    GameSnapshot.objects.filter(pk=game.pk).update(server_turn=True)
    frozen.shift(timedelta(seconds=61))
    assert sweep(commits)["kicked"] == 1
    row = GameSnapshot.objects.get(pk=game.pk)
    assert (row.server_turn, row.version) == (False, 2)  # nothing played: the bots' set-up
    frozen.shift(timedelta(seconds=61))
    assert sweep(commits)["kicked"] == 0


def test_an_expiry_task_that_runs_before_the_due_time_does_nothing(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(ALLOWANCE - timedelta(seconds=1))
    assert deadlines.deadline_expire(deadline.pk) is False
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.OPEN
    assert not ActionLog.objects.filter(game=game, source=ActionLog.Source.TIMEOUT).exists()


def test_the_expire_and_remind_tasks_call_the_services(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(timedelta(minutes=4, seconds=30))
    assert tasks.deadline_remind.apply((deadline.pk,)).get() is True
    frozen.shift(timedelta(minutes=1))
    with commits():
        assert tasks.deadline_expire.apply((deadline.pk,)).get() is True
    frozen.shift(JUST_PAST_DUE)
    counts = tasks.sweep_deadlines.apply().get()
    assert set(counts) == {"reminded", "expired", "kicked", "failed"}


def test_after_max_timeouts_in_a_row_the_seat_leaves_and_its_army_is_allied(
    alice, bob, commits, frozen
):
    game = started(commits, alice, others=[bob], max_timeouts=2)
    expiries = 0
    for _ in range(500):
        seat = Seat.objects.get(game=game, player="alice")
        if seat.state == Seat.State.LEFT or game.status != Game.Status.RUNNING:
            break
        now_waiting = waiting(game)
        if "bob" in now_waiting:
            move(commits, game, bob)  # bob plays for himself: only alice runs out of time
            sweep(commits)  # the clock has not moved: only an overdue leave can happen here
        elif "alice" in now_waiting:
            frozen.shift(JUST_PAST_DUE)
            assert sweep(commits)["expired"] == 1
            expiries += 1
            seat.refresh_from_db()
            assert seat.timeouts == expiries  # consecutive: alice never acted herself
            assert seat.state in (Seat.State.AWAY, Seat.State.LEFT)
            assert seat.state == Seat.State.AWAY or expiries >= 2  # never before the limit
    else:
        raise AssertionError("alice never left")

    seat = Seat.objects.get(game=game, player="alice")
    assert seat.state == Seat.State.LEFT
    # Usually exactly 2; one more when the rules refused the leave (alice defending against
    # bob) and alice came up again before bob finished the battle.
    assert seat.timeouts >= 2
    state = fetch.game_state(game)
    army = state.seat("alice")
    assert army.player is None  # an allied army now, played by the AI
    assert army.actor == "ai:alice"
    leave = ActionLog.objects.get(game=game, action__type="leave")
    assert (leave.actor, leave.source) == ("alice", ActionLog.Source.SERVER)
    assert open_deadline(game, alice) is None
    assert "alice" not in waiting(game)


def test_the_sweep_lets_a_seat_at_its_timeout_limit_leave_when_the_rules_allow(alice, bob, commits):
    """A leave the rules refused at the last timeout (mid-battle) is retried by the sweep."""
    game = started(commits, alice, others=[bob], max_timeouts=2)
    Seat.objects.filter(game=game, player="alice").update(timeouts=2, state=Seat.State.AWAY)
    Seat.objects.filter(game=game, player="bob").update(timeouts=1, state=Seat.State.AWAY)

    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 1, "failed": 0}

    assert Seat.objects.get(game=game, player="alice").state == Seat.State.LEFT
    assert Seat.objects.get(game=game, player="bob").state == Seat.State.AWAY  # under the limit
    assert fetch.game_state(game).seat("alice").player is None
    assert sweep(commits)["kicked"] == 0


def test_acting_yourself_resets_the_timeouts(alice, commits, frozen):
    game = started(commits, alice)
    frozen.shift(JUST_PAST_DUE)
    assert sweep(commits)["expired"] == 1
    seat = Seat.objects.get(game=game, player="alice")
    assert (seat.timeouts, seat.state) == (1, Seat.State.AWAY)
    assert waiting(game) == {"alice"}  # the bots played round to her again

    move(commits, game, alice)

    seat.refresh_from_db()
    assert (seat.timeouts, seat.state) == (0, Seat.State.ACTIVE)


# --- pause, resume, extend ------------------------------------------------------------------------


def test_pause_stops_expiry_and_resume_shifts_deadlines_by_the_paused_time(
    alice, commits, frozen, monkeypatch
):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(timedelta(minutes=2))
    with commits():
        operations.game_pause(game)
    game.refresh_from_db()
    assert (game.status, game.paused_at) == (Game.Status.PAUSED, START + timedelta(minutes=2))
    with pytest.raises(ConflictError) as refused:
        submit.action_submit(
            game_id=game.pk, user=alice, action={"type": "end_turn"}, expected_version=game.version
        )
    assert refused.value.code == "not_running"

    frozen.shift(timedelta(minutes=30))
    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    assert deadlines.deadline_expire(deadline.pk) is False
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.OPEN

    scheduled = []
    monkeypatch.setattr(effects, "schedule", lambda d: scheduled.append((d.pk, d.due_at)))
    with commits():
        operations.game_resume(game)
    assert scheduled == [(deadline.pk, START + ALLOWANCE + timedelta(minutes=30))]
    game.refresh_from_db()
    assert (game.status, game.paused_at) == (Game.Status.RUNNING, None)
    deadline.refresh_from_db()
    assert deadline.due_at == START + ALLOWANCE + timedelta(minutes=30)
    assert deadline.remind_at == START + timedelta(minutes=4, seconds=0) + timedelta(minutes=30)

    frozen.shift(timedelta(minutes=3) - timedelta(seconds=1))  # 2 + 3 minutes of play, less 1 s
    assert sweep(commits)["expired"] == 0
    frozen.shift(timedelta(seconds=2))
    assert sweep(commits)["expired"] == 1


def test_pause_and_resume_refuse_the_wrong_status(alice, commits):
    game = started(commits, alice)
    with pytest.raises(ConflictError):
        operations.game_resume(game)
    operations.game_pause(game)
    with pytest.raises(ConflictError):
        operations.game_pause(game)


def test_extending_a_deadline_moves_it_and_rearms_the_reminder(alice, commits, frozen, monkeypatch):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    frozen.shift(timedelta(minutes=4, seconds=30))
    assert sweep(commits)["reminded"] == 1
    scheduled = []
    monkeypatch.setattr(effects, "schedule", lambda d: scheduled.append((d.pk, d.due_at)))

    with commits():
        operations.deadline_extend(deadline, timedelta(hours=1))
    assert scheduled == [(deadline.pk, START + ALLOWANCE + timedelta(hours=1))]  # new tasks
    deadline.refresh_from_db()
    assert deadline.due_at == START + ALLOWANCE + timedelta(hours=1)
    assert deadline.remind_at == START + timedelta(minutes=4, hours=1)
    assert deadline.reminded_at is None  # a fresh warning before the new time

    frozen.shift(timedelta(minutes=1))  # past the old due time
    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    frozen.shift(timedelta(hours=1))
    assert sweep(commits) == {"reminded": 0, "expired": 1, "kicked": 0, "failed": 0}


def test_only_an_open_deadline_extends_and_only_forwards(alice, commits, frozen):
    game = started(commits, alice)
    deadline = open_deadline(game, alice)
    with pytest.raises(ApplicationError):
        operations.deadline_extend(deadline, timedelta(0))
    frozen.shift(JUST_PAST_DUE)
    sweep(commits)
    with pytest.raises(ConflictError) as refused:
        operations.deadline_extend(deadline, timedelta(days=1))
    assert refused.value.code == "deadline_closed"


# --- replace with AI, end -------------------------------------------------------------------------


def test_replacing_a_running_seat_with_the_ai_makes_it_an_allied_army(alice, bob, commits, frozen):
    game = started(commits, alice, others=[bob])
    seat = Seat.objects.get(game=game, player="bob")
    with commits():
        operations.seat_replace_with_bot(game, seat)
    seat.refresh_from_db()
    assert seat.state == Seat.State.LEFT
    assert fetch.game_state(game).seat("bob").player is None
    assert Deadline.objects.get(game=game, seat=seat).status == Deadline.Status.CANCELLED
    assert "bob" not in {d.player for d in pending_decisions(fetch.game_state(game))}
    with pytest.raises(ConflictError):
        operations.seat_replace_with_bot(game, seat)


def test_replacing_a_lobby_seat_with_the_ai_makes_it_a_bot_seat(alice, bob):
    game = new_game(alice, others=[bob])
    seat = Seat.objects.get(game=game, player="bob")
    operations.seat_replace_with_bot(game, seat)
    seat.refresh_from_db()
    assert (seat.user, seat.player, seat.is_bot) == (None, f"bot:{seat.position + 1}", True)


def test_ending_a_game_cancels_its_deadlines(alice, bob, commits, frozen):
    game = started(commits, alice, others=[bob])
    frozen.shift(timedelta(minutes=1))
    with commits():
        operations.game_end(game, "abandoned")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at == START + timedelta(minutes=1)
    assert game.result == {"ended_by": "admin", "reason": "abandoned"}
    assert set(Deadline.objects.filter(game=game).values_list("status", flat=True)) == {"cancelled"}
    frozen.shift(timedelta(hours=1))
    assert sweep(commits) == {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    with pytest.raises(ConflictError):
        operations.game_end(game, "again")


# --- beat and the embedded sweeper -------------------------------------------------------------


def test_celery_beat_runs_the_sweep_every_deadline_sweep_seconds(settings):
    entry = celery_app.conf.beat_schedule["games.sweep_deadlines"]
    assert entry["task"] == "games.sweep_deadlines"
    assert entry["schedule"] == float(settings.DEADLINE_SWEEP_SECONDS) == 60.0
    assert "games.sweep_deadlines" in celery_app.tasks


@pytest.mark.parametrize(
    ("argv", "server"),
    [
        (["/srv/.venv/bin/daphne", "-b", "0.0.0.0", "config.asgi:application"], True),
        (["/usr/lib/python3/site-packages/daphne/__main__.py", "config.asgi:application"], True),
        (["manage.py", "runserver"], True),
        (["manage.py", "migrate"], False),
        (["/srv/.venv/bin/pytest", "tests"], False),
        (["/srv/.venv/bin/celery", "-A", "config", "worker"], False),
        ([], False),
    ],
)
def test_only_the_server_process_runs_the_embedded_sweeper(argv, server):
    assert sweeper.server_process(argv) is server


def test_the_embedded_sweeper_sweeps_periodically_and_starts_once(monkeypatch):
    swept = threading.Event()
    calls = []

    def fake_sweep():
        calls.append(1)
        if len(calls) >= 2:
            swept.set()
        return {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}

    monkeypatch.setattr(deadlines, "deadlines_sweep", fake_sweep)
    monkeypatch.setattr(sweeper, "close_old_connections", lambda: None)
    try:
        assert sweeper.sweeper_start(interval=0.01) is True
        assert sweeper.sweeper_start(interval=0.01) is False  # one per process
        assert swept.wait(timeout=5)
    finally:
        sweeper.sweeper_stop()
    assert len(calls) >= 2
    assert sweeper._sweeper is None


def test_the_embedded_sweeper_also_records_lost_tournament_results(monkeypatch):
    """The embedded default has no beat: its sweeper runs all three of beat's sweeps."""
    recorded = threading.Event()
    quiet = {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    monkeypatch.setattr(deadlines, "deadlines_sweep", lambda: quiet)
    monkeypatch.setattr(sweeper.clock, "rooms_sweep", lambda: {"reminded": 0})
    queued = []

    def enqueue(name, *args, **kwargs):
        queued.append(name)
        recorded.set()

    monkeypatch.setattr(sweeper, "enqueue", enqueue)
    monkeypatch.setattr(sweeper, "close_old_connections", lambda: None)
    try:
        assert sweeper.sweeper_start(interval=0.01) is True
        assert recorded.wait(timeout=5)
    finally:
        sweeper.sweeper_stop()
    assert queued[0] == "games.sweep_tournaments"
