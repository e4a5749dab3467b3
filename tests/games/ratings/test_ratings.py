"""Ratings after rated games and rooms: games.ratings.rate."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from games.competition import glicko2_update
from games.models import Game, Rating, RatingChange, Room, RoomSide, Seat
from games.play import lobby, submit
from games.ratings import rate
from tests.games.conftest import client_for, make_user
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def finished_game(users, ranking, *, at, winner=True, rated=True) -> Game:
    """A finished game row with the given people seated in order and the result's ranking."""
    game = Game.objects.create(
        creator=users[0], seat_count=len(users), server_seed="0" * 64, seed_commitment="0" * 64,
        status=Game.Status.FINISHED, rated=rated, finished_at=at,
        result={"winner": ranking[0] if winner else None, "ranking": ranking},
    )  # fmt: skip
    for i, user in enumerate(users):
        Seat.objects.create(game=game, position=i, user=user, player=user.get_username())
    return game


def test_two_player_game_equals_glicko2_by_hand(alice, bob):
    game = finished_game([alice, bob], ["bob", "alice"], at=timezone.now())
    assert rate.rate_game(game.pk) == 2
    new = (1500.0, 350.0, 0.06)
    bob_expected = glicko2_update(new, [(1500.0, 350.0, 1.0)])
    alice_expected = glicko2_update(new, [(1500.0, 350.0, 0.0)])
    bob_r = Rating.objects.get(user=bob, kind="fast_risk_2p")
    alice_r = Rating.objects.get(user=alice, kind="fast_risk_2p")
    assert (bob_r.rating, bob_r.deviation, bob_r.volatility) == bob_expected
    assert (alice_r.rating, alice_r.deviation, alice_r.volatility) == alice_expected
    # Equal players, a win: the winner gains exactly what the loser loses (about 162.3).
    assert bob_r.rating - 1500 == pytest.approx(1500 - alice_r.rating)
    assert bob_r.rating == pytest.approx(1662.31, abs=0.01)
    assert bob_r.games == 1 and alice_r.games == 1


def test_second_game_grows_the_deviation_over_the_idle_days(alice, bob):
    start = timezone.now()
    rate.rate_game(finished_game([alice, bob], ["alice", "bob"], at=start).pk)
    a1 = Rating.objects.get(user=alice)
    b1 = Rating.objects.get(user=bob)
    later = start + timedelta(days=100)
    rate.rate_game(finished_game([alice, bob], ["alice", "bob"], at=later, winner=False).pk)
    # 100 days = 21.436 lichess rating periods of volatility 0.06 on the Glicko-2 scale.
    periods = 100 * 0.21436
    grown_a = ((a1.deviation / 173.7178) ** 2 + periods * a1.volatility**2) ** 0.5 * 173.7178
    grown_b = ((b1.deviation / 173.7178) ** 2 + periods * b1.volatility**2) ** 0.5 * 173.7178
    draw_a = glicko2_update((a1.rating, grown_a, a1.volatility), [(b1.rating, grown_b, 0.5)])
    a2 = Rating.objects.get(user=alice)
    assert (a2.rating, a2.deviation, a2.volatility) == pytest.approx(draw_a, abs=1e-9)
    change = RatingChange.objects.get(user=alice, game__finished_at=later)
    assert change.deviation_before == pytest.approx(grown_a, abs=1e-9)
    assert a2.games == 2 and a2.last_played == later


def test_four_player_game_equals_openskill(alice, bob, carol):
    dave = make_user("dave")
    game = finished_game([alice, bob, carol, dave], ["carol", "alice", "dave", "bob"],
                         at=timezone.now())  # fmt: skip
    assert rate.rate_game(game.pk) == 4
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    # Seats in order alice, bob, carol, dave; places 2, 4, 1, 3.
    expected = model.rate(teams, ranks=[2, 4, 1, 3])
    for user, (team,) in zip([alice, bob, carol, dave], expected, strict=True):
        got = Rating.objects.get(user=user, kind="fast_risk_multi")
        assert (got.rating, got.deviation) == (team.mu, team.sigma)
    assert Rating.objects.get(user=carol).rating > Rating.objects.get(user=alice).rating


def test_left_player_ranks_last_and_draw_ties(alice, bob, carol):
    # bob left: not in the ranking, so last; the places are alice 1, carol 2, bob 3.
    game = finished_game([alice, bob, carol], ["alice", "carol"], at=timezone.now())
    rate.rate_game(game.pk)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 3, 2])
    assert Rating.objects.get(user=bob).rating == expected[1][0].mu
    # An agreed draw (no winner): everyone tied, so three equal new players stay equal.
    eve, fay, gus = make_user("eve"), make_user("fay"), make_user("gus")
    draw = finished_game([eve, fay, gus], ["eve", "fay", "gus"], at=timezone.now(), winner=False)
    rate.rate_game(draw.pk)
    mus = {r.rating for r in Rating.objects.filter(user__in=[eve, fay, gus])}
    assert mus == {model.rate([[model.rating()]] * 3, ranks=[1, 1, 1])[0][0].mu}


def test_late_comer_is_not_rated(alice, bob, carol):
    game = finished_game([alice, bob], ["carol", "alice"], at=timezone.now())
    # carol took over bob's army after the start: a seat row of her own, after the 2 seats.
    Seat.objects.create(game=game, position=2, user=carol, player="carol")
    assert rate.rate_game(game.pk) == 2
    assert not Rating.objects.filter(user=carol).exists()
    # alice ranks above bob (who left, so is missing from the ranking): a win for her.
    expected = glicko2_update((1500.0, 350.0, 0.06), [(1500.0, 350.0, 1.0)])
    assert Rating.objects.get(user=alice).rating == expected[0]


def test_rated_once_only(alice, bob):
    game = finished_game([alice, bob], ["alice", "bob"], at=timezone.now())
    assert rate.rate_game(game.pk) == 2
    first = Rating.objects.get(user=alice).rating
    assert rate.rate_game(game.pk) == 0
    assert Rating.objects.get(user=alice).rating == first
    assert RatingChange.objects.filter(game=game).count() == 2


def test_unrated_or_admin_ended_game_changes_nothing(alice, bob):
    unrated = finished_game([alice, bob], ["alice", "bob"], at=timezone.now(), rated=False)
    assert rate.rate_game(unrated.pk) == 0
    ended = finished_game([alice, bob], ["alice", "bob"], at=timezone.now())
    ended.result = {"ended_by": "admin", "reason": "test"}
    ended.save()
    assert rate.rate_game(ended.pk) == 0
    assert not Rating.objects.exists()


def test_bot_game_is_unrated_from_the_start(alice):
    game = start_game(alice, 2)
    assert Seat.objects.filter(game=game, user=None).count() == 1
    assert game.rated is False
    assert Game.objects.get(pk=game.pk).rated is False


def test_person_game_stays_rated_and_is_rated_when_it_ends(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, 2, others=[bob])
    assert Game.objects.get(pk=game.pk).rated is True
    with django_capture_on_commit_callbacks(execute=True):
        submit.action_submit(
            game_id=game.pk, user=bob, action={"type": "concede"}, expected_version=game.version
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # bob conceded: alice won; the after-commit task rated it as glicko2_update says.
    expected = glicko2_update((1500.0, 350.0, 0.06), [(1500.0, 350.0, 1.0)])
    assert Rating.objects.get(user=alice, kind="fast_risk_2p").rating == expected[0]
    assert Rating.objects.get(user=bob).rating < 1500


def test_rated_flag_fixed_at_creation_through_the_api(alice):
    response = client_for(alice).post("/api/games", {"seats": 2, "rated": "yes"}, format="json")
    assert response.status_code == 400
    assert "rated" in str(response.json())
    created = client_for(alice).post("/api/games", {"seats": 3, "rated": False}, format="json")
    assert created.status_code == 201 and created.json()["rated"] is False
    default = client_for(alice).post("/api/games", {"seats": 3}, format="json")
    assert default.json()["rated"] is True
    game = lobby.game_create(creator=alice, seats=2, rated=False)
    assert Game.objects.get(pk=game.pk).rated is False


def two_sided_room(alice, bob, *, winners, at) -> Room:
    room = Room.objects.create(
        name="r", system=Room.System.AXIS_ALLIES, creator=alice, referee=alice,
        server_seed="0" * 64, seed_commitment="0" * 64, status=Room.Status.FINISHED,
        finished_at=at, rated=True, result={"winners": winners, "text": ""},
    )  # fmt: skip
    RoomSide.objects.create(room=room, position=0, name="Germany", user=alice)
    RoomSide.objects.create(room=room, position=1, name="Soviet Union", user=bob)
    return room


def test_room_rated_with_glicko2(alice, bob):
    room = two_sided_room(alice, bob, winners=["Soviet Union"], at=timezone.now())
    assert rate.rate_room(room.pk) == 2
    expected = glicko2_update((1500.0, 350.0, 0.06), [(1500.0, 350.0, 1.0)])
    assert Rating.objects.get(user=bob, kind="axis_allies").rating == expected[0]
    assert rate.rate_room(room.pk) == 0


def test_room_rated_flag_at_creation(alice):
    from games.rooms import setup

    two = setup.room_create(creator=alice, name="a", system="wif", sides=["Axis", "Allies"])
    assert two.rated is True
    three = setup.room_create(creator=alice, name="b", system="wif", sides=["A", "B", "C"])
    assert three.rated is False
    response = client_for(alice).post(
        "/api/rooms",
        {"name": "c", "system": "wif", "sides": ["A", "B", "C"], "rated": True},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "rated"


def test_rerate_reproduces_the_incremental_numbers(alice, bob, carol):
    dave = make_user("dave")
    t0 = timezone.now() - timedelta(days=400)
    results = [
        ([alice, bob], ["alice", "bob"], 0),
        ([bob, carol, dave, alice], ["dave", "bob", "alice", "carol"], 3),
        ([carol, alice], ["carol", "alice"], 40),
        ([alice, carol, dave], ["alice", "dave", "carol"], 41),
        ([bob, alice], ["bob", "alice"], 300),
    ]
    for users, ranking, day in results:
        rate.rate_game(finished_game(users, ranking, at=t0 + timedelta(days=day)).pk)
    rate.rate_room(two_sided_room(alice, bob, winners=[], at=t0 + timedelta(days=5)).pk)
    # The room ended on day 5 but was rated last; no game shares its kind, so the order
    # between them changes nothing and every number must come back the same.
    fields = ("user_id", "kind", "rating", "deviation", "volatility", "games", "last_played")
    before = sorted(Rating.objects.values_list(*fields))
    history = sorted(
        RatingChange.objects.values_list("user_id", "kind", "game_id", "room_id",
                                         "rating_after", "deviation_after")
    )  # fmt: skip
    out = io.StringIO()
    call_command("rerate", stdout=out)
    assert out.getvalue().strip() == "rerated 6 result(s)"
    assert sorted(Rating.objects.values_list(*fields)) == before
    # 2p: alice, bob, carol; multi: all four; axis_allies: alice, bob.
    assert len(before) == 3 + 4 + 2
    assert sorted(
        RatingChange.objects.values_list("user_id", "kind", "game_id", "room_id",
                                         "rating_after", "deviation_after")
    ) == history  # fmt: skip
