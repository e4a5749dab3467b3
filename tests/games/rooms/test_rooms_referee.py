"""A room's referee is not a player who decides for themselves (games.rooms).

The attack these tests replay: alice created a rated room, took a side and stayed its referee,
decided the result for herself and voided bob's winning battle again and again, each void
re-rolling it. Now: a rated room's referee plays no side (staff, or the creator playing none,
whom each side accepts by joining); in an unrated room a playing referee's ruling that changes a
result is a proposal until the other side or staff accepts it; a battle is re-rolled at most
once, and the journal keeps both results.

The battles are World in Flames land attacks (``18 vs 6``), which roll two d10 each.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Room, RoomEntry
from games.rooms import journal, setup
from games.rooms.verify import room_verify
from games.tournaments.settings import TournamentSettings
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError
from tests.games.conftest import make_user


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def battle(room: Room, user) -> tuple[RoomEntry, RoomEntry]:
    return journal.request_battle(room_id=room.pk, user=user, notation="18 vs 6")


@pytest.fixture
def staff(db):
    return make_user("dave", is_staff=True)


@pytest.fixture
def self_refereed(alice, bob) -> Room:
    """An unrated room alice created, referees and plays (the Axis); bob plays the Allies."""
    room = setup.room_create(
        creator=alice, name="Own", system="wif", sides=["Axis", "Allies"], side="Axis",
        rated=False,
    )  # fmt: skip
    setup.room_join(room_id=room.pk, user=bob, side="Allies")
    room.refresh_from_db()
    return room


# --- a rated room: the referee is never a side ------------------------------------------------


def test_a_rated_room_refuses_a_creator_who_would_referee_and_play(alice):
    with pytest.raises(ApplicationError) as refused:
        setup.room_create(creator=alice, name="x", system="wif", sides=["Axis", "Allies"],
                          side="Axis")  # fmt: skip
    assert (refused.value.field, refused.value.code) == ("side", "referee_plays")
    assert Room.objects.count() == 0
    answer = client_for(alice).post(
        "/api/rooms",
        {"name": "x", "system": "wif", "sides": ["Axis", "Allies"], "side": "Axis"},
        format="json",
    )
    assert answer.status_code == 400
    assert (answer.json()["field"], answer.json()["error"]) == ("side", "referee_plays")
    assert "rated room the referee plays no side" in answer.json()["message"]


def test_the_referee_of_a_rated_room_cannot_take_a_side_later(alice, bob):
    room = setup.room_create(creator=alice, name="x", system="wif", sides=["Axis", "Allies"])
    answer = client_for(alice).post(f"/api/rooms/{room.pk}/join", {"side": "Axis"}, format="json")
    assert (answer.status_code, answer.json()["error"]) == (409, "referee_plays")
    assert room.sides.filter(user=alice).count() == 0


def test_a_rated_room_with_a_staff_referee_may_have_its_creator_on_a_side(alice, bob, staff):
    room = setup.room_create(creator=alice, name="x", system="wif", sides=["Axis", "Allies"],
                             side="Axis", referee="dave")  # fmt: skip
    setup.room_join(room_id=room.pk, user=bob, side="Allies")
    room.refresh_from_db()
    assert room.rated and room.status == Room.Status.RUNNING and room.referee == staff
    joined = room.entries.filter(data__event="joined").order_by("number")
    assert [e.text for e in joined] == [
        "alice plays Axis and accepts dave as referee",
        "bob plays Allies and accepts dave as referee",
    ]


def test_a_neutral_creator_refereeing_is_accepted_by_each_side_joining(alice, bob, carol):
    room = setup.room_create(creator=carol, name="x", system="wif", sides=["Axis", "Allies"])
    setup.room_join(room_id=room.pk, user=alice, side="Axis")
    setup.room_join(room_id=room.pk, user=bob, side="Allies")
    joined = room.entries.filter(data__event="joined").order_by("number")
    assert [e.data.get("accepts_referee") for e in joined] == ["carol", "carol"]


def test_a_rated_room_tournament_creator_referees_and_cannot_enter(staff, alice):
    """Its rooms are refereed by its creator (``room_create_seated``), so the creator plays in
    none: refused at entry, not at pairing."""
    from games.tournaments import setup as tournaments
    from tests.games.tournaments.test_tournaments_api import CHESS_CUP

    cup = tournaments.tournament_create(actor=staff, settings=TournamentSettings(**CHESS_CUP))
    assert cup.rated
    with pytest.raises(ConflictError) as refused:
        tournaments.register(tournament_id=cup.pk, user=staff)
    assert refused.value.code == "referee_plays"
    tournaments.register(tournament_id=cup.pk, user=alice)  # anyone else enters
    with pytest.raises(ConflictError) as seated:
        setup.room_create_seated(creator=staff, players=[staff, alice], name="t", system="wif",
                                 sides=["Axis", "Allies"])  # fmt: skip
    assert seated.value.code == "referee_plays"


# --- a battle is re-rolled at most once -----------------------------------------------------------


def test_a_voided_battle_is_rolled_again_once_and_the_journal_keeps_both(alice, bob, carol):
    room = setup.room_create(creator=carol, name="x", system="wif", sides=["Axis", "Allies"])
    setup.room_join(room_id=room.pk, user=alice, side="Axis")
    setup.room_join(room_id=room.pk, user=bob, side="Allies")
    request, first = battle(room, bob)  # entries 4 and 5
    _, reroll = journal.rule(room_id=room.pk, user=carol, entry=first.number,
                             decision="voided")  # fmt: skip
    assert reroll.data["replaces"] == first.number
    for target in (reroll.number, request.number):  # the re-roll, or its request
        with pytest.raises(ConflictError) as again:
            journal.rule(room_id=room.pk, user=carol, entry=target, decision="voided")
        assert again.value.code == "rerolled_once"
        assert f"#{reroll.number} re-rolls #{first.number}" in again.value.message
    results = room.entries.filter(kind=RoomEntry.Kind.BATTLE_RESULT, refers_to=request)
    assert [r.number for r in results.order_by("number")] == [first.number, reroll.number]
    assert room.entries.count() == reroll.number  # the refusals wrote nothing


# --- an unrated room refereed by a player -----------------------------------------------------


def test_a_playing_referees_void_waits_and_the_other_side_may_reject_it(self_refereed, alice, bob):
    room = self_refereed
    _, won = battle(room, bob)  # entries 4 and 5
    (proposal,) = journal.rule(room_id=room.pk, user=alice, entry=won.number, decision="voided")
    assert proposal.kind == RoomEntry.Kind.RULING and proposal.data["pending"] is True
    assert "takes effect when Allies accepts it or staff reviews it" in proposal.text
    assert room.entries.filter(kind=RoomEntry.Kind.BATTLE_RESULT).count() == 1  # no re-roll
    with pytest.raises(ConflictError) as second:
        journal.decide_result(room_id=room.pk, user=alice, winners=["Axis"])
    assert second.value.code == "ruling_pending"
    with pytest.raises(ForbiddenError) as own:
        journal.review_ruling(room_id=room.pk, user=alice, entry=proposal.number, accept=True)
    assert own.value.code == "not_other_side"
    (rejected,) = journal.review_ruling(
        room_id=room.pk, user=bob, entry=proposal.number, accept=False, text="it was fair"
    )
    assert rejected.data == {"event": "ruling_rejected", "settles": proposal.number}
    assert (
        rejected.text == f"Allies rejects ruling #{proposal.number}; it has no effect: it was fair"
    )
    with pytest.raises(ConflictError) as settled:
        journal.review_ruling(room_id=room.pk, user=bob, entry=proposal.number, accept=True)
    assert settled.value.code == "settled"
    assert room.entries.filter(kind=RoomEntry.Kind.BATTLE_RESULT).count() == 1


def test_a_playing_referees_result_ends_the_room_only_when_the_other_side_accepts(
    self_refereed, alice, bob
):
    room = self_refereed
    proposal = journal.decide_result(room_id=room.pk, user=alice, winners=["Axis"])
    room.refresh_from_db()
    assert room.status == Room.Status.RUNNING and proposal.data["pending"] is True
    applied, ended = journal.review_ruling(
        room_id=room.pk, user=bob, entry=proposal.number, accept=True
    )
    assert applied.data == {"event": "ruling_applied", "settles": proposal.number}
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.result == {"winners": ["Axis"], "text": "", "decided_by": "referee"}
    assert ended.data["event"] == "ended"


def test_a_staff_review_applies_a_playing_referees_void(self_refereed, alice, bob, staff):
    room = self_refereed
    _, won = battle(room, bob)
    (proposal,) = journal.rule(room_id=room.pk, user=alice, entry=won.number, decision="voided")
    applied, reroll = journal.review_ruling(
        room_id=room.pk, user=staff, entry=proposal.number, accept=True
    )
    assert applied.side == "staff" and applied.data["voids"] == won.number
    assert applied.text.startswith(f"ruling #{proposal.number} accepted by staff (dave)")
    assert reroll.data["replaces"] == won.number
    with pytest.raises(ConflictError) as again:
        journal.rule(room_id=room.pk, user=alice, entry=reroll.number, decision="voided")
    assert again.value.code == "rerolled_once"
    for user in (alice, bob):  # the room ends; its dice check out, the re-roll included
        journal.agree_result(room_id=room.pk, user=user, winners=["Allies"])
    report = room_verify(Room.objects.get(pk=room.pk))
    assert (report.ok, report.battles) == (True, 2)


def test_upheld_needs_nobody_and_only_a_proposal_is_reviewed(self_refereed, alice, bob):
    room = self_refereed
    _, won = battle(room, bob)
    (ruling,) = journal.rule(room_id=room.pk, user=alice, entry=won.number, decision="upheld")
    assert "pending" not in ruling.data
    with pytest.raises(ApplicationError) as not_pending:
        journal.review_ruling(room_id=room.pk, user=bob, entry=ruling.number, accept=True)
    assert (not_pending.value.field, not_pending.value.code) == ("entry", "not_pending")


def test_the_api_takes_accept_ruling_and_reject_ruling(self_refereed, alice, bob):
    room = self_refereed
    _, won = battle(room, bob)
    url = f"/api/rooms/{room.pk}/entries"
    proposed = client_for(alice).post(
        url, {"kind": "ruling", "entry": won.number, "decision": "corrected", "text": "3 inf"},
        format="json",
    )  # fmt: skip
    assert proposed.status_code == 201
    number = proposed.json()["entries"][0]["number"]
    missing = client_for(bob).post(url, {"kind": "accept_ruling"}, format="json")
    assert (missing.status_code, missing.json()["field"]) == (400, "entry")
    accepted = client_for(bob).post(url, {"kind": "accept_ruling", "entry": number}, format="json")
    assert accepted.status_code == 201
    (applied,) = accepted.json()["entries"]
    assert (
        applied["text"]
        == f"ruling #{number} accepted by every other side: corrected #{won.number}: 3 inf"
    )
