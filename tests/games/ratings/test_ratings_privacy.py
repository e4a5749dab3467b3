"""A private game's or room's rating change is shown to its players and staff only
(games.ratings.board, /api/players/<username>/ratings, /players/<username>).

Before: a visitor read bob's private games and rooms in his history (their dates, ids and
rating changes) though the games themselves answer 404 to strangers.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Room
from games.ratings import rate
from games.rooms import journal, setup
from tests.games.conftest import client_for, make_user
from tests.games.ratings.test_ratings import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def results(alice, bob, carol):
    """bob's history: a public game with alice, then a private game with alice, then a private
    rated room with alice refereed by carol (who plays no side)."""
    t0 = timezone.now() - timedelta(days=3)
    public = finished_game([alice, bob], ["bob", "alice"], at=t0)
    private = finished_game([alice, bob], ["bob", "alice"], at=t0 + timedelta(days=1))
    Game.objects.filter(pk=private.pk).update(public=False)
    rate.rate_game(public.pk)
    rate.rate_game(private.pk)
    room = setup.room_create(creator=carol, name="Secret", system="wif",
                             sides=["Axis", "Allies"], public=False)  # fmt: skip
    setup.room_join(room_id=room.pk, user=alice, side="Axis", invite=room.invite_token)
    setup.room_join(room_id=room.pk, user=bob, side="Allies", invite=room.invite_token)
    for user in (alice, bob):
        journal.agree_result(room_id=room.pk, user=user, winners=["Allies"])
    rate.rate_room(room.pk)
    return public, private, Room.objects.get(pk=room.pk)


def shown(client, username="bob"):
    answer = client.get(f"/api/players/{username}/ratings")
    assert answer.status_code == 200
    return [(c["game"], c["room"]) for c in answer.json()["history"]]


def test_a_visitor_and_a_stranger_see_only_the_public_games(results):
    public, private, room = results
    assert room.public is False
    stranger = make_user("erin")
    assert shown(Client()) == [(public.pk, None)]
    assert shown(client_for(stranger)) == [(public.pk, None)]
    assert client_for(stranger).get(f"/api/games/{private.pk}").status_code == 404
    # The public rating itself stays (it counts all three results, as on the leaderboard).
    rows = Client().get("/api/players/bob/ratings").json()["ratings"]
    assert sum(r["games"] for r in rows) == 3


def test_the_players_the_player_and_staff_see_everything(results, alice, bob, carol):
    public, private, room = results
    everything = [(public.pk, None), (private.pk, None), (None, room.pk)]
    assert shown(client_for(bob)) == everything
    assert shown(client_for(alice)) == everything  # alice played all three
    assert shown(client_for(make_user("staff", is_staff=True))) == everything
    # carol refereed the room but played neither game nor side: the public game only.
    assert shown(client_for(carol)) == [(public.pk, None)]


def test_the_player_page_hides_them_too(results):
    public, private, room = results
    page = Client().get("/players/bob").content.decode()
    assert f"/games/{public.pk}" in page
    assert f"/games/{private.pk}" not in page and f"/rooms/{room.pk}" not in page
    staff = Client()
    staff.force_login(make_user("staff2", is_staff=True))
    own = staff.get("/players/bob").content.decode()
    assert f"/games/{private.pk}" in own and f"/rooms/{room.pk}" in own


def test_a_player_with_only_private_results_shows_a_flat_chart_to_strangers(alice, bob):
    private = finished_game([alice, bob], ["bob", "alice"], at=timezone.now())
    Game.objects.filter(pk=private.pk).update(public=False)
    rate.rate_game(private.pk)
    assert shown(Client()) == []
    page = Client().get("/players/bob")
    assert page.status_code == 200
    assert f"/games/{private.pk}" not in page.content.decode()
