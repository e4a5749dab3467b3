"""Tournaments run through their services: whole events to their
champions, results, withdrawals, late entries, staff-only actions and the staff log.

The events that play games to the end use ``transaction=True``: the games' bots, the result
tasks and the next round's pairing run from commit hooks, inline, as in the embedded default.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import (
    Game,
    RatingChange,
    Room,
    TableSeat,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentTable,
)
from games.rooms import journal
from games.tournaments import pairing, reading, results, setup
from games.tournaments.settings import MAX_ROUNDS, TABLE_ROUNDS, TournamentSettings
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError
from tests.games.conftest import make_user

ONE_ROUND = {"win": "round-limit", "round_limit": 1}


def fast_risk_event(staff, name: str = "Cup", **settings):
    defaults = {"play": "fast_risk", "options": ONE_ROUND, "time_control": "untimed",
                "days": None, "ai_level": "easy"}  # fmt: skip
    return setup.tournament_create(
        actor=staff, settings=TournamentSettings(name=name, **{**defaults, **settings})
    )


def chess_event(staff, name: str = "IA&ACF 1995", **settings):
    defaults = {"play": "room", "format": "round_robin", "room_system": "axis_allies",
                "room_rules": "chess", "room_edition": "classic", "days_per_turn": 7}  # fmt: skip
    return setup.tournament_create(
        actor=staff, settings=TournamentSettings(name=name, **{**defaults, **settings})
    )


def enter(players, tournament, *, bots: bool = False, staff=None):
    for p in players:
        setup.register(tournament_id=tournament.pk, user=p)
        if bots:
            setup.stand_in(actor=staff, tournament_id=tournament.pk, username=p.username)


def actions(tournament) -> list[str]:
    return list(tournament.actions.values_list("action", flat=True))


def tables_of(tournament, number: int) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("game", "room")
        .order_by("number")
    )


def names_at(table) -> list[str]:
    return [s.entrant.user.username for s in table.seats.select_related("entrant__user")]


@pytest.fixture
def staff(db):
    return make_user("referee", is_staff=True)


@pytest.mark.django_db(transaction=True)
def test_a_table_event_with_bots_standing_in_is_played_to_its_champion(staff):
    players = [make_user(f"p{i}") for i in range(7)]
    cup = fast_risk_event(staff, format="tables", rounds=2)
    enter(players, cup, bots=True, staff=staff)
    setup.tournament_start(actor=staff, tournament_id=cup.pk)
    cup.refresh_from_db()
    assert cup.status == "finished" and cup.current_round == 2
    for number in (1, 2):
        tables = tables_of(cup, number)
        # 7 players: the fewest tables of at most 6, as even as possible: 4 + 3.
        assert [t.seats.count() for t in tables] == [4, 3]
        for table in tables:
            assert table.outcome == "played"
            # The bots played every seat, so the game is unrated; the result still counts.
            assert table.game.status == "finished" and table.game.rated is False
            seats = list(table.seats.order_by("place"))
            # Carnage points 10, 6, 4, 3 by place (no ties at a round-limit end here).
            assert [s.points for s in seats] == [10.0, 6.0, 4.0, 3.0][: len(seats)]
            assert all(s.territories is not None for s in seats)
    lines = reading.standings(cup)
    assert sum(line["points"] for line in lines) == 2 * (23 + 20)
    assert [line["points"] for line in lines] == sorted((x["points"] for x in lines), reverse=True)
    assert cup.champion.username == lines[0]["player"]
    assert RatingChange.objects.count() == 0
    assert actions(cup) == ["created"] + ["stand_in"] * 7 + ["started", "paired", "paired",
                                                            "finished"]  # fmt: skip


def play_chess_round(tournament, number: int, winners: dict[tuple[str, str], str]) -> None:
    """Each room of the round ends as both players agree: ``winners`` by (first, second)."""
    for table in tables_of(tournament, number):
        if table.room is None:
            continue
        first, second = names_at(table)
        winner = winners.get((first, second), "draw")
        result = [] if winner == "draw" else ["Axis" if winner == first else "Allies"]
        for side in table.room.sides.select_related("user"):
            journal.agree_result(room_id=table.room.pk, user=side.user, winners=result)


@pytest.mark.django_db(transaction=True)
def test_an_aa_chess_round_robin_by_correspondence_to_its_champion_with_ratings(staff):
    ann, bea, cid, dan = (make_user(n) for n in ("ann", "bea", "cid", "dan"))
    event = chess_event(staff)
    enter([ann, bea, cid, dan], event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    event.refresh_from_db()
    # Everyone unrated: seeded by registration. FIDE's Berger table for 4.
    assert event.rounds == 3
    assert [names_at(t) for t in tables_of(event, 1)] == [["ann", "dan"], ["bea", "cid"]]
    room = tables_of(event, 1)[0].room
    assert room.status == "running" and room.rated and room.referee == staff
    sides = [(s.name, s.user.username) for s in room.sides.all()]
    assert sides == [("Axis", "ann"), ("Allies", "dan")]
    # Round 1 mail: each player is told their table and room.
    paired = [m for m in mail.outbox if "Round 1" in m.subject]
    assert sorted(m.to[0] for m in paired) == [f"{n}@example.org" for n in
                                               ("ann", "bea", "cid", "dan")]  # fmt: skip
    to_ann = next(m for m in paired if m.to == ["ann@example.org"])
    assert "you against dan" in to_ann.body and f"/rooms/{room.pk}" in to_ann.body
    # ann wins everything, bea beats cid and dan, cid and dan draw.
    play_chess_round(event, 1, {("ann", "dan"): "ann", ("bea", "cid"): "bea"})
    assert [names_at(t) for t in tables_of(event, 2)] == [["dan", "cid"], ["ann", "bea"]]
    play_chess_round(event, 2, {("dan", "cid"): "draw", ("ann", "bea"): "ann"})
    assert [names_at(t) for t in tables_of(event, 3)] == [["bea", "dan"], ["cid", "ann"]]
    play_chess_round(event, 3, {("bea", "dan"): "bea", ("cid", "ann"): "ann"})
    event.refresh_from_db()
    assert event.status == "finished" and event.champion == ann
    # Worked in test_competition_duels: 3, 2, 0.5, 0.5; Buchholz 3, 4, 5.5, 5.5.
    assert [(x["player"], x["score"], x["buchholz"]) for x in reading.standings(event)] == [
        ("ann", 3.0, 3.0), ("bea", 2.0, 4.0), ("cid", 0.5, 5.5), ("dan", 0.5, 5.5),
    ]  # fmt: skip
    cross = {row["player"]: row["rounds"] for row in reading.crosstable_rows(event)}
    assert [(c["opponent"], c["score"]) for c in cross["cid"]] == [("bea", 0.0), ("dan", 0.5),
                                                                   ("ann", 0.0)]  # fmt: skip
    # Every room was rated: 6 rooms, 2 players each.
    assert RatingChange.objects.filter(room__isnull=False).count() == 12
    assert (
        ann.ratings.get(kind="axis_allies").rating
        > 1500
        > dan.ratings.get(kind="axis_allies").rating
    )


@pytest.mark.django_db(transaction=True)
def test_staff_enter_an_adjudicated_result_and_the_running_room_ends(staff):
    ann, bea = make_user("ann"), make_user("bea")
    event = chess_event(staff)
    enter([ann, bea], event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    table = tables_of(event, 1)[0]
    with pytest.raises(ForbiddenError):
        results.enter_result(actor=ann, tournament_id=event.pk, table_id=table.pk, places=[1, 2])
    results.enter_result(actor=staff, tournament_id=event.pk, table_id=table.pk, places=[2, 1],
                         reason="adjudicated: the Axis capital falls in two turns")  # fmt: skip
    table.refresh_from_db()
    table.room.refresh_from_db()
    assert table.outcome == "entered"
    assert table.room.status == "finished" and table.room.result["winners"] == ["Allies"]
    event.refresh_from_db()
    assert event.status == "finished" and event.champion == bea
    entered = event.actions.get(action="result_entered")
    assert entered.actor == staff and entered.detail["places"] == [2, 1]
    with pytest.raises(ConflictError, match="already"):
        results.enter_result(actor=staff, tournament_id=event.pk, table_id=table.pk, places=[1, 2])


@pytest.mark.django_db
def test_bad_places_are_refused_by_field(staff):
    assert results._checked_places([1, 2, 2, 4], 4) == [1, 2, 2, 4]
    for places, field in (([1, 2, 3], "places"), ([1, 1, 2, 4], "places"),
                          ([1, 5, 2, 3], "places.1"), ([1, True, 3, 4], "places.1")):  # fmt: skip
        with pytest.raises(ApplicationError) as refused:
            results._checked_places(places, 4)
        assert refused.value.field == field


@pytest.mark.django_db
def test_a_swiss_withdrawal_forfeits_the_game_and_ends_the_pairings(staff):
    players = [make_user(n) for n in ("ann", "bea", "cid", "dan")]
    event = chess_event(staff, format="swiss", rounds=3)
    enter(players, event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    # Dutch round 1 of 4: 1-3, 4-2 (top half against bottom half, colours alternating).
    assert [names_at(t) for t in tables_of(event, 1)] == [["ann", "cid"], ["dan", "bea"]]
    setup.withdraw(tournament_id=event.pk, user=players[3])  # dan
    forfeited = tables_of(event, 1)[1]
    assert forfeited.outcome == "forfeit"
    assert [(s.entrant.user.username, s.points) for s in forfeited.seats.all()] == [
        ("dan", 0.0), ("bea", 1.0)
    ]  # fmt: skip
    forfeited.room.refresh_from_db()
    assert forfeited.room.status == "finished" and forfeited.room.result["winners"] == ["Allies"]
    results.enter_result(actor=staff, tournament_id=event.pk,
                         table_id=tables_of(event, 1)[0].pk, places=[1, 2])  # fmt: skip
    # Round 2 pairs the three left: dan gets nothing more; one of them has the bye.
    round2 = tables_of(event, 2)
    seated = sorted(n for t in round2 for n in names_at(t))
    assert seated == ["ann", "bea", "cid"]
    assert [len(names_at(t)) for t in round2].count(1) == 1
    entry = TournamentEntrant.objects.get(tournament=event, user=players[3])
    assert entry.status == "withdrawn" and entry.left_reason == "withdrew"
    assert actions(event)[-3:-1] == ["withdrew", "result_entered"]


@pytest.mark.django_db
def test_a_round_robin_removal_forfeits_the_rest_of_the_table(staff):
    players = [make_user(n) for n in ("ann", "bea", "cid", "dan")]
    event = chess_event(staff, auto_pair=False)
    enter(players, event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    with pytest.raises(ForbiddenError):
        setup.entrant_remove(actor=players[0], tournament_id=event.pk, username="dan")
    setup.entrant_remove(actor=staff, tournament_id=event.pk, username="dan", reason="no moves")
    ann_dan, bea_cid = tables_of(event, 1)
    assert ann_dan.outcome == "forfeit" and bea_cid.outcome == ""
    results.enter_result(actor=staff, tournament_id=event.pk, table_id=bea_cid.pk, places=[1, 1])
    # auto_pair off: the round is complete but the next waits for the staff's command.
    assert reading.round_complete(event, 1) and not tables_of(event, 2)
    with pytest.raises(ForbiddenError):
        pairing.round_pair(actor=players[0], tournament_id=event.pk)
    pairing.round_pair(actor=staff, tournament_id=event.pk)
    dan_cid, ann_bea = tables_of(event, 2)
    # dan's game of round 2 is listed (the table is fixed) and forfeited to cid at once.
    assert names_at(dan_cid) == ["dan", "cid"] and dan_cid.outcome == "forfeit"
    assert dan_cid.room is None and ann_bea.room is not None
    with pytest.raises(ConflictError, match="still being played"):
        pairing.round_pair(actor=staff, tournament_id=event.pk)
    assert event.actions.get(action="removed").detail == {"user": "dan", "reason": "no moves"}


@pytest.mark.django_db
def test_a_knockout_of_five_gives_byes_to_the_top_seeds_and_a_draw_to_the_better_seed(staff):
    players = [make_user(n) for n in ("s1", "s2", "s3", "s4", "s5")]
    event = chess_event(staff, format="knockout")
    enter(players, event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    event.refresh_from_db()
    assert event.rounds == 3
    # A bracket of 8: 1 v (8), 4 v 5, 2 v (7), 3 v (6): seeds 1-3 have byes worth a win.
    round1 = tables_of(event, 1)
    assert [names_at(t) for t in round1] == [["s1"], ["s4", "s5"], ["s2"], ["s3"]]
    assert [t.outcome for t in round1] == ["bye", "", "bye", "bye"]
    results.enter_result(actor=staff, tournament_id=event.pk, table_id=round1[1].pk,
                         places=[2, 1])  # fmt: skip
    round2 = tables_of(event, 2)
    assert [names_at(t) for t in round2] == [["s1", "s5"], ["s2", "s3"]]
    for table in round2:
        results.enter_result(actor=staff, tournament_id=event.pk, table_id=table.pk,
                             places=[1, 1])  # fmt: skip
    final = tables_of(event, 3)
    assert [names_at(t) for t in final] == [["s1", "s2"]]
    results.enter_result(actor=staff, tournament_id=event.pk, table_id=final[0].pk, places=[2, 1])
    event.refresh_from_db()
    assert event.status == "finished" and event.champion.username == "s2"
    assert [x["player"] for x in reading.standings(event)][:2] == ["s2", "s1"]


@pytest.mark.django_db
def test_late_entries_join_a_swiss_on_no_points_until_the_stated_round(staff):
    players = [make_user(n) for n in ("ann", "bea", "cid", "dan")]
    event = chess_event(staff, format="swiss", rounds=3, late_entry_rounds=2)
    enter(players, event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    eve = make_user("eve")
    late = setup.register(tournament_id=event.pk, user=eve)
    assert (late.first_round, late.seed) == (2, 5)
    for table in tables_of(event, 1):
        results.enter_result(actor=staff, tournament_id=event.pk, table_id=table.pk,
                             places=[1, 2])  # fmt: skip
    # Round 2 is paired: round 3 is past the last round a late entrant may start in.
    with pytest.raises(ConflictError, match="entries are closed"):
        setup.register(tournament_id=event.pk, user=make_user("fay"))
    # Round 2 of five: ann and dan (1 point) meet, bea and the newcomer eve (0) meet. The bye
    # goes to cid, not to eve, the lowest seed: her missed round counts as a float down, and
    # the Dutch rules avoid a second float down (a bye is one) for the same player.
    assert [names_at(t) for t in tables_of(event, 2)] == [["dan", "ann"], ["bea", "eve"], ["cid"]]
    eve_line = next(x for x in reading.standings(event) if x["player"] == "eve")
    assert (eve_line["score"], eve_line["played"], eve_line["rank"]) == (0.0, 0, 5)


@pytest.mark.django_db
def test_registration_rules(staff):
    ann, bea, cid = make_user("ann"), make_user("bea"), make_user("cid")
    event = chess_event(staff, max_entrants=2)
    setup.register(tournament_id=event.pk, user=ann)
    with pytest.raises(ConflictError, match="entered already"):
        setup.register(tournament_id=event.pk, user=ann)
    setup.register(tournament_id=event.pk, user=bea)
    with pytest.raises(ConflictError, match="full"):
        setup.register(tournament_id=event.pk, user=cid)
    # A withdrawal before the start frees the place.
    setup.withdraw(tournament_id=event.pk, user=bea)
    setup.register(tournament_id=event.pk, user=cid)
    with pytest.raises(ForbiddenError):
        setup.tournament_start(actor=ann, tournament_id=event.pk)
    # A closed format takes no late entries.
    with pytest.raises(ApplicationError, match="field is fixed") as refused:
        chess_event(staff, name="Closed", late_entry_rounds=2)
    assert refused.value.field == "late_entry_rounds"


def test_every_staff_action_is_refused_to_a_player_and_writes_nothing(staff, db):
    player = make_user("ann")
    event = chess_event(staff)
    before = TournamentAction.objects.count()
    calls = [
        lambda: setup.tournament_create(
            actor=player,
            settings=TournamentSettings(
                name="Mine", play="room", format="swiss", room_system="wif"
            ),
        ),
        lambda: setup.tournament_start(actor=player, tournament_id=event.pk),
        lambda: setup.tournament_cancel(actor=player, tournament_id=event.pk),
        lambda: setup.entrant_remove(actor=player, tournament_id=event.pk, username="ann"),
        lambda: setup.stand_in(actor=player, tournament_id=event.pk, username="ann"),
        lambda: pairing.round_pair(actor=player, tournament_id=event.pk),
        lambda: results.enter_result(
            actor=player, tournament_id=event.pk, table_id=1, places=[1, 2]
        ),
    ]
    for call in calls:
        with pytest.raises(ForbiddenError) as refused:
            call()
        assert refused.value.code == "staff_only"
    assert TournamentAction.objects.count() == before
    assert Tournament.objects.count() == 1 and Tournament.objects.get().status == "registration"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"format": "ladder"}, "format"),
        ({"play": "chess"}, "play"),
        ({"format": "tables"}, "format"),  # a room event is 1 v 1
        ({"room_system": "chess"}, "room_system"),
        ({"room_rules": "lucky"}, "room_rules"),
        ({"room_sides": ["Axis", "Allies", "Neutral"]}, "room_sides"),
        ({"format": "swiss", "rounds": 0}, "rounds"),
        ({"rounds": 3}, "rounds"),  # a round robin's rounds follow from its field
        ({"min_entrants": 1}, "min_entrants"),
        ({"min_entrants": 8, "max_entrants": 4}, "max_entrants"),
        ({"table_min": 2}, "table_min"),
        ({"format": "swiss", "max_entrants": 65}, "max_entrants"),  # bench/pairing.py
        ({"place_points": [10, 6, 4, 3, 2]}, "place_points"),
        ({"place_points": [10, 12, 4, 3, 2, 1]}, "place_points.1"),
        ({"place_points": [10, 6, "4", 3, 2, 1]}, "place_points.2"),
        ({"days_per_turn": 0}, "days_per_turn"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(staff, given, field):
    with pytest.raises(ApplicationError) as refused:
        chess_event(staff, **given)
    assert getattr(refused.value, "field", None) == field
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_fast_risk_settings_are_checked_like_the_lobby(staff):
    with pytest.raises(ApplicationError) as refused:
        fast_risk_event(staff, format="tables", rounds=2, options={"win": "round-limit"})
    assert refused.value.field == "options.round_limit"
    with pytest.raises(ApplicationError) as refused:
        fast_risk_event(staff, format="tables", rounds=2, time_control="correspondence", days=0)
    assert refused.value.field == "days"
    with pytest.raises(ApplicationError) as refused:
        fast_risk_event(staff, format="tables", rounds=MAX_ROUNDS + 1)
    assert refused.value.field == "rounds"
    assert fast_risk_event(staff, format="tables").rounds == TABLE_ROUNDS  # rounds left out


@pytest.mark.django_db
def test_a_lost_result_task_is_recovered_by_the_sweep(staff):
    ann, bea = make_user("ann"), make_user("bea")
    event = chess_event(staff)
    enter([ann, bea], event)
    setup.tournament_start(actor=staff, tournament_id=event.pk)
    room = tables_of(event, 1)[0].room
    # The room ends without its task (as if the worker died): nothing recorded yet.
    Room.objects.filter(pk=room.pk).update(status="finished", result={"winners": ["Axis"]})
    assert tables_of(event, 1)[0].outcome == ""
    assert results.sweep() == 1
    event.refresh_from_db()
    assert event.champion == ann and results.sweep() == 0


@pytest.mark.django_db
def test_a_game_ended_by_an_administrator_waits_for_the_staff_result(staff):
    from games.play import operations

    players = [make_user(n) for n in ("ann", "bea", "cid")]
    cup = fast_risk_event(staff, format="tables", rounds=1)
    enter(players, cup)
    setup.tournament_start(actor=staff, tournament_id=cup.pk)
    table = tables_of(cup, 1)[0]
    assert table.game.rated and table.game.hints is False
    operations.game_end(table.game, "server moved")
    assert results.record_game(table.game.pk) is False
    assert cup.actions.filter(action="needs_result").exists()
    results.enter_result(actor=staff, tournament_id=cup.pk, table_id=table.pk, places=[1, 2, 2],
                         territories=[20, 11, 11])  # fmt: skip
    seats = TableSeat.objects.filter(table=table).order_by("position")
    # Tied 2nd and 3rd share 6 and 4.
    assert [(s.place, s.points, s.territories) for s in seats] == [(1, 10.0, 20), (2, 5.0, 11),
                                                                   (2, 5.0, 11)]  # fmt: skip
    cup.refresh_from_db()
    assert cup.status == "finished" and cup.champion.username == "ann"
    assert Game.objects.get(pk=table.game.pk).result["ended_by"] == "admin"


@pytest.mark.django_db(transaction=True)
def test_a_people_only_table_event_rates_its_games_with_openskill(staff):
    from tests.games.helpers import play_out

    players = [make_user(n) for n in ("ann", "bea", "cid")]
    cup = fast_risk_event(staff, format="tables", rounds=1, options={**ONE_ROUND})
    enter(players, cup)
    setup.tournament_start(actor=staff, tournament_id=cup.pk)
    table = tables_of(cup, 1)[0]
    assert table.game.rated is True and table.game.hints is False
    play_out(table.game, players)
    cup.refresh_from_db()
    table.refresh_from_db()
    assert table.outcome == "played" and cup.status == "finished"
    seats = sorted(table.seats.select_related("entrant__user"), key=lambda s: s.place)
    # The game's ranking is the table's order, and the OpenSkill update follows the places.
    ranking = Game.objects.get(pk=table.game.pk).result["ranking"]
    assert [s.entrant.user.username for s in seats] == ranking
    assert [s.points for s in seats] == [10.0, 6.0, 4.0]
    changes = RatingChange.objects.filter(game=table.game, kind="fast_risk_multi")
    assert changes.count() == 3
    by_user = {c.user.username: c.rating_after - c.rating_before for c in changes}
    assert by_user[ranking[0]] > 0 > by_user[ranking[2]]
    assert cup.champion.username == ranking[0]


@pytest.mark.django_db
def test_a_table_event_too_small_to_pair_waits_for_the_staff_to_finish_it(staff):
    players = [make_user(n) for n in ("ann", "bea", "cid")]
    cup = fast_risk_event(staff, format="tables", rounds=3)
    enter(players, cup)
    setup.tournament_start(actor=staff, tournament_id=cup.pk)
    table = tables_of(cup, 1)[0]
    setup.withdraw(tournament_id=cup.pk, user=players[2])  # cid: placed last at the table
    results.enter_result(actor=staff, tournament_id=cup.pk, table_id=table.pk, places=[1, 2, 3])
    cup.refresh_from_db()
    # Two players cannot fill a table of 3: the result stands, the failure is logged.
    assert cup.status == "running" and cup.current_round == 1
    failed = cup.actions.get(action="pairing_failed")
    assert failed.detail["round"] == 2 and "cannot be paired" in failed.detail["reason"]
    with pytest.raises(ForbiddenError):
        results.finish_now(actor=players[0], tournament_id=cup.pk)
    results.finish_now(actor=staff, tournament_id=cup.pk)
    cup.refresh_from_db()
    assert cup.status == "finished" and cup.rounds == 1 and cup.champion.username == "ann"
    assert actions(cup)[-2:] == ["finished_early", "finished"]
