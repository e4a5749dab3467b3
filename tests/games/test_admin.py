"""The admin: pages for operators (never the seed while a game runs) and the actions that call
the deadline services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from games.models import Deadline, Game, Seat
from games.play.reads import fetch
from tests.games.conftest import PASSWORD
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import START, open_deadline, started

# The shared fixtures (a fixture is found by the name it has in the test module).
_nobody_connected = shared._nobody_connected
commits = shared.commits
frozen = shared.frozen


@pytest.fixture
def admin_client(db, frozen) -> Client:
    """A superuser's browser, logged in at the frozen time (a session made in real time would
    have expired by START)."""
    root = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    return client


@pytest.fixture
def game(alice, bob, commits, frozen) -> Game:
    """A running live game: alice (client seed set), bob, one bot; both people setting up."""
    return started(commits, alice, others=[bob], client_seed="alices-own-client-seed")


def secrets_of(game: Game) -> list[str]:
    game.refresh_from_db()
    seeds = [game.server_seed, game.snapshot.state["seed"]]
    seeds += [s.client_seed for s in game.seats.all() if s.client_seed]
    assert len(seeds) == 4  # server, board, alice's, bob's
    return seeds


def pages(game: Game) -> list[str]:
    seat = game.seats.get(player="alice")
    deadline = Deadline.objects.filter(game=game).first()
    return [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_changelist") + "?status__exact=running",
        reverse("admin:games_game_changelist") + "?q=alice",
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_seat_changelist"),
        reverse("admin:games_seat_changelist") + "?q=alice",
        reverse("admin:games_seat_change", args=[seat.pk]),
        reverse("admin:games_deadline_changelist"),
        reverse("admin:games_deadline_changelist") + "?status__exact=open",
        reverse("admin:games_deadline_change", args=[deadline.pk]),
        reverse("admin:games_gamesnapshot_change", args=[game.pk]),
    ]


def test_every_page_answers_and_none_shows_a_seed_while_the_game_runs(admin_client, game):
    secrets = secrets_of(game)
    for url in pages(game):
        response = admin_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        for secret in secrets:
            assert secret not in html, url
    detail = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "secret until the game is over" in detail
    assert game.seed_commitment in detail  # the commitment is public
    assert reverse("admin:games_gamesnapshot_change", args=[game.pk]) in detail  # live board


def test_a_paused_game_hides_the_seed_too(admin_client, game):
    from games.play import operations

    operations.game_pause(game)
    secrets = secrets_of(game)
    html = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert all(secret not in html for secret in secrets)


def test_the_seed_shows_once_the_game_is_over(admin_client, game, commits):
    from games.play import operations

    with commits():
        operations.game_end(game, "test")
    html = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert game.server_seed in html
    seat = game.seats.get(player="alice")
    html = admin_client.get(reverse("admin:games_seat_change", args=[seat.pk])).content.decode()
    assert "alices-own-client-seed" in html


def test_the_changelist_filters_by_status(admin_client, game, alice):
    from games.play import lobby

    lobby.game_create(creator=alice, seats=2, name="still in the lobby")
    running = admin_client.get(reverse("admin:games_game_changelist") + "?status__exact=running")
    lobby_page = admin_client.get(reverse("admin:games_game_changelist") + "?status__exact=open")
    assert f"Game {game.pk}" in running.content.decode()
    assert "still in the lobby" not in running.content.decode()
    assert "still in the lobby" in lobby_page.content.decode()


def action(client: Client, model: str, name: str, ids: list[int]):
    return client.post(
        reverse(f"admin:games_{model}_changelist"),
        {"action": name, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


def test_pause_resume_and_end_through_the_admin(admin_client, game, commits, frozen):
    with commits():
        response = action(admin_client, "game", "pause_games", [game.pk])
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    assert "Paused: 1" in response.content.decode()

    response = action(admin_client, "game", "pause_games", [game.pk])  # again: refused, said so
    assert "not running" in response.content.decode()

    deadline = open_deadline(game, game.seats.get(player="alice").user)
    frozen.shift(timedelta(minutes=10))
    with commits():
        action(admin_client, "game", "resume_games", [game.pk])
    game.refresh_from_db()
    deadline.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert deadline.due_at == START + timedelta(minutes=15)

    with commits():
        response = action(admin_client, "game", "end_games", [game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == {"ended_by": "admin", "reason": "ended by root in the admin"}
    assert "Ended: 1" in response.content.decode()


def test_extend_deadlines_through_the_admin(admin_client, game, commits):
    deadline = Deadline.objects.filter(game=game, status="open").first()
    with commits():
        action(admin_client, "deadline", "extend_hour", [deadline.pk])
    deadline.refresh_from_db()
    assert deadline.due_at == START + timedelta(minutes=5, hours=1)
    with commits():
        response = action(admin_client, "deadline", "extend_day", [deadline.pk])
    assert "Extended by 1 day: 1" in response.content.decode()
    deadline.refresh_from_db()
    assert deadline.due_at == START + timedelta(minutes=5, hours=1, days=1)


def test_replace_a_seat_with_the_ai_through_the_admin(admin_client, game, commits):
    seat = game.seats.get(player="bob")
    with commits():
        response = action(admin_client, "seat", "replace_with_ai", [seat.pk])
    assert "Replaced with the AI: 1" in response.content.decode()
    seat.refresh_from_db()
    assert seat.state == Seat.State.LEFT

    assert fetch.game_state(game).seat("bob").player is None


def test_the_game_form_edits_only_its_few_fields(admin_client, game):
    url = reverse("admin:games_game_change", args=[game.pk])
    version = game.version
    ships = str(game.ships.count())
    response = admin_client.post(
        url, {"name": "Renamed", "public": "on", "max_timeouts": "5",
              "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "3",
              "deadlines-TOTAL_FORMS": "0", "deadlines-INITIAL_FORMS": "2",
              "holdings-TOTAL_FORMS": "0", "holdings-INITIAL_FORMS": "42",
              "ships-TOTAL_FORMS": "0", "ships-INITIAL_FORMS": ships},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert (game.name, game.max_timeouts, game.version) == ("Renamed", 5, version)
    assert game.status == Game.Status.RUNNING


def test_staff_without_the_change_permission_get_no_levers(game, frozen):
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD, is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_game", "view_deadline", "view_seat"])
    )
    client = Client()
    client.force_login(viewer)
    page = client.get(reverse("admin:games_game_changelist"))
    assert page.status_code == 200
    assert "pause_games" not in page.content.decode()
    response = action(client, "game", "pause_games", [game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert response.status_code == 200
