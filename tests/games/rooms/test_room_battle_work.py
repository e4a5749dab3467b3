"""Room battles priced up front, in two lanes, within each player's budget
(games.rooms.battle_work, combat.battle_notation.price).

``500 inf vs 500 inf`` once cost 4.6 s of CPU in the process's only battle slot while everyone
else's ``3 inf vs 2 inf`` was turned away with 503 ``battles_busy``. Each test here failed on the
code before the pricing: the big battle was resolved (no 400), the small one got 503 behind it,
and a player could spend any amount of solver work.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache

from combat.battle_notation import parse_battle
from combat.battle_notation.price import battle_price
from games.mail.intake import receive_mail
from games.models import InboundMail, Room, RoomEntry
from games.rooms import battle_work, journal
from games.rooms.core import battles
from games.web.exceptions import ApplicationError, ThrottledError
from tests.games.conftest import client_for
from tests.games.mail_helpers import DOMAIN, last_mail_to
from tests.games.rooms.test_rooms import seated
from tests.games.rooms.test_rooms_by_mail import reply

BIG = "250 inf vs 250 inf"  # exact odds, priced 0.38 s: the big lane
HUGE = "500 inf vs 500 inf"  # Monte Carlo, 500 runs x 1,000 units: priced 3.51 s


@pytest.fixture
def room(alice, bob, carol, settings) -> Room:
    """carol referees; alice plays Germany, bob the Soviet Union (A&A, revised, dice)."""
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    return seated(carol, alice, bob, name="Barbarossa", system="axis_allies",
                  sides=["Germany", "Soviet Union"])  # fmt: skip


def price_of(line: str) -> int:
    request = parse_battle(line, variant={"edition": "revised", "rules": "dice"})
    return battle_price(request.system, request.arguments).micros


def test_the_prices_follow_the_solvers_path():
    """The price is the solver's own count on the path it takes, in microseconds of work."""
    assert price_of("3 inf vs 2 inf") == 36  # 12 chain cells x 5 hit points, and one run
    assert price_of(BIG) == 381_506  # 63,001 cells x 500 hit points x 0.012 + 500 x 7
    assert price_of(HUGE) == 3_507_000  # (500 + 1) runs x 1,000 units x 7


def test_a_battle_past_the_price_limit_is_refused_by_name_before_any_work(room, alice):
    before = room.entries.count()
    called: list[Any] = []

    def resolve(*args: Any) -> dict[str, Any]:
        called.append(args)
        return battles.resolve(*args)

    started = time.process_time()
    with pytest.raises(ApplicationError) as refused:
        journal.request_battle(room_id=room.pk, user=alice, notation=HUGE, resolve=resolve)
    assert time.process_time() - started < 0.5
    error = refused.value
    assert (error.status, error.code, error.field) == (400, "too_large", "notation")
    assert error.extra == {"limit": 2_000_000, "estimate": 3_507_000, "unit": "microseconds"}
    assert error.message == (
        "this battle is too large to resolve in a room: its odds need about 3.51 s of solver "
        "work (Monte Carlo: 500 runs x 1,000 units); the limit is 2.00 s: split it into "
        "smaller battles"
    )
    assert called == [] and room.entries.count() == before


def test_the_api_refuses_it_as_a_400_naming_the_field_and_the_limit(room, alice):
    answer = client_for(alice).post(
        f"/api/rooms/{room.pk}/entries", {"kind": "battle", "notation": HUGE}, format="json"
    )
    assert answer.status_code == 400
    body = answer.json()
    assert (body["error"], body["field"]) == ("too_large", "notation")
    assert (body["limit"], body["estimate"]) == (2_000_000, 3_507_000)


@pytest.mark.django_db(transaction=True)
def test_a_small_battle_is_served_while_a_big_one_is_being_resolved(room, alice, bob):
    """The big battle holds the big lane (its resolver blocks until released); bob's small
    battle is rolled at once in the small lane, not turned away busy after SLOT_WAIT."""
    started, release = threading.Event(), threading.Event()
    outcome: list[Any] = []

    def slow(*args: Any) -> dict[str, Any]:
        started.set()
        assert release.wait(10)
        return {"summary": "big", "odds": {}, "result": {}}

    def big() -> None:
        try:
            outcome.append(
                journal.request_battle(room_id=room.pk, user=alice, notation=BIG, resolve=slow)
            )
        except Exception as exc:  # the assertion below shows it
            outcome.append(exc)

    thread = threading.Thread(target=big)
    thread.start()
    try:
        assert started.wait(10)
        clock = time.monotonic()
        _, result = journal.request_battle(room_id=room.pk, user=bob, notation="3 inf vs 2 inf")
        assert time.monotonic() - clock < 1.0
        assert result.kind == RoomEntry.Kind.BATTLE_RESULT and result.data["rolls"]
    finally:
        release.set()
        thread.join(10)
    assert isinstance(outcome[0], tuple), outcome  # the big battle is written too


@pytest.mark.django_db(transaction=True)
def test_a_player_runs_one_big_battle_at_a_time(room, alice, bob):
    """While alice's big battle is being resolved, her second big one is refused at once (429
    battle_running); bob's big one is not hers and waits for the lane as usual."""
    started, release = threading.Event(), threading.Event()

    def slow(*args: Any) -> dict[str, Any]:
        started.set()
        assert release.wait(10)
        return {"summary": "big", "odds": {}, "result": {}}

    thread = threading.Thread(
        target=lambda: journal.request_battle(
            room_id=room.pk, user=alice, notation=BIG, resolve=slow
        )
    )
    thread.start()
    try:
        assert started.wait(10)
        clock = time.monotonic()
        with pytest.raises(ThrottledError) as running:
            journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
        assert time.monotonic() - clock < 0.5
    finally:
        release.set()
        thread.join(10)
    assert (running.value.status, running.value.code) == (429, "battle_running")
    assert running.value.headers["Retry-After"] == "2"


def test_a_players_battle_work_is_bounded_per_window(room, alice, bob, settings):
    """Two big battles fit in a budget of 1 s of work, the third is refused with Retry-After;
    bob's budget is his own."""
    settings.ROOM_BATTLE_USER_SECONDS = 1.0
    for _ in range(2):
        journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    before = room.entries.count()
    with pytest.raises(ThrottledError) as spent:
        journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    assert (spent.value.status, spent.value.code) == (429, "battle_budget_spent")
    assert 1 <= int(spent.value.headers["Retry-After"]) <= 601
    assert "used 0.76 s of solver work" in spent.value.message
    assert "the budget is 1.00 s" in spent.value.message
    assert room.entries.count() == before
    journal.request_battle(room_id=room.pk, user=bob, notation=BIG)


def test_a_mail_of_huge_battle_lines_costs_no_solver_work(room, alice, monkeypatch):
    """Ten ``500 inf vs 500 inf`` lines once cost 43 s: the first is refused by its price, which
    stops the mail, and the answer says why."""
    monkeypatch.setattr(battles, "resolve", lambda *a: pytest.fail("a huge battle was rolled"))
    body = "Everything attacks.\n" + "\n".join(f"battle {HUGE}" for _ in range(10))
    mail.outbox.clear()
    started = time.process_time()
    result = receive_mail(reply(room, body))
    assert time.process_time() - started < 1.0
    assert (result.outcome, result.refused_line) == ("partly", f"battle {HUGE}")
    assert InboundMail.objects.get().applied == 1  # the note
    answer = last_mail_to("alice@example.org").body
    assert "battle: this battle is too large to resolve in a room" in answer
    assert "the limit is 2.00 s" in answer


#: Nothing listens on port 1: every cache call fails at once with a refused connection.
DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


def test_with_the_budgets_redis_unreachable_a_battle_is_rolled_uncounted(
    room, alice, settings, caplog
):
    settings.CACHES = DEAD_REDIS
    with caplog.at_level(logging.WARNING, logger="games.rooms.battle_work"):
        _, result = journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    assert result.kind == RoomEntry.Kind.BATTLE_RESULT and result.data["rolls"]
    warnings = {r.getMessage() for r in caplog.records if r.name.endswith("battle_work")}
    assert warnings == {
        "room battle budget unavailable (cache down); battle not counted",
        "room battle budget unavailable (cache down); big battle not marked",
    }


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_budget_is_counted_in_redis(room, alice, settings):
    """On the real Redis (shared by every web process) the window's count is the one read."""
    from django.core.cache import cache

    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    settings.ROOM_BATTLE_USER_SECONDS = 1.0
    key, _ = battle_work._window_key(alice.pk)
    cache.delete(key)  # a run before this one may have used the same user id
    for _ in range(2):
        journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    assert cache.get(key) == 2 * price_of(BIG)
    with pytest.raises(ThrottledError) as spent:
        journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    assert spent.value.code == "battle_budget_spent"
    assert cache.get(key) == 2 * price_of(BIG)  # the refused one is not counted
    assert cache.get(f"room-battle-running:{alice.pk}") is None  # no mark left behind
    cache.delete(key)


def test_a_voided_battle_is_rolled_again_whatever_the_budget(room, alice, carol, settings):
    """The re-roll is the referee's ruling on a battle accepted when it was asked for: it is
    neither refused for its price nor charged to anyone."""
    settings.ROOM_BATTLE_USER_SECONDS = 0.5
    _, result = journal.request_battle(room_id=room.pk, user=alice, notation=BIG)
    settings.ROOM_BATTLE_MAX_SECONDS = 0.1  # the battle would now be too large to ask for
    entries = journal.rule(room_id=room.pk, user=carol, entry=result.number, decision="voided")
    reroll = entries[-1]
    assert reroll.data["replaces"] == result.number and reroll.data["rolls"]
    key, _ = battle_work._window_key(alice.pk)
    assert cache.get(key) == price_of(BIG)  # alice's one battle, the re-roll not counted
    assert cache.get(battle_work._window_key(carol.pk)[0]) is None
