"""Making maps: uploads and drafts refused with each fault named, publishing, versions a running
game never sees change, trial games against bots, and the lobby offering the published maps."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.play import lobby
from risk.maps import store
from risk.maps.documents import export_map, row_problems
from risk.models import Border, Continent, Map, Territory
from risk.rules import board
from risk.rules.board_map import MapError, load_map
from risk.rules.upcast import load_state
from tests.games.conftest import client_for
from tests.maps.conftest import make_user, packaged_file

pytestmark = pytest.mark.usefixtures("packaged_maps")


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def one_way(raw: dict) -> None:
    """Ironspur still lists Tidewatch; Tidewatch no longer lists Ironspur."""
    raw["territories"]["Tidewatch"]["adjacent"].remove("Ironspur")


def no_border(raw: dict) -> None:
    """Gull Rock borders nobody (both ways: no one-way border is left behind)."""
    for other in raw["territories"]["Gull Rock"]["adjacent"]:
        raw["territories"][other]["adjacent"].remove("Gull Rock")
    raw["territories"]["Gull Rock"]["adjacent"] = []
    raw["board"]["links"] = [
        link for link in raw["board"]["links"] if "Gull Rock" not in (link["a"], link["b"])
    ]


def coast_without_station(raw: dict) -> None:
    """Saltbay says it is on the Western ocean; the sea has no station for that coast."""
    del raw["sea"]["stations"]["Western:Saltbay"]
    raw["sea"]["lanes"] = [lane for lane in raw["sea"]["lanes"] if "Western:Saltbay" not in lane]
    for ocean in raw["board"]["oceans"]:
        ocean["stations"].pop("Western:Saltbay", None)
    raw["board"]["lanes"] = [x for x in raw["board"]["lanes"] if "Western:Saltbay" not in x]


FAULTS = {
    "one-way-border": (one_way, ["'Ironspur' lists 'Tidewatch'", "'Tidewatch' does not list"]),
    "no-border": (no_border, ["territory 'Gull Rock' borders no territory"]),
    "missing-station": (
        coast_without_station,
        ["territory 'Saltbay' touches 'Western' but has no station 'Western:Saltbay'"],
    ),
}


def broken(change) -> dict:
    raw = copy.deepcopy(packaged_file("small"))
    change(raw)
    return raw


# --- refused, each fault named ------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(FAULTS))
def test_an_upload_with_a_fault_is_refused_naming_it(code, staff):
    change, words = FAULTS[code]
    with pytest.raises(store.MapRefused) as refused:
        store.upload(broken(change), name="broken", author=staff)
    assert [e.code for e in refused.value.errors] == [code]
    for word in words:
        assert word in refused.value.errors[0].message
    assert not Map.objects.filter(name="broken").exists()


@pytest.mark.parametrize("code", sorted(FAULTS))
def test_the_api_refuses_an_upload_with_each_fault_in_errors(code, staff):
    change, words = FAULTS[code]
    response = client_for(staff).post(
        "/api/maps", {"name": "broken", "file": broken(change)}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("invalid_map", "file")
    assert [e["code"] for e in body["errors"]] == [code]
    assert all(word in body["errors"][0]["message"] for word in words)


def test_two_faults_of_the_land_are_named_together(staff):
    def both(raw: dict) -> None:
        one_way(raw)
        no_border(raw)

    with pytest.raises(store.MapRefused) as refused:
        store.upload(broken(both), name="broken", author=staff)
    assert sorted(e.code for e in refused.value.errors) == ["no-border", "one-way-border"]
    lines = refused.value.lines()
    assert lines[0] == "the map file has 2 fault(s)"
    assert any(line.startswith("[no-border] the file: territory 'Gull Rock'") for line in lines)


def test_the_admin_upload_page_names_each_fault(staff_client):
    upload = io.BytesIO(json.dumps(broken(coast_without_station)).encode())
    upload.name = "broken.json"
    response = staff_client.post(
        reverse("admin:risk_map_upload"), {"name": "broken", "file": upload}
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "[missing-station]" in text and "&#x27;Western:Saltbay&#x27;" in text
    assert not Map.objects.filter(name="broken").exists()


def test_a_good_upload_is_a_draft_the_engine_never_plays(staff_client, staff):
    upload = io.BytesIO(json.dumps(packaged_file("small")).encode())
    upload.name = "isles.json"
    response = staff_client.post(
        reverse("admin:risk_map_upload"), {"name": "isles", "file": upload}
    )
    draft = Map.objects.get(name="isles")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:risk_map_change", args=[draft.pk])
    assert (draft.version, draft.status, draft.author) == (1, Map.Status.DRAFT, staff)
    with pytest.raises(MapError) as unknown:
        load_map("isles", 1)  # a draft is never served
    assert unknown.value.code == "unknown-map"


# --- drafts edited in the admin -----------------------------------------------------------------


@pytest.fixture
def draft(staff) -> Map:
    """A draft of the small map (its version 2), as 'New draft from this version' makes it."""
    return store.new_draft(Map.objects.get(name="small", version=1), author=staff)


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_new_draft_copies_the_version_and_takes_the_next_number(draft):
    assert (draft.name, draft.version, draft.status) == ("small", 2, Map.Status.DRAFT)
    assert export_map(draft) == export_map(Map.objects.get(name="small", version=1))
    assert row_problems(draft) == []


def test_a_draft_made_faulty_in_the_admin_is_refused_publishing_naming_the_fault(
    draft, staff_client
):
    """Gull Rock's borders deleted row by row, as the Borders inline would: publishing is
    refused with the fault named, and the draft stays a draft."""
    gull = Territory.objects.get(map=draft, name="Gull Rock")
    for border in Border.objects.filter(map=draft):
        if gull.pk in (border.a_id, border.b_id):
            border.delete()
    response = staff_client.post(
        reverse("admin:risk_map_changelist"),
        {"action": "publish", "_selected_action": [draft.pk]},
        follow=True,
    )
    said = messages_of(response)
    assert "small@2: small@2 has 1 fault(s)" in said
    assert "small@2: [no-border] small@2: territory 'Gull Rock' borders no territory" in said
    draft.refresh_from_db()
    assert draft.status == Map.Status.DRAFT


def _management(prefixes: list[str]) -> dict[str, Any]:
    form: dict[str, Any] = {}
    for prefix in prefixes:
        form |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return form


def test_every_save_of_a_draft_in_the_admin_runs_the_validator(draft, staff_client):
    """The change form saved with an uneven deck (a card symbol changed): saved as a draft,
    and the page says which fault stands between it and publishing."""
    Territory.objects.filter(map=draft, name="Gull Rock").update(card="infantry")
    url = reverse("admin:risk_map_change", args=[draft.pk])
    response = staff_client.post(url, _draft_form(draft), follow=True)
    said = messages_of(response)
    assert any(
        line.startswith("[uneven-cards] small@2: card symbols are not equally many: 9 infantry")
        for line in said
    ), said
    assert any("saved as a draft with 1 fault(s)" in line for line in said)


def _draft_form(draft: Map, **inlines: list[dict[str, str]]) -> dict[str, Any]:
    """The change form of ``draft`` as posted: its own fields, and new rows for ``inlines``."""
    prefixes = ["continents", "territories", "borders", "oceans", "stations", "lanes"]
    fields: dict[str, Any] = {
        "title": draft.title, "wild_cards": 2, "min_seats": 2, "max_seats": 4,
        "view_box": "[0, 0, 1000, 600]", "notes": "[]", "board_notes": "[]",
        **_management(prefixes),
    }  # fmt: skip
    for prefix, rows in inlines.items():
        fields[f"{prefix}-TOTAL_FORMS"] = len(rows)
        for i, row in enumerate(rows):
            fields |= {f"{prefix}-{i}-{key}": value for key, value in row.items()}
    return fields


def test_a_border_and_a_lane_are_added_by_typing_names(draft, staff_client):
    """Territories and stations are typed by name (``Ocean:Territory``), offered by datalists."""
    url = reverse("admin:risk_map_change", args=[draft.pk])
    page = staff_client.get(url).content.decode()
    assert (
        '<datalist id="risk-map-stations">' in page and '<option value="Western:Saltbay">' in page
    )
    form = _draft_form(
        draft,
        borders=[{"a": "Gull Rock", "b": "Coral Key"}],
        lanes=[
            {"a": "Eastern:Gull Rock", "b": "Eastern:Coral Key", "length": "3", "position": "30"}
        ],
    )
    response = staff_client.post(url, form, follow=True)
    errors = response.context and response.context.get("errors")
    assert "small@2 has no fault: it can be published." in messages_of(response), errors
    doc = export_map(draft)
    assert "Coral Key" in doc["territories"]["Gull Rock"]["adjacent"]
    assert ["Eastern:Gull Rock", "Eastern:Coral Key", 3] in doc["sea"]["lanes"]
    typo = _draft_form(draft, borders=[{"a": "Gull Rok", "b": "Coral Key"}])
    response = staff_client.post(url, typo)
    assert response.status_code == 200  # the form again, with the error
    assert "&#x27;Gull Rok&#x27; is not a name of this map" in response.content.decode()


def test_the_inlines_offer_only_the_maps_own_rows(draft, staff_client):
    response = staff_client.get(reverse("admin:risk_map_change", args=[draft.pk]))
    form = response.context["inline_admin_formsets"][1].formset.forms[0]  # a territory row
    continents = form.fields["continent"].queryset
    assert set(continents) == set(Continent.objects.filter(map=draft))
    assert "Try this version against bots" in response.content.decode()


def test_a_published_version_never_changes(staff_client):
    small = Map.objects.get(name="small", version=1)
    with pytest.raises(ValidationError, match="small@1 is published: it never changes"):
        Continent.objects.filter(map=small).first().save()
    url = reverse("admin:risk_map_change", args=[small.pk])
    assert staff_client.post(url, {"title": "Renamed"}).status_code == 403
    small.refresh_from_db()
    assert small.title.startswith("Small world")


# --- publishing and the running games ------------------------------------------------------------


def _bonus(game: Game, continent: str) -> int:
    game.refresh_from_db()
    state = load_state(game.snapshot.state)
    return board.board_map(state).continents[continent].bonus


def test_a_running_game_keeps_its_version_when_a_new_one_is_published(draft, alice):
    """A game on small@1 stays on it (its options name the version) after small@2, with a
    bigger Northland bonus, is published; a game created then plays small@2."""
    before = lobby.game_create(creator=alice, seats=2, options={"map": "small"})
    lobby.game_fill_with_bots(game_id=before.pk, user=alice)
    lobby.game_start(game_id=before.pk, user=alice)
    assert before.options["map_version"] == 1
    Continent.objects.filter(map=draft, name="Northland").update(bonus=9)
    store.publish(draft)
    assert [(m["name"], m["version"]) for m in client_for(alice).get("/api/maps").json()["maps"]
            ] == [("classic", 1), ("small", 2)]  # fmt: skip
    after = lobby.game_create(creator=alice, seats=2, options={"map": "small"})
    assert after.options["map_version"] == 2
    assert _bonus(before, "Northland") == 4
    lobby.game_fill_with_bots(game_id=after.pk, user=alice)
    lobby.game_start(game_id=after.pk, user=alice)
    assert _bonus(after, "Northland") == 9
    assert load_map("small", 2) is not load_map("small", 1)


def test_an_old_version_may_still_be_asked_for_by_number(draft, alice):
    store.publish(draft)
    game = lobby.game_create(creator=alice, seats=2, options={"map": "small", "map_version": 1})
    assert game.options["map_version"] == 1


def test_the_lobby_refuses_a_draft_an_unknown_map_and_the_wrong_seat_count(draft, alice):
    api = client_for(alice)
    for options, field in (
        ({"map": "small", "map_version": 2}, "options.map_version"),
        ({"map": "atlantis"}, "options.map"),
    ):
        response = api.post("/api/games", {"seats": 2, "options": options}, format="json")
        assert response.status_code == 400
        assert (response.json()["field"], response.json()["allowed"]) == (
            field, ["classic", "small"],
        )  # fmt: skip
    response = api.post("/api/games", {"seats": 5, "options": {"map": "small"}}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "seats"
    assert response.json()["message"] == "a game on the small map has 2-4 seats"


def test_the_lobby_lists_the_published_maps_with_their_seats(alice):
    body = client_for(alice).get("/api/maps").json()
    assert body == {
        "maps": [
            {"name": "classic", "version": 1, "min_seats": 2, "max_seats": 6, "territories": 42,
             "title": "Classic Risk world map with the four oceans of Nautical-but-Nice Fast Risk"},
            {"name": "small", "version": 1, "min_seats": 2, "max_seats": 4, "territories": 24,
             "title": "Small world: four lands and two oceans, for 2-4 players"},
        ],
        "may_upload": False,
    }  # fmt: skip


def test_a_map_file_downloads_in_the_upload_format(alice):
    body = client_for(alice).get("/api/maps/small/1").json()
    assert body == packaged_file("small")
    assert client_for(alice).get("/api/maps/small/9").status_code == 404


# --- trying a draft -----------------------------------------------------------------------------


def test_a_draft_is_tried_against_bots_in_a_private_unrated_game(draft, staff, staff_client):
    response = staff_client.post(reverse("map-try", args=[draft.pk]), {"seats": 3})
    trial = Map.objects.get(name="small", status=Map.Status.TRIAL)
    game = Game.objects.get(options__map="small")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}"
    assert (trial.version, game.options["map_version"]) == (3, 3)
    assert (game.public, game.rated, game.status) == (False, False, Game.Status.RUNNING)
    assert [s.player for s in game.seats.order_by("position")] == ["sam", "bot:2", "bot:3"]
    draft.refresh_from_db()
    assert draft.status == Map.Status.DRAFT  # still editable; the game plays the frozen copy
    assert [m["version"] for m in client_for(staff).get("/api/maps").json()["maps"]] == [1, 1]


def test_a_faulty_draft_is_not_tried(draft, staff_client):
    Continent.objects.filter(map=draft, name="Northland").update(bonus=0)
    url = reverse("admin:risk_map_change", args=[draft.pk])
    response = staff_client.post(reverse("map-try", args=[draft.pk]), {"seats": 2}, follow=True)
    assert response.redirect_chain[0][0] == url
    assert any("[bad-bonus]" in line and "'Northland'" in line for line in messages_of(response))
    assert not Game.objects.exists()


def test_bots_alone_can_try_a_map(staff_client):
    small = Map.objects.get(name="small", version=1)
    staff_client.post(reverse("map-try", args=[small.pk]), {"seats": 2, "watch": "1"})
    game = Game.objects.get()
    assert [s.player for s in game.seats.order_by("position")] == ["bot:1", "bot:2"]
    assert game.options["map_version"] == 1


def test_only_staff_try_maps(alice):
    client = Client()
    client.force_login(alice)
    small = Map.objects.get(name="small", version=1)
    response = client.post(reverse("map-try", args=[small.pk]), {"seats": 2})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not Game.objects.exists()


# --- maps made by players (WARBOARD_USER_MAPS) --------------------------------------------------


def test_players_upload_maps_only_when_the_setting_allows(alice, settings):
    api = client_for(alice)
    upload = {"name": "isles", "file": packaged_file("small")}
    response = api.post("/api/maps", upload, format="json")
    assert (response.status_code, response.json()["error"]) == (403, "maps_closed")
    settings.WARBOARD_USER_MAPS = True
    assert api.get("/api/maps").json()["may_upload"] is True
    response = api.post("/api/maps", upload, format="json")
    assert response.status_code == 201
    assert response.json() | {"title": ""} == {
        "name": "isles", "version": 1, "status": "draft", "min_seats": 2, "max_seats": 4,
        "territories": 24, "author": "alice", "title": "",
    }  # fmt: skip
    bob = make_user("bob")
    assert client_for(bob).post("/api/maps/isles/1/publish").status_code == 404  # not his
    response = api.post("/api/maps/isles/1/publish")
    assert (response.status_code, response.json()["status"]) == (200, "published")
    assert api.post("/api/maps/isles/1/publish").status_code == 409
    game = lobby.game_create(creator=bob, seats=2, options={"map": "isles"})
    assert (game.options["map"], game.options["map_version"]) == ("isles", 1)


def test_a_tournament_s_tables_must_fit_its_map(staff):
    """Tables of 3 to 6 on the small map (2-4 players) are refused at creation, naming
    table_max; tables of 3 to 4 are fine, and so are the 1 v 1 games of a Swiss event."""
    from games.tournaments import setup
    from games.tournaments.settings import TournamentSettings
    from games.web.exceptions import ApplicationError

    def event(name: str, **settings: Any):
        defaults = {"play": "fast_risk", "options": {"map": "small"}, "time_control": "untimed",
                    "days": None, "ai_level": "easy"}  # fmt: skip
        return setup.tournament_create(
            actor=staff, settings=TournamentSettings(name=name, **{**defaults, **settings})
        )

    with pytest.raises(ApplicationError) as refused:
        event("Too big", format="tables", table_min=3, table_max=6, rounds=2)
    assert (refused.value.field, refused.value.message) == (
        "table_max", "a game on the small map has 2-4 seats",
    )  # fmt: skip
    tables = event("Fits", format="tables", table_min=3, table_max=4, rounds=2)
    assert (tables.options["map"], tables.options["map_version"]) == ("small", 1)
    assert event("Duels", format="swiss").options["map"] == "small"
