"""A tournament round under PostgreSQL: every room of a round ends at the same moment, each in
its own thread and connection, and the next round is paired exactly once (the tournament's row
lock, ``games.tournaments``). Marked ``services``: run in the second pass."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import TournamentAction, TournamentRound, TournamentTable
from games.rooms import journal
from games.tournaments import results, setup
from games.tournaments.settings import TournamentSettings
from tests.games.conftest import make_user
from tests.games.rooms.test_rooms_numbering_postgres import together

PLAYERS = 8


@pytest.mark.services
@pytest.mark.django_db(transaction=True)  # threads see only committed rows
def test_a_round_whose_rooms_all_end_at_once_pairs_the_next_round_once():
    assert connection.vendor == "postgresql"
    staff = make_user("referee", is_staff=True)
    players = [make_user(f"p{i}") for i in range(PLAYERS)]
    event = setup.tournament_create(actor=staff, settings=TournamentSettings(
        name="Race", play="room", format="swiss", rounds=3, room_system="wif"))  # fmt: skip
    for p in players:
        setup.register(tournament_id=event.pk, user=p)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    rooms = list(
        TournamentTable.objects.filter(round__tournament=event, round__number=1)
        .order_by("number")
        .values_list("room", flat=True)
    )
    assert len(rooms) == PLAYERS // 2

    def end(index: int) -> None:  # the referee decides for the first-named side
        journal.decide_result(room_id=rooms[index], user=staff, winners=["Axis"])
        results.record_room(rooms[index])

    together(end, len(rooms))

    assert TournamentRound.objects.filter(tournament=event).count() == 2
    second = TournamentTable.objects.filter(round__tournament=event, round__number=2)
    assert second.count() == PLAYERS // 2
    assert sorted(TournamentTable.objects.filter(round__number=1).values_list(
        "outcome", flat=True)) == ["played"] * (PLAYERS // 2)  # fmt: skip
    paired = TournamentAction.objects.filter(tournament=event, action="paired")
    assert list(paired.values_list("detail__round", flat=True)) == [1, 2]
    # Round 2 of the Dutch system: the four winners meet each other, the losers each other.
    winners = {s for t in TournamentTable.objects.filter(round__number=1)
               for s in t.seats.filter(position=0).values_list("entrant", flat=True)}  # fmt: skip
    for table in second:
        seated = set(table.seats.values_list("entrant", flat=True))
        assert seated <= winners or not seated & winners


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_staff_creating_the_same_name_at_once_get_one_event_and_409s():
    """Six staff at once, six times over: the name check passes for several of them at once
    now and then, and the unique index must then answer 409, not 500."""
    from games.models import Tournament
    from games.web.exceptions import ConflictError

    staff = [make_user(f"referee{i}", is_staff=True) for i in range(6)]
    for attempt in range(6):
        outcomes: list[str] = []
        name = f"Same name {attempt}"

        def create(index: int, name: str = name, outcomes: list[str] = outcomes) -> None:
            try:
                setup.tournament_create(actor=staff[index], settings=TournamentSettings(
                    name=name, play="room", format="swiss", room_system="wif"))  # fmt: skip
                outcomes.append("created")
            except ConflictError as exc:  # the check, or the unique index when both passed
                outcomes.append(exc.code)

        together(create, len(staff))
        assert sorted(outcomes) == ["created"] + ["name_taken"] * (len(staff) - 1)
        assert Tournament.objects.filter(name=name).count() == 1
