"""The tournaments' admin: the add form creates through ``tournament_create``, the
changelist actions start, pair and cancel through the services, a change is logged as
"edited", and the staff log (``TournamentAction``) is read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Tournament, TournamentAction, TournamentTable
from games.tournaments import results, setup
from games.tournaments.settings import TournamentSettings
from tests.games.conftest import make_user

pytestmark = pytest.mark.django_db

ADD = {
    "name": "Admin Cup", "description": "", "play": "fast_risk", "format": "swiss",
    "options": '{"win": "round-limit", "round_limit": 8}', "time_control": "live",
    "time_per_decision": "00:05:00", "ai_level": "easy", "room_system": "", "room_rules": "",
    "room_edition": "", "room_sides": "[]", "days_per_turn": "", "rated": "on",
    "registration_opens_0": "", "registration_opens_1": "", "registration_closes_0": "",
    "registration_closes_1": "", "min_entrants": "2", "max_entrants": "16", "rounds": "3",
    "table_min": "3", "table_max": "6", "place_points": "[10, 6, 4, 3, 2, 1]",
    "late_entry_rounds": "1", "auto_pair": "on",
}  # fmt: skip


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "x" * 12)


@pytest.fixture
def admin(root) -> Client:
    client = Client()
    client.force_login(root)
    return client


def robin(staff, players: list[Any], *, auto_pair: bool = True) -> Tournament:
    """A room round robin (A&A Chess) with ``players`` entered."""
    tournament = setup.tournament_create(
        actor=staff,
        settings=TournamentSettings(
            name="Robin", play="room", format="round_robin", room_system="axis_allies",
            room_rules="chess", room_edition="classic", days_per_turn=7, auto_pair=auto_pair,
        ),
    )  # fmt: skip
    for player in players:
        setup.register(tournament_id=tournament.pk, user=player)
    return tournament


def act(client: Client, name: str, ids: list[int]):
    return client.post(
        reverse("admin:games_tournament_changelist"),
        {"action": name, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


def notes(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_adding_a_tournament_goes_through_the_service(admin, root):
    response = admin.post(reverse("admin:games_tournament_add"), ADD)
    created = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:games_tournament_changelist")
    assert (created.format, created.rounds, created.late_entry_rounds) == ("swiss", 3, 1)
    assert created.options["round_limit"] == 8 and created.time_per_decision.seconds == 300
    assert created.created_by == root
    logged = TournamentAction.objects.get(tournament=created)
    assert (logged.action, logged.actor, logged.detail) == (
        "created", root, {"play": "fast_risk", "format": "swiss"})  # fmt: skip


def test_the_services_refusal_is_shown_on_the_add_form_and_nothing_is_made(admin):
    add = reverse("admin:games_tournament_add")
    tables = admin.post(add, {**ADD, "format": "tables"})
    assert tables.status_code == 200
    assert tables.context["adminform"].form.errors == {
        "min_entrants": ["a tables event needs at least 3 entrants"]}  # fmt: skip
    fixed_rounds = admin.post(add, {**ADD, "format": "round_robin", "late_entry_rounds": "0"})
    assert fixed_rounds.context["adminform"].form.errors == {
        "rounds": ["a round_robin event's rounds follow from its field"]}  # fmt: skip
    bad_clock = admin.post(add, {**ADD, "time_per_decision": "05:00:00"})
    assert bad_clock.context["adminform"].form.errors == {
        "time_per_decision": ["live games need minutes per turn, 1-240"]}  # fmt: skip
    assert Tournament.objects.count() == TournamentAction.objects.count() == 0


def test_the_changelist_actions_start_and_pair_through_the_services(admin, root, alice, bob,
                                                                   carol):  # fmt: skip
    tournament = robin(root, [alice, bob, carol, make_user("dave")], auto_pair=False)
    started = act(admin, "start_tournaments", [tournament.pk])
    assert "Started: 1" in notes(started)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round, tournament.rounds) == ("running", 1, 3)

    change = admin.get(reverse("admin:games_tournament_change", args=[tournament.pk]))
    rooms = TournamentTable.objects.filter(round__tournament=tournament).values_list(
        "room", flat=True
    )
    assert all(f"room {room}" in change.content.decode() for room in rooms)  # the round's tables
    early = act(admin, "pair_next_rounds", [tournament.pk])
    assert notes(early) == ["Robin: round 1 is still being played"]
    for table in TournamentTable.objects.filter(round__tournament=tournament):
        results.enter_result(actor=root, tournament_id=tournament.pk, table_id=table.pk,
                             places=[1, 2])  # fmt: skip
    tournament.refresh_from_db()
    assert tournament.current_round == 1  # no automatic pairing in this event
    paired = act(admin, "pair_next_rounds", [tournament.pk])
    assert "Paired the next round: 1" in notes(paired)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    actions = TournamentAction.objects.filter(tournament=tournament)
    log = list(actions.values_list("action", "actor"))
    assert log[:3] == [("created", root.pk), ("started", root.pk), ("paired", root.pk)]
    assert log[-1] == ("paired", root.pk)


def test_the_cancel_action_calls_the_event_off(admin, root, alice, bob):
    tournament = robin(root, [alice, bob])
    done = act(admin, "cancel_tournaments", [tournament.pk])
    assert "Cancelled: 1" in notes(done)
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    last = TournamentAction.objects.filter(tournament=tournament).last()
    assert (last.action, last.detail) == ("cancelled", {"reason": "cancelled by root in the admin"})
    again = act(admin, "start_tournaments", [tournament.pk])
    assert notes(again) == ["Robin: the tournament is cancelled"]


def test_a_change_saves_the_edited_fields_and_logs_them(admin, root):
    tournament = robin(root, [])
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    assert admin.get(url).status_code == 200
    form = {
        "name": "Robin Renamed", "description": "now with a description",
        "registration_opens_0": "", "registration_opens_1": "", "registration_closes_0": "",
        "registration_closes_1": "", "min_entrants": "2", "max_entrants": "24", "auto_pair": "on",
        "entrants-TOTAL_FORMS": "0", "entrants-INITIAL_FORMS": "0",
        "round_set-TOTAL_FORMS": "0", "round_set-INITIAL_FORMS": "0",
    }  # fmt: skip
    response = admin.post(url, form)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.description) == ("Robin Renamed", "now with a description")
    edited = TournamentAction.objects.filter(tournament=tournament, action="edited").get()
    assert (edited.actor, edited.detail) == (root, {"fields": ["name", "description"]})
    refused = admin.post(url, {**form, "min_entrants": "10", "max_entrants": "4"})
    assert refused.status_code == 200
    # A round robin takes at most 24 (games.competition.formats.MAX_FIELD), edited or not.
    too_many = admin.post(url, {**form, "max_entrants": "25"})
    assert too_many.status_code == 200
    assert "at most 24 entrants" in too_many.content.decode()
    assert TournamentAction.objects.filter(action="edited").count() == 1


def test_the_staff_log_is_read_only(admin, root):
    tournament = robin(root, [])
    changelist = admin.get(reverse("admin:games_tournamentaction_changelist"))
    assert changelist.status_code == 200 and "created" in changelist.content.decode()
    assert admin.get(reverse("admin:games_tournamentaction_add")).status_code == 403
    entry = TournamentAction.objects.get(tournament=tournament)
    url = reverse("admin:games_tournamentaction_change", args=[entry.pk])
    admin.post(url, {"action": "forged"})
    entry.refresh_from_db()
    assert entry.action == "created"
    assert reverse("admin:games_tournament_delete", args=[tournament.pk])
    assert admin.post(reverse("admin:games_tournament_delete", args=[tournament.pk]),
                      {"post": "yes"}).status_code == 403  # fmt: skip
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_ratings_are_listed_read_only_in_the_admin(admin, root):
    from django.utils import timezone

    from games.models import Rating

    alice = make_user("alice")
    Rating.objects.create(user=alice, kind="axis_allies", rating=1662.31, deviation=290.3,
                          volatility=0.06, games=1, last_played=timezone.now())  # fmt: skip
    listing = admin.get(reverse("admin:games_rating_changelist") + "?kind__exact=axis_allies")
    assert listing.status_code == 200
    assert "alice" in listing.content.decode() and "1662.31" in listing.content.decode()
    assert admin.get(reverse("admin:games_rating_add")).status_code == 403
    rating = Rating.objects.get()
    admin.post(reverse("admin:games_rating_change", args=[rating.pk]), {"rating": "3000"})
    rating.refresh_from_db()
    assert rating.rating == 1662.31
    assert admin.get(reverse("admin:games_ratingchange_changelist")).status_code == 200
