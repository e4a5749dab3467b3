"""The tournaments' pages: /tournaments, /tournaments/<id> and /tournaments/new,
rendered on the server, and their forms, which post to page views that call the services.

The finished event the reading tests look at is a round robin of four in A&A Chess rooms whose
results the staff enter, so every score is known in advance:

    alice beats bob and dave and draws with carol      2½
    carol beats dave                                    1½
    bob beats carol, loses to dave                      1
    dave beats bob                                      1

bob and dave tie on score and on Buchholz (5 each: bob's opponents 2½ + 1½ + 1, dave's
2½ + 1 + 1½); Sonneborn-Berger splits them: bob beat carol (1½), dave beat bob (1).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import TableSeat, Tournament, TournamentAction, TournamentTable
from games.tournaments import results, setup
from games.tournaments.settings import TournamentSettings

pytestmark = pytest.mark.django_db

#: Who wins each pairing of the round robin (None: a draw).
WINNER = {
    frozenset({"alice", "bob"}): "alice",
    frozenset({"alice", "carol"}): None,
    frozenset({"alice", "dave"}): "alice",
    frozenset({"bob", "carol"}): "bob",
    frozenset({"bob", "dave"}): "dave",
    frozenset({"carol", "dave"}): "carol",
}
STAFF_ACTIONS = ("start", "pair", "finish", "cancel", "remove", "stand-in", "result")


def make(name: str, **extra: Any):
    """A user without a password (no hashing: the tests sign in with ``force_login``)."""
    return get_user_model().objects.create_user(name, f"{name}@example.org", **extra)


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def referee(db):
    return make("referee", is_staff=True)


@pytest.fixture
def players(db):
    return [make(name) for name in ("alice", "bob", "carol", "dave")]


def room_robin(referee, name: str = "Chess Cup") -> Tournament:
    return setup.tournament_create(
        actor=referee,
        settings=TournamentSettings(name=name, play="room", format="round_robin",
                                    room_system="axis_allies", room_rules="chess",
                                    room_edition="classic", days_per_turn=7),
    )  # fmt: skip


def seated(table: TournamentTable) -> list[str]:
    return [s.entrant.user.username for s in table.seats.order_by("position")]


def places_for(table: TournamentTable) -> list[int]:
    names = seated(table)
    winner = WINNER[frozenset(names)]
    return [1, 1] if winner is None else [1 if n == winner else 2 for n in names]


def pending(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament, outcome="")
        .select_related("round")
        .order_by("round__number", "number")
    )


def play_out(tournament: Tournament, referee) -> None:
    """Every table's result entered by the staff until the event finishes (rounds pair
    themselves as each one completes)."""
    while tables := pending(tournament):
        for table in tables:
            results.enter_result(actor=referee, tournament_id=tournament.pk, table_id=table.pk,
                                 places=places_for(table))  # fmt: skip
        tournament.refresh_from_db()


@pytest.fixture
def finished(referee, players) -> Tournament:
    tournament = room_robin(referee)
    for player in players:
        setup.register(tournament_id=tournament.pk, user=player)
    setup.tournament_start(actor=referee, tournament_id=tournament.pk)
    play_out(tournament, referee)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def table_rows(text: str, table_id: str) -> list[list[str]]:
    """The body rows of ``<table id=table_id>`` as lists of cell texts (tags stripped)."""
    match = re.search(rf'<table id="{table_id}".*?<tbody>(.*?)</tbody>', text, re.S)
    assert match is not None, table_id
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", match.group(1), re.S)
    cells = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S) for row in rows]
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in row] for row in cells]


# --- reading ------------------------------------------------------------------------------------


def test_the_list_shows_each_tournament_in_its_section(finished, referee, players):
    open_one = room_robin(referee, name="Spring Open")
    setup.register(tournament_id=open_one.pk, user=players[0])
    text = page(browser(), "/tournaments")
    assert '<a href="/tournaments">Tournaments</a>' in text  # the site's navigation
    registration = text.index('id="registration-title"')
    running = text.index('id="running-title"')
    done = text.index('id="finished-title"')
    assert registration < text.index("Spring Open") < running
    assert done < text.index("Chess Cup")
    rows = table_rows(text.replace("<table>", '<table id="any">', 1), "any")
    assert rows == [["Spring Open", "Round robin",
                     "Axis & Allies, A&A Chess, classic edition: Axis v Allies, 7 days per turn",
                     "1 / 24", "not started", "—"]]  # fmt: skip
    finished_rows = table_rows(text[done:].replace("<table>", '<table id="f">', 1), "f")
    assert finished_rows[0][0] == "Chess Cup"
    assert finished_rows[0][3:] == ["4 / 24", "3 / 3", "alice"]
    assert 'href="/tournaments/new"' not in text  # for staff only
    assert 'href="/tournaments/new"' in page(browser(referee), "/tournaments")


def test_the_finished_round_robin_shows_standings_with_tie_breaks_and_the_champion(finished):
    text = page(browser(), f"/tournaments/{finished.pk}")
    assert re.search(r'id="champion">Champion: <strong><a href="/players/alice">alice</a>', text)
    standings = table_rows(text, "standings")
    # rank, player, score, Buchholz, Sonneborn-Berger, wins, played, status
    assert standings == [
        ["1", "alice", "2½", "3½", "2¾", "2", "3", "active"],
        ["2", "carol", "1½", "4½", "2¼", "1", "3", "active"],
        ["3", "bob", "1", "5", "1½", "1", "3", "active"],
        ["4", "dave", "1", "5", "1", "1", "3", "active"],
    ]
    entrants = table_rows(text, "entrants")
    assert [row[:2] for row in entrants] == [["1", "alice"], ["2", "bob"], ["3", "carol"],
                                             ["4", "dave"]]  # fmt: skip
    assert all(row[2] == "1500" for row in entrants)  # unrated: seeded at Glicko-2's start
    about = re.sub(r"\s+", " ", text)
    assert "<dt>Registration</dt><dd>closed</dd>" in about


def test_the_crosstable_gives_rank_colour_and_score_per_round(finished):
    text = page(browser(), f"/tournaments/{finished.pk}")
    rank = {"alice": 1, "carol": 2, "bob": 3, "dave": 4}
    expected: dict[str, list[str]] = {name: [] for name in rank}
    tables = TournamentTable.objects.filter(round__tournament=finished)
    for table in tables.order_by("round__number", "number"):
        first, second = seated(table)
        first_place, second_place = places_for(table)
        score = {1: "1", 2: "0"} if first_place != second_place else {1: "½"}
        expected[first].append(f"{rank[second]}f {score[first_place]}")
        expected[second].append(f"{rank[first]}s {score[second_place]}")
    grid = table_rows(text, "crosstable")
    assert [row[:2] for row in grid] == [["1", "alice"], ["2", "carol"], ["3", "bob"],
                                         ["4", "dave"]]  # fmt: skip
    for row in grid:
        assert row[2:5] == expected[row[1]], row
    assert [row[5] for row in grid] == ["2½", "1½", "1", "1"]  # the totals
    assert len({len(v) for v in expected.values()}) == 1  # everyone played 3 rounds


def test_the_pairings_link_each_room_and_show_the_entered_results(finished):
    text = page(browser(), f"/tournaments/{finished.pk}")
    assert "(the first-named plays Axis)" in text
    tables = TournamentTable.objects.filter(round__tournament=finished).select_related("round")
    for number in (1, 2, 3):
        assert f'<h3 id="round-{number}">Round {number} (complete)</h3>' in text
        rows = table_rows(text, f"round-{number}-pairings")
        expected = []
        for table in tables.filter(round__number=number).order_by("number"):
            first, second = seated(table)
            score = {1: "1", 2: "0"} if len(set(places_for(table))) == 2 else {1: "\u00bd"}
            result = " \u2013 ".join(score[p] for p in places_for(table))
            expected.append([str(table.number), f"{first} v {second}", result,
                             f"room {table.room_id}", "entered"])  # fmt: skip
        assert rows == expected
    assert text.count(f'href="/rooms/{tables[0].room_id}"') == 1


def test_a_bye_shows_in_the_pairings_and_the_crosstable(referee, players):
    """Three players: each round one sits out (a round robin's bye is worth nothing)."""
    tournament = room_robin(referee)
    for player in players[:3]:
        setup.register(tournament_id=tournament.pk, user=player)
    setup.tournament_start(actor=referee, tournament_id=tournament.pk)
    bye = TournamentTable.objects.get(round__tournament=tournament, outcome="bye")
    (idle,) = seated(bye)
    text = page(browser(), f"/tournaments/{tournament.pk}")
    row = next(r for r in table_rows(text, "round-1-pairings") if r[4] == "bye")
    assert row == [str(bye.number), f"{idle} v bye", "0", "\u2014", "bye"]
    grid = {r[1]: r[2:] for r in table_rows(text, "crosstable")}
    assert grid[idle] == ["bye 0", "0"]
    assert all(cells == ["\u00b7", "0"] for name, cells in grid.items() if name != idle)


# --- players ------------------------------------------------------------------------------------


def csrf_token(text: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
    assert match is not None
    return match.group(1)


def test_a_player_registers_and_withdraws_with_the_forms(referee, players):
    tournament = room_robin(referee)
    alice = players[0]
    url = f"/tournaments/{tournament.pk}"
    signed_in = Client(enforce_csrf_checks=True)  # as a browser: the forms carry the token
    signed_in.force_login(alice)
    text = page(signed_in, url)
    assert "<dt>Registration</dt><dd>open now," in text
    assert f'action="{url}/register"' in text
    assert signed_in.post(f"{url}/register").status_code == 403  # no token: Django's refusal
    assert tournament.entrants.count() == 0

    response = signed_in.post(f"{url}/register", {"csrfmiddlewaretoken": csrf_token(text)})
    assert response.status_code == 302 and response["Location"] == url
    assert list(tournament.entrants.values_list("user__username", flat=True)) == ["alice"]
    text = page(signed_in, url)
    assert "You are entered." in text  # the service's success, shown once
    assert f'action="{url}/withdraw"' in text and f'action="{url}/register"' not in text
    assert "You are entered." not in page(signed_in, url)

    again = signed_in.post(f"{url}/register", {"csrfmiddlewaretoken": csrf_token(text)})
    assert again.status_code == 302  # refused by the service: its message shown
    assert "you are entered already" in page(signed_in, url)
    assert tournament.entrants.count() == 1

    withdrawn = signed_in.post(f"{url}/withdraw", {"csrfmiddlewaretoken": csrf_token(text)})
    assert withdrawn["Location"] == url
    assert tournament.entrants.count() == 0
    assert TournamentAction.objects.filter(tournament=tournament, action="withdrew",
                                           actor=alice).count() == 1  # fmt: skip


def test_signing_in_is_needed_to_register(referee):
    tournament = room_robin(referee)
    url = f"/tournaments/{tournament.pk}"
    text = page(browser(), url)
    assert f'href="/login?next={url}">Sign in</a> to register' in text
    response = browser().post(f"{url}/register")
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={url}"
    assert tournament.entrants.count() == 0


# --- staff --------------------------------------------------------------------------------------


def test_the_staff_panel_and_log_are_for_staff_only(referee, players):
    tournament = room_robin(referee)
    url = f"/tournaments/{tournament.pk}"
    for viewer in (None, players[0]):
        text = page(browser(viewer), url)
        assert 'id="staff-panel"' not in text and 'id="staff-log"' not in text
        assert "/start" not in text and "/cancel" not in text
    text = page(browser(referee), url)
    assert 'id="staff-panel"' in text
    assert f'action="{url}/start"' in text and f'action="{url}/cancel"' in text
    assert table_rows(text, "staff-log")[0][1:3] == ["referee", "created"]


@pytest.mark.parametrize("action", STAFF_ACTIONS)
@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_every_staff_action_is_403_for_anyone_else_and_writes_nothing(
    referee, players, action, who
):
    tournament = room_robin(referee)
    for player in players:
        setup.register(tournament_id=tournament.pk, user=player)
    setup.tournament_start(actor=referee, tournament_id=tournament.pk)
    table = pending(tournament)[0]
    before = (TournamentAction.objects.count(), list(TableSeat.objects.values_list("place")))
    client = browser(None if who == "anonymous" else players[0])
    form = {"reason": "x", "username": "bob", "on": "1", "table": str(table.pk),
            "places": ["1", "2"]}  # fmt: skip
    response = client.post(f"/tournaments/{tournament.pk}/{action}", form)
    assert response.status_code == 403
    assert (
        TournamentAction.objects.count(),
        list(TableSeat.objects.values_list("place")),
    ) == before
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == ("running", 1)
    assert tournament.entrants.filter(status="active").count() == 4


def test_staff_run_the_event_from_the_page(referee, players):
    tournament = room_robin(referee)
    url = f"/tournaments/{tournament.pk}"
    staff = browser(referee)
    for player in players:
        setup.register(tournament_id=tournament.pk, user=player)

    assert staff.post(f"{url}/start")["Location"] == url
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round, tournament.rounds) == ("running", 1, 3)
    assert "Started: 3 rounds; round 1 is paired." in page(staff, url)

    staff.post(f"{url}/pair")  # round 1 is not played yet: the service's refusal is shown
    assert "round 1 is still being played" in page(staff, url)
    assert tournament.round_set.count() == 1

    first, second = pending(tournament)
    staff.post(f"{url}/result", {"table": str(first.pk), "places": ["2", "1"], "reason": "adj"})
    first.refresh_from_db()
    assert first.outcome == "entered"
    assert list(first.seats.order_by("position").values_list("points", flat=True)) == [0.0, 1.0]
    staff.post(f"{url}/result", {"table": str(second.pk), "places": ["1", "3"]})
    assert "a place 1-2 (places.1)" in page(staff, url)
    staff.post(f"{url}/result", {"table": str(10**30), "places": ["1", "2"]})
    assert "choose a table (table)" in page(staff, url)
    second.refresh_from_db()
    assert second.outcome == ""

    staff.post(f"{url}/remove", {"username": "dave", "reason": "no-show"})
    assert tournament.entrants.get(user__username="dave").status == "removed"
    assert "dave is removed." in page(staff, url)
    staff.post(f"{url}/finish")  # a round still being played: refused, shown
    assert "round 1 is still being played" in page(staff, url)
    staff.post(f"{url}/cancel", {"reason": "snow"})
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    log = table_rows(page(staff, url), "staff-log")
    assert [row[2] for row in log] == ["created", "started", "paired", "result_entered",
                                       "removed", "cancelled"]  # fmt: skip
    assert log[-1][3] == "reason: snow"


def test_a_table_event_takes_places_and_territories_from_the_result_form(referee, players):
    tournament = setup.tournament_create(
        actor=referee,
        settings=TournamentSettings(
            name="Tables", play="fast_risk", format="tables", rounds=1,
            options={"win": "round-limit", "round_limit": 1}, time_control="untimed", days=None,
            table_min=3, table_max=4,
        ),
    )  # fmt: skip
    for player in players[:3]:
        setup.register(tournament_id=tournament.pk, user=player)
    url = f"/tournaments/{tournament.pk}"
    staff = browser(referee)
    staff.post(f"{url}/stand-in", {"username": "carol", "on": "1"})
    assert tournament.entrants.get(user__username="carol").bot_stands_in is True
    staff.post(f"{url}/start")
    (table,) = pending(tournament)
    names = seated(table)
    place = {"bob": 1, "alice": 2, "carol": 3}
    held = {"bob": 20, "alice": 14, "carol": 8}
    staff.post(f"{url}/result", {"table": str(table.pk), "places": [str(place[n]) for n in names],
                                 "territories": [str(held[n]) for n in names]})  # fmt: skip
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.champion.username == "bob"
    text = page(browser(), url)
    assert table_rows(text, "standings") == [
        ["1", "bob", "10", "20", "1", "active"],
        ["2", "alice", "6", "14", "1", "active"],
        ["3", "carol", "4", "8", "1", "active"],
    ]
    assert [row[2:] for row in table_rows(text, "crosstable")] == [
        ["1st 10", "10"], ["2nd 6", "6"], ["3rd 4", "4"]]  # fmt: skip
    assert "carol</a> <abbr" in text  # the bot marker, in the pairings
    assert table_rows(text, "entrants")[2][-1] == "bot"


# --- creating -----------------------------------------------------------------------------------

FORM = {
    "name": "Autumn Swiss", "description": "Four rounds.", "play": "fast_risk",
    "format": "swiss", "win": "round-limit", "round_limit": "12", "time_control": "live",
    "minutes": "5", "days": "", "ai_level": "normal", "room_system": "", "room_rules": "",
    "room_edition": "", "room_sides": "", "days_per_turn": "7", "rated": "on",
    "registration_opens": "", "registration_closes": "2030-01-02 18:00", "min_entrants": "",
    "max_entrants": "32", "rounds": "4", "table_min": "3", "table_max": "6",
    "place_points": "", "late_entry_rounds": "2", "auto_pair": "on",
}  # fmt: skip


def test_the_new_page_is_for_staff_only(players):
    response = browser().get("/tournaments/new")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=/tournaments/new"
    player = browser(players[0])
    assert player.get("/tournaments/new").status_code == 403
    assert player.post("/tournaments/new", FORM).status_code == 403
    assert browser().post("/tournaments/new", FORM).status_code == 302
    assert Tournament.objects.count() == 0


def test_staff_create_a_tournament_with_the_form(referee):
    staff = browser(referee)
    text = page(staff, "/tournaments/new")
    for name in FORM:
        assert f'<label for="id_{name}">' in text, name
    response = staff.post("/tournaments/new", FORM)
    created = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{created.pk}"
    assert (created.name, created.play, created.format, created.rounds) == (
        "Autumn Swiss", "fast_risk", "swiss", 4)  # fmt: skip
    assert created.options["win"] == "round-limit" and created.options["round_limit"] == 12
    assert created.time_control == "live" and created.time_per_decision.total_seconds() == 300
    assert (created.ai_level, created.max_entrants, created.late_entry_rounds) == ("normal", 32, 2)
    assert created.registration_closes.isoformat() == "2030-01-02T18:00:00+00:00"
    assert TournamentAction.objects.get(tournament=created).action == "created"
    assert "Autumn Swiss is open for registration." in page(staff, response["Location"])


def test_the_services_refusal_is_shown_next_to_its_field(referee):
    staff = browser(referee)
    response = staff.post(
        "/tournaments/new",
        {**FORM, "format": "round_robin", "max_entrants": "", "late_entry_rounds": "0"},
    )
    assert response.status_code == 400
    text = response.content.decode()
    refused = '<strong class="bad" id="id_rounds-error">a round_robin event&#x27;s rounds follow'
    assert refused in text
    assert 'aria-describedby="id_rounds-error"' in text
    assert 'value="Autumn Swiss"' in text  # what was typed is kept
    room = staff.post("/tournaments/new", {**FORM, "play": "room", "room_system": "wif",
                                           "room_rules": "chess"})  # fmt: skip
    assert room.status_code == 400
    assert 'id="id_room_rules-error">only an axis_allies room has rules' in room.content.decode()
    assert Tournament.objects.count() == 0


def form_defaults(text: str) -> dict[str, str]:
    """What the new-tournament page fills in: each input's value, each select's selected
    option (its first when none is marked), each textarea's text, each checked checkbox."""
    values: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*>", text):
        name = re.search(r'name="([^"]+)"', tag)
        if name is None or name[1] == "csrfmiddlewaretoken":
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                values[name[1]] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        values[name[1]] = html.unescape(value[1]) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', text, re.S):
        options = re.findall(r'<option value="([^"]*)"( selected)?>', body)
        chosen = [value for value, selected in options if selected] or [options[0][0]]
        values[name] = html.unescape(chosen[0])
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', text, re.S):
        values[name] = html.unescape(body.strip())
    return values


@pytest.mark.parametrize("fmt", ["round_robin", "swiss", "knockout", "tables"])
def test_the_forms_own_defaults_make_a_tournament_of_every_format(referee, fmt):
    """Only a name and the format typed: everything else as the page fills it in is within
    the limits of that format (the round robin's most entrants once defaulted to 64, over its
    own limit of 24)."""
    from games.competition.formats import MAX_FIELD

    staff = browser(referee)
    defaults = form_defaults(page(staff, "/tournaments/new"))
    assert defaults["play"] == "fast_risk" and defaults["max_entrants"] == ""
    response = staff.post("/tournaments/new", {**defaults, "name": "Defaults", "format": fmt})
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Tournament.objects.get()
    assert (created.format, created.max_entrants) == (fmt, MAX_FIELD[fmt])
    expected_rounds = {"tables": 3, "swiss": None}.get(fmt)
    assert created.rounds == expected_rounds


def test_scores_print_as_a_crosstable_prints_them():
    from frontend.templatetags.tournaments import points

    assert [points(v) for v in (0.0, 0.25, 0.5, 0.75, 1.0, 2.5, 2.75, 1.2, None)] == [
        "0", "¼", "½", "¾", "1", "2½", "2¾", "1.2", "",
    ]  # fmt: skip
