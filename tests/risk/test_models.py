"""The board in rows: the classic map after ``migrate``, ``load_map``, constraints and the admin."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from risk.adapter import save_new
from risk.maps import map_counts
from risk.models import (
    Board,
    Border,
    Continent,
    Factory,
    Map,
    Player,
    RiskCard,
    SeaLane,
    Ship,
    Station,
    Territory,
    TerritoryState,
)
from risk.rules.board_map import MapError, map_path, parse_map
from risk.rules.setup import new_game

pytestmark = pytest.mark.django_db

RAW = json.loads(map_path("classic").read_text(encoding="utf-8"))
SEED = "seed-7f3a-not-for-your-eyes"
CLASSIC_COUNTS = {
    "continents": 6,
    "territories": 42,
    "borders": 83,
    "oceans": 4,
    "stations": len(RAW["sea"]["stations"]),
    "lanes": len(RAW["sea"]["lanes"]),
}


def classic() -> Map:
    return Map.objects.get(name="classic")


def load_map(*args: str, **options) -> str:
    out = StringIO()
    call_command("load_map", *args, stdout=out, **options)
    return out.getvalue()


def write_map(tmp_path: Path, raw: dict, name: str = "map.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


# --- the classic map, loaded by the data migration ------------------------------------------------


def test_migrate_loads_the_classic_map():
    board_map = classic()
    assert map_counts(board_map) == CLASSIC_COUNTS
    assert (CLASSIC_COUNTS["stations"], CLASSIC_COUNTS["lanes"]) == (53, 83)
    assert board_map.title == RAW["name"]
    assert board_map.wild_cards == 2
    assert dict(board_map.continents.values_list("name", "bonus")) == {
        "North America": 5,
        "South America": 2,
        "Europe": 5,
        "Africa": 3,
        "Asia": 7,
        "Australia": 2,
    }
    assert list(board_map.oceans.values_list("name", flat=True)) == [
        "Pacific",
        "Atlantic",
        "Indian",
        "Arctic",
    ]


def test_territories_keep_their_continent_card_borders_and_coasts():
    alaska = Territory.objects.get(map=classic(), name="Alaska")
    assert (alaska.continent.name, alaska.card) == ("North America", "infantry")
    assert sorted(t.name for t in alaska.neighbours()) == [
        "Alberta",
        "Kamchatka",
        "Northwest Territory",
    ]
    assert sorted(alaska.stations.values_list("key", flat=True)) == [
        "Arctic:Alaska",
        "Pacific:Alaska",
    ]
    lane = SeaLane.objects.get(a__key="Pacific:Alaska", b__key="Pacific:Alberta")
    assert lane.distance == 1
    station = Station.objects.get(key="Pacific:Alaska")
    assert (station.x, station.y) == (0.03, 0.18)


def test_load_map_twice_writes_nothing():
    pks = sorted(Territory.objects.values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        first = load_map()
        second = load_map()
    assert first == second
    assert first.strip() == (
        "Map 'classic': 6 continents, 42 territories, 83 borders, 4 oceans, 53 stations, "
        "83 lanes; 0 rows written."
    )
    writes = [q["sql"] for q in queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")]
    assert writes == []
    assert Map.objects.count() == 1
    assert map_counts(classic()) == CLASSIC_COUNTS
    assert sorted(Territory.objects.values_list("pk", flat=True)) == pks


def test_load_map_updates_a_changed_map_in_place(tmp_path):
    raw = copy.deepcopy(RAW)
    raw["continents"]["Australia"]["bonus"] = 3
    raw["sea"]["lanes"][0][2] = 2  # Pacific:Alaska - Pacific:Alberta
    output = load_map("classic", file=write_map(tmp_path, raw))
    assert output.strip().endswith("; 2 rows written.")
    assert Continent.objects.get(map=classic(), name="Australia").bonus == 3
    assert SeaLane.objects.get(a__key="Pacific:Alaska", b__key="Pacific:Alberta").distance == 2
    assert map_counts(classic()) == CLASSIC_COUNTS

    assert load_map().strip().endswith("; 2 rows written.")  # the file again: back as it was
    assert Continent.objects.get(map=classic(), name="Australia").bonus == 2


def test_a_second_map_is_only_data(tmp_path):
    raw = copy.deepcopy(RAW)
    raw["name"] = "The classic board, again"
    output = load_map("classic-copy", file=write_map(tmp_path, raw))
    assert output.startswith("Map 'classic-copy': 6 continents, 42 territories, 83 borders")
    assert sorted(Map.objects.values_list("name", flat=True)) == ["classic", "classic-copy"]
    assert Territory.objects.filter(name="Alaska").count() == 2
    assert Border.objects.count() == 2 * 83
    assert map_counts(classic()) == CLASSIC_COUNTS


def test_a_broken_map_file_fails_with_the_validators_message(tmp_path):
    raw = copy.deepcopy(RAW)
    raw["territories"]["Alaska"]["adjacent"].remove("Kamchatka")  # Kamchatka still lists Alaska
    path = write_map(tmp_path, raw, "one-way.json")
    with pytest.raises(MapError) as refused:
        parse_map(raw, source=str(path))
    assert refused.value.code == "one-way-border"

    with pytest.raises(CommandError) as failed:
        load_map("classic", file=path)
    assert str(failed.value) == refused.value.message
    assert "'Kamchatka' lists 'Alaska' as adjacent but 'Alaska' does not" in str(failed.value)
    assert map_counts(classic()) == CLASSIC_COUNTS


def test_an_unknown_map_name_fails():
    with pytest.raises(CommandError, match="no map 'atlantis'"):
        load_map("atlantis")


# --- constraints -------------------------------------------------------------------------------


@pytest.fixture
def board() -> Board:
    return save_new(new_game(["alice", "bob", "charlie"], seed=SEED))


def refused_by_database(write) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def test_rows_that_break_the_rules_are_refused(board):
    holding = TerritoryState.objects.filter(board=board).first()
    refused_by_database(lambda: TerritoryState.objects.filter(pk=holding.pk).update(armies=-1))
    refused_by_database(
        lambda: TerritoryState.objects.create(
            board=board, territory=holding.territory, owner=holding.owner, armies=1
        )
    )
    factory = Factory.objects.filter(board=board).first()
    refused_by_database(lambda: Factory.objects.create(board=board, territory=factory.territory))
    ship = Ship.objects.filter(board=board).first()
    refused_by_database(lambda: Ship.objects.filter(pk=ship.pk).update(armies=-2))
    card = RiskCard.objects.filter(board=board, location="draw").first()
    refused_by_database(lambda: RiskCard.objects.filter(pk=card.pk).update(location="hand"))
    held = RiskCard.objects.filter(board=board, location="hand").first()
    refused_by_database(lambda: RiskCard.objects.filter(pk=held.pk).update(location="discard"))
    refused_by_database(lambda: Player.objects.filter(board=board).update(seat_id="alice"))
    border = Border.objects.filter(map=classic()).first()
    refused_by_database(lambda: Border.objects.create(map=classic(), a=border.b, b=border.a))


def test_a_reload_that_drops_a_station_a_ship_lies_at_fails(tmp_path, board):
    ship = Ship.objects.filter(board=board).first()
    Ship.objects.filter(pk=ship.pk).update(station=Station.objects.get(key="Indian:Madagascar"))
    raw = copy.deepcopy(RAW)
    raw["territories"]["Madagascar"]["oceans"] = []
    del raw["sea"]["stations"]["Indian:Madagascar"]
    raw["sea"]["lanes"] = [lane for lane in raw["sea"]["lanes"] if "Indian:Madagascar" not in lane]

    with pytest.raises(CommandError, match="drops rows that games still use"):
        load_map("classic", file=write_map(tmp_path, raw))
    assert map_counts(classic()) == CLASSIC_COUNTS


# --- admin ---------------------------------------------------------------------------------------


def test_the_admin_hides_the_seed_of_a_live_board(admin_client, board):
    change = admin_client.get(reverse("admin:risk_board_change", args=[board.pk]))
    listing = admin_client.get(reverse("admin:risk_board_changelist"))
    assert change.status_code == listing.status_code == 200
    assert board.seed_commitment in change.content.decode()
    assert "secret until the game is over" in change.content.decode()
    assert SEED not in change.content.decode() + listing.content.decode()

    Board.objects.filter(pk=board.pk).update(over=True)
    change = admin_client.get(reverse("admin:risk_board_change", args=[board.pk]))
    assert SEED in change.content.decode()


def test_the_admin_shows_maps_and_boards_read_only(admin_client, board):
    alaska = Territory.objects.get(map=classic(), name="Alaska")
    page = admin_client.get(reverse("admin:risk_territory_change", args=[alaska.pk]))
    assert page.status_code == 200
    assert "Alberta, Kamchatka, Northwest Territory" in page.content.decode()
    for model in ("map", "territory", "board", "player", "territorystate", "ship", "riskcard"):
        assert admin_client.get(reverse(f"admin:risk_{model}_add")).status_code == 403
        assert admin_client.get(reverse(f"admin:risk_{model}_changelist")).status_code == 200
    delete = admin_client.post(reverse("admin:risk_board_delete", args=[board.pk]), {"post": "yes"})
    assert delete.status_code == 403
    assert Board.objects.filter(pk=board.pk).exists()


def test_the_admin_lists_no_card_rows_of_a_live_board(admin_client, board):
    """Who holds which card, and the deck order, are hidden until the game is over (issue 7)."""
    held = RiskCard.objects.filter(board=board, location="hand").select_related("holder").first()
    assert held is not None
    lists = [
        admin_client.get(reverse("admin:risk_riskcard_changelist")).content.decode(),
        admin_client.get(reverse("admin:risk_pokercard_changelist")).content.decode(),
    ]
    change = admin_client.get(reverse("admin:risk_board_change", args=[board.pk])).content.decode()
    assert "0 risk cards" in lists[0] and "0 poker cards" in lists[1]
    for inline in ("riskcards", "pokercards"):
        assert f'name="{inline}-TOTAL_FORMS" value="0"' in change

    Board.objects.filter(pk=board.pk).update(over=True)
    listing = admin_client.get(reverse("admin:risk_riskcard_changelist")).content.decode()
    change = admin_client.get(reverse("admin:risk_board_change", args=[board.pk])).content.decode()
    assert "44 risk cards" in listing
    assert 'name="riskcards-TOTAL_FORMS" value="44"' in change
