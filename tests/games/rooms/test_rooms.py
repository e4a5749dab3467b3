"""Correspondence rooms through their services: numbering, immutability, the room's dice
sequence, disputes, results and the clock (games.rooms).

The battles here are World in Flames land attacks (``18 vs 6``: the 2d10 CRT, fractional odds
off), which roll exactly two d10 each, so the roll numbers each battle takes are known by hand.
The whole A&A room, from creation to verified result, is in test_rooms_pbem.py.
"""

from __future__ import annotations

import inspect
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.db import IntegrityError, connection, transaction

from combat.dice import commitment_of, derive_roll
from games.models import JournalEdited, Room, RoomEntry
from games.rooms import battle_work, clock, journal, reading, setup, writing
from games.rooms.verify import room_verify
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError, UnavailableError
from tests.games.conftest import make_user

START = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)


@pytest.fixture
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def room(alice, bob, carol) -> Room:
    """An A&A room refereed by carol: alice plays Germany, bob the Soviet Union."""
    return seated(
        carol,
        alice,
        bob,
        name="Barbarossa",
        system="axis_allies",
        sides=["Germany", "Soviet Union"],
    )


def seated(referee, first, second, **room: Any) -> Room:
    """A running room with a 3-day clock (24 h reminder, 2 days' grace): ``first`` and
    ``second`` take its two sides in turn order."""
    made = setup.room_create(
        creator=referee, days_per_turn=3, remind_hours=24, grace_days=2, **room
    )
    for user, side in zip((first, second), room["sides"], strict=True):
        setup.room_join(room_id=made.pk, user=user, side=side)
    made.refresh_from_db()
    return made


@pytest.fixture
def wif(alice, bob, carol) -> Room:
    """A World in Flames room refereed by carol: alice plays the Axis, bob the Allies."""
    return seated(carol, alice, bob, name="Fall Gelb", system="wif", sides=["Axis", "Allies"])


def battle(room: Room, user, line: str = "18 vs 6") -> tuple[RoomEntry, RoomEntry]:
    return journal.request_battle(room_id=room.pk, user=user, notation=line)


def tamper(entry_id: int, data: dict[str, Any]) -> None:
    """What someone with the database in hand could do, the model's refusal bypassed: what
    ``verify_room`` is there to catch."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_roomentry SET data = %s WHERE id = %s", [json.dumps(data), entry_id]
        )


def numbers(room: Room) -> list[tuple[int, str]]:
    return list(room.entries.order_by("number").values_list("number", "kind"))


# --- creation, joining, numbering ----------------------------------------------------------------


def test_a_room_commits_to_its_seed_in_entry_1_and_starts_when_every_side_is_taken(room):
    assert room.status == Room.Status.RUNNING
    assert room.seed_commitment == commitment_of(room.server_seed)
    assert (room.rules, room.edition) == ("dice", "revised")
    first = room.entries.get(number=1)
    assert room.seed_commitment in first.text
    assert numbers(room) == [(1, "system"), (2, "system"), (3, "system"), (4, "system")]
    assert room.entries.get(number=4).text == "The room starts: turn 1, Germany to move"
    assert room.turn_number == 1 and room.turn_position == 0


def test_entries_are_numbered_1_to_n_and_a_number_is_never_used_twice(room, alice, bob):
    journal.post_note(room_id=room.pk, user=alice, text="Germany buys 2 armor")
    battle(room, alice, "3 inf 1 art vs 2 inf")
    journal.post_note(room_id=room.pk, user=bob, text="USSR moves to Karelia")
    assert [n for n, _ in numbers(room)] == list(range(1, 9))
    room.refresh_from_db()
    assert room.entry_count == 8
    with pytest.raises(IntegrityError), transaction.atomic():
        RoomEntry.objects.create(room=room, number=5, created_at=START, side="x", kind="note")


def test_the_services_offer_no_way_to_change_an_entry():
    """Entries are only inserted: no service of the rooms updates or deletes one."""
    for module in (setup, journal, writing, clock):
        names = {n for n, f in inspect.getmembers(module, inspect.isfunction)
                 if f.__module__ == module.__name__ and not n.startswith("_")}  # fmt: skip
        assert not {n for n in names if any(w in n for w in ("edit", "update", "delete"))}
        source = inspect.getsource(module)
        assert re.findall(r"RoomEntry\.objects[^\n]*\.(update|delete)\(", source) == []
        assert re.findall(r"(entry|ruling|request|result|reroll)\.(save|delete)\(", source) == []
    assert inspect.getsource(writing).count("RoomEntry.objects.create(") == 1


def test_an_entry_cannot_be_saved_again_updated_or_deleted(room):
    entry = room.entries.get(number=1)
    entry.text = "rewritten"
    with pytest.raises(JournalEdited):
        entry.save()
    with pytest.raises(JournalEdited):
        RoomEntry.objects.filter(pk=entry.pk).update(text="rewritten")
    with pytest.raises(JournalEdited):
        room.entries.all().delete()
    with pytest.raises(JournalEdited):
        entry.delete()
    assert room.entries.get(number=1).text.startswith("Room created")


def test_creating_checks_each_field_by_name(carol, alice):
    def refused(**kw: Any) -> ApplicationError:
        base = {"creator": carol, "name": "x", "system": "axis_allies", "sides": ["A", "B"]}
        with pytest.raises(ApplicationError) as info:
            setup.room_create(**{**base, **kw})
        return info.value

    assert refused(system="chess").field == "system"
    assert refused(rules="poker").field == "rules"
    assert refused(edition="1942").field == "edition"
    assert refused(system="wif", rules="dice").field == "rules"
    assert refused(sides=["A"]).field == "sides"
    assert refused(sides=["A", "A"]).field == "sides.1"
    assert refused(side="C").field == "side"
    assert refused(referee="alice").code == "not_staff"


def test_joining_refuses_a_taken_side_and_a_second_side(alice, bob, carol):
    room = setup.room_create(
        creator=alice, name="x", system="wif", sides=["Axis", "Allies", "Comintern"], side="Axis"
    )
    with pytest.raises(ConflictError) as taken:
        setup.room_join(room_id=room.pk, user=bob, side="Axis")
    assert taken.value.code == "side_taken"
    with pytest.raises(ConflictError) as twice:
        setup.room_join(room_id=room.pk, user=alice, side="Allies")
    assert twice.value.code == "already_seated"
    with pytest.raises(ApplicationError) as unknown:
        setup.room_join(room_id=room.pk, user=bob, side="Neutral")
    assert unknown.value.field == "side" and unknown.value.allowed == [
        "Axis",
        "Allies",
        "Comintern",
    ]


# --- dice -----------------------------------------------------------------------------------------


def test_each_battle_takes_the_next_roll_numbers_of_the_room(wif, alice, bob):
    request, first = battle(wif, alice)
    _, second = battle(wif, bob, "12 vs 4 +2")
    assert request.data["arguments"]["attack"] == 18 and request.text == "18 vs 6"
    assert request.data["notation"] == "wif 18 vs 6 assault"  # the canonical line
    assert first.data["notation"] == "wif 18 vs 6 assault"
    assert [r["number"] for r in first.data["rolls"]] == [1, 2]
    assert [r["number"] for r in second.data["rolls"]] == [3, 4]
    assert (second.data["first_roll"], second.data["last_roll"]) == (3, 4)
    for roll in first.data["rolls"] + second.data["rolls"]:
        assert roll["sides"] == 10
        assert roll["value"] == derive_roll(wif.server_seed, f"room:{wif.pk}", roll["number"], 10)
    wif.refresh_from_db()
    assert wif.roll_count == 4
    assert second.refers_to.number == second.number - 1
    assert second.data["odds"]["odds_level"] == "3:1"


def test_a_battle_rolled_before_the_lock_is_kept_only_on_the_numbers_it_used(
    wif, alice, bob, monkeypatch
):
    """The battle is rolled before the room is locked. If another battle took those roll
    numbers meanwhile, it is rolled again on the next free ones (5, 6 here, not 1, 2)."""
    roll_early = journal._rolled_early
    stale = roll_early(wif.pk, alice, notation="18 vs 6", arguments=None, resolve=None)
    assert stale is not None and stale.first == 1 and len(stale.dice.log) == 2
    battle(wif, bob, "12 vs 4")  # rolls 1, 2
    battle(wif, bob, "12 vs 4")  # rolls 3, 4
    monkeypatch.setattr(journal, "_rolled_early", lambda *a, **k: stale)
    _, result = battle(wif, alice)
    assert [r["number"] for r in result.data["rolls"]] == [5, 6]
    for roll in result.data["rolls"]:
        assert roll["value"] == derive_roll(wif.server_seed, f"room:{wif.pk}", roll["number"], 10)
    # on the numbers it used (7, 8 are next), the early roll is the result, not rolled again
    early = roll_early(wif.pk, alice, notation="18 vs 6", arguments=None, resolve=None)
    assert early is not None and early.first == 7
    monkeypatch.setattr(journal, "_rolled_early", lambda *a, **k: early)
    monkeypatch.setattr(journal, "_resolved", lambda *a, **k: pytest.fail("rolled again"))
    _, kept = battle(wif, alice)
    assert [r["number"] for r in kept.data["rolls"]] == [7, 8]
    assert kept.data["rolls"] == [r.as_dict() for r in early.dice.log]


def test_a_battle_waits_for_the_one_being_resolved_then_is_refused_with_nothing_written(
    wif, alice, monkeypatch
):
    monkeypatch.setattr(battle_work, "SLOT_WAIT", 0.05)
    before = numbers(wif)
    small = battle_work.lane("small")
    held = [small.acquire(timeout=1) for _ in range(settings.ROOM_BATTLE_SMALL_SLOTS)]
    assert all(held)  # other requests resolving small battles in every small slot
    try:
        with pytest.raises(UnavailableError) as busy:
            battle(wif, alice)
    finally:
        for _ in held:
            small.release()
    assert busy.value.code == "battles_busy" and busy.value.status == 503
    assert numbers(wif) == before
    _, result = battle(wif, alice)  # the slot free again: rolled as usual
    assert [r["number"] for r in result.data["rolls"]] == [1, 2]


def test_a_battle_needs_notation_or_arguments_and_names_the_word_at_fault(wif, alice):
    with pytest.raises(ApplicationError) as neither:
        journal.request_battle(room_id=wif.pk, user=alice)
    assert neither.value.field == "notation"
    with pytest.raises(ApplicationError) as bad:
        battle(wif, alice, "18 vs 6 zzz")
    assert bad.value.field == "notation" and "zzz" in bad.value.message
    assert wif.entries.count() == 4  # nothing written


@pytest.mark.parametrize(
    ("edition", "line", "attacker"),
    [
        ("1942-2e", "2 inf 1 cru vs 3 inf 1 aaa amphibious", None),
        ("global-1940-2e", "2 mech 1 tac vs 3 inf 1 aaa",
         {"mech_infantry": 2, "tactical_bomber": 1}),
        ("global-1940-2e-path-to-victory", "2 mech 1 art vs 3 inf", None),
        ("anniversary", "3 inf 1 art vs 2 inf", None),
    ],
)  # fmt: skip
def test_an_aa_room_of_each_new_edition_resolves_its_units(alice, bob, carol, edition, line,
                                                          attacker):  # fmt: skip
    """The room keeps its edition (the longest key, 30 characters, fits the column) and rolls
    its battles in it; a unit the edition lacks is refused by name, nothing written."""
    room = seated(carol, alice, bob, name="1942", system="axis_allies", edition=edition,
                  sides=["Germany", "Soviet Union"])  # fmt: skip
    room.refresh_from_db()
    assert room.edition == edition
    request, result = battle(room, alice, line)
    assert result.data["result"]["edition"] == edition
    assert request.data["notation"].startswith(f"a&a {edition} ")
    if attacker:
        assert request.data["arguments"]["attacker"] == attacker
    written = room.entries.count()
    with pytest.raises(ApplicationError) as refused:
        battle(room, alice, "1 mar vs 1 inf" if edition != "anniversary" else "1 mech vs 1 inf")
    assert refused.value.field == "notation"
    lacking = "marine" if edition != "anniversary" else "mech_infantry"
    assert f"{edition.capitalize()} has no {lacking}" in refused.value.message
    assert room.entries.count() == written


def test_json_arguments_cannot_pick_other_rules_than_the_room(room, alice):
    """A Low Luck room would refuse a dice line; the same battle in JSON is refused too."""
    lowluck = setup.room_create(
        creator=alice,
        name="LL",
        system="axis_allies",
        rules="lowluck",
        sides=["Germany", "UK"],
        side="Germany",
        rated=False,
    )
    setup.room_join(room_id=lowluck.pk, user=make_user("erin"), side="UK")
    dice = {
        "attacker": {"infantry": 3},
        "defender": {"infantry": 2},
        "rules": "dice",
        "edition": "revised",
    }
    with pytest.raises(ApplicationError) as info:
        journal.request_battle(room_id=lowluck.pk, user=alice, arguments=dice)
    assert info.value.field == "arguments"
    request, result = journal.request_battle(
        room_id=lowluck.pk, user=alice, arguments={**dice, "rules": "lowluck"}
    )
    assert request.data["notation"] == "a&a revised 3 inf vs 2 inf lowluck"
    assert result.data["result"]["rules"] == "lowluck"


# --- disputes ---------------------------------------------------------------------------------


def test_a_voided_battle_is_rolled_again_with_new_numbers_and_everyone_is_told(
    wif, alice, bob, carol, commits
):
    battle(wif, alice)  # rolls 1-2, entries 5 (request) and 6 (result)
    battle(wif, bob)  # rolls 3-4, entries 7 and 8
    with commits():
        dispute = journal.challenge(room_id=wif.pk, user=bob, entry=6, text="wrong units")
    assert dispute.number == 9 and dispute.text == "#6: wrong units"
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "carol@example.org"]
    mail.outbox.clear()
    with commits():
        ruling, reroll = journal.rule(room_id=wif.pk, user=carol, entry=9, decision="voided")
    assert (ruling.number, reroll.number) == (10, 11)
    assert ruling.data["voids"] == 6 and reroll.data["replaces"] == 6
    assert [r["number"] for r in reroll.data["rolls"]] == [5, 6]
    assert reroll.refers_to.number == 5
    assert reroll.text.startswith("re-roll of #6: ")
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bob@example.org"]
    assert mail.outbox[0].subject == "[Fall Gelb] #10 ruling by referee"
    assert "voided #6; the battle is rolled again" in mail.outbox[0].body
    with pytest.raises(ConflictError) as again:
        journal.rule(room_id=wif.pk, user=carol, entry=9, decision="upheld")
    assert again.value.code == "already_ruled"
    with pytest.raises(ConflictError) as twice:
        journal.rule(room_id=wif.pk, user=carol, entry=6, decision="voided")
    assert twice.value.code == "already_voided"
    _, later = battle(wif, alice)
    assert [r["number"] for r in later.data["rolls"]] == [7, 8]


def test_only_the_referee_rules_and_only_sides_post(room, alice, carol):
    outsider = make_user("dave")
    with pytest.raises(ForbiddenError) as ruling:
        journal.rule(room_id=room.pk, user=alice, entry=1, decision="upheld")
    assert ruling.value.code == "not_referee"
    posts = (
        lambda u: journal.post_note(room_id=room.pk, user=u, text="hi"),
        lambda u: journal.challenge(room_id=room.pk, user=u, entry=1, text="no"),
        lambda u: battle(room, u, "1 inf vs 1 inf"),
    )
    for post in posts:
        for user in (carol, outsider):
            with pytest.raises(ForbiddenError) as info:
                post(user)
            assert info.value.code == "not_a_side"


def test_a_correction_needs_its_text_and_only_a_battle_is_voided(room, carol):
    with pytest.raises(ApplicationError) as blank:
        journal.rule(room_id=room.pk, user=carol, entry=2, decision="corrected")
    assert blank.value.field == "text"
    with pytest.raises(ApplicationError) as note:
        journal.rule(room_id=room.pk, user=carol, entry=2, decision="voided")
    assert note.value.code == "not_a_battle"
    (ruling,) = journal.rule(
        room_id=room.pk,
        user=carol,
        entry=2,
        decision="corrected",
        text="alice plays Germany from turn 2",
    )
    assert ruling.text == "corrected #2: alice plays Germany from turn 2"


# --- turns and results -------------------------------------------------------------------------


def test_turns_pass_in_order_and_only_the_side_to_move_ends_one(room, alice, bob):
    with pytest.raises(ConflictError) as info:
        journal.end_turn(room_id=room.pk, user=bob)
    assert info.value.code == "not_your_turn"
    first = journal.end_turn(room_id=room.pk, user=alice)
    second = journal.end_turn(room_id=room.pk, user=bob)
    assert first.text == "Germany ends its turn; turn 1: Soviet Union to move"
    assert second.text == "Soviet Union ends its turn; turn 2: Germany to move"


def test_the_room_ends_when_every_side_agrees_the_same_result(room, alice, bob, commits):
    journal.agree_result(room_id=room.pk, user=alice, winners=["Germany"], text="Moscow falls")
    journal.agree_result(room_id=room.pk, user=bob, winners=["Soviet Union"])
    room.refresh_from_db()
    assert room.status == Room.Status.RUNNING
    with commits():
        entries = journal.agree_result(room_id=room.pk, user=alice, winners=["Soviet Union"])
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.result == {"winners": ["Soviet Union"], "text": "", "decided_by": "sides"}
    assert room.server_seed in entries[-1].text
    assert reading.room_detail(room, alice)["server_seed"] == room.server_seed
    with pytest.raises(ConflictError):
        journal.post_note(room_id=room.pk, user=alice, text="late")


def test_verify_room_finds_a_changed_roll(wif, alice, carol):
    battle(wif, alice)
    journal.decide_result(room_id=wif.pk, user=carol, winners=[])
    wif.refresh_from_db()
    assert room_verify(wif).ok
    result = wif.entries.get(kind="battle_result")
    rolls = result.data["rolls"]
    rolls[1]["value"] = rolls[1]["value"] % 10 + 1
    tamper(result.pk, {**result.data, "rolls": rolls})
    report = room_verify(wif)
    assert report.mismatch is not None
    assert report.mismatch.startswith("entry #6: roll 2 (d10) logged")


def test_verify_room_refuses_a_running_room(room):
    with pytest.raises(ConflictError) as info:
        room_verify(room)
    assert info.value.code == "not_over"


# --- the clock ------------------------------------------------------------------------------------


def test_the_clock_reminds_once_then_declares_the_timeout_once(alice, bob, carol, commits, frozen):
    room = seated(
        carol, alice, bob, name="Timed", system="france_1944", sides=["Allies", "Germany"]
    )  # the turn starts at START
    frozen.shift(timedelta(days=2, hours=1))  # 23 h before the deadline
    with commits():
        assert clock.rooms_sweep()["reminded"] == 1
        assert clock.rooms_sweep()["reminded"] == 0
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["alice@example.org"], "[Timed] Allies: your turn is due 2026-11-27 10:00 UTC")
    ]
    frozen.shift(timedelta(days=2, hours=23))  # 2026-11-29 10:00: the grace period is over
    with commits():
        assert clock.rooms_sweep()["timed_out"] == 1
        assert clock.rooms_sweep()["timed_out"] == 0
    last = room.entries.order_by("-number").first()
    assert (last.kind, last.text) == ("system", "Allies's turn timed out")
    assert sorted(m.to[0] for m in mail.outbox[1:]) == [
        "alice@example.org",
        "bob@example.org",
        "carol@example.org",
    ]


def test_a_vacation_pauses_the_clock_and_uses_days(alice, bob, carol, frozen):
    room = setup.room_create(
        creator=carol,
        name="Away",
        system="wif",
        sides=["Axis", "Allies"],
        days_per_turn=3,
        vacation_days=10,
    )
    setup.room_join(room_id=room.pk, user=alice, side="Axis")
    setup.room_join(room_id=room.pk, user=bob, side="Allies")
    frozen.shift(timedelta(days=1))
    journal.declare_vacation(room_id=room.pk, user=alice, days=4)
    frozen.shift(timedelta(days=1, hours=2))  # back after 26 hours: 2 days used
    journal.post_note(room_id=room.pk, user=alice, text="back")
    room.refresh_from_db()
    side = room.sides.get(name="Axis")
    assert side.vacation_days_left == 8
    assert room.turn_paused_seconds == 26 * 3600
    assert reading.room_detail(room, alice)["due_at"] == START + timedelta(days=3, hours=26)
    with pytest.raises(ApplicationError) as too_long:
        journal.declare_vacation(room_id=room.pk, user=alice, days=9)
    assert too_long.value.code == "not_enough_vacation" and too_long.value.field == "days"


def test_the_clock_ends_a_vacation_that_ran_out_and_credits_the_pause(alice, bob, carol, frozen):
    """alice (to move) goes away for 2 days at once; the check a day after they ran out ends
    the vacation at its planned end: 2 days used, 48 hours credited to her turn."""
    room = seated(carol, alice, bob, name="Away", system="wif", sides=["Axis", "Allies"])
    journal.declare_vacation(room_id=room.pk, user=alice, days=2)
    frozen.shift(timedelta(days=3))
    assert clock.rooms_sweep()["back"] == 1
    room.refresh_from_db()
    assert room.sides.get(name="Axis").vacation_days_left == 12
    assert room.turn_paused_seconds == 48 * 3600
    last = room.entries.order_by("-number").first()
    assert last.text == "Axis is back from vacation: 2 days used, 12 left"
    assert reading.room_detail(room, bob)["due_at"] == START + timedelta(days=5)


def test_the_rooms_clock_runs_on_the_deadline_beat():
    from config.celery import app

    app.loader.import_default_modules()
    entry = app.conf.beat_schedule["games.sweep_rooms"]
    assert entry["task"] == "games.sweep_rooms" and "games.sweep_rooms" in app.tasks
