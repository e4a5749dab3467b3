"""games migration 0002 moves each board from the old normalized tables into its game's state
row. A small board is written into the historical tables, the migrations run, and
the snapshot must be the state the old adapter read from those rows, worked out here by hand:
seats in order with their hands, territories with owners and the factory, the ship, and the
decks with the top card first (card positions counted from the bottom of a pile)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

OLD = [("games", "0001_initial"), ("risk", "0003_seat_preferences_and_draw_votes")]


@pytest.mark.django_db(transaction=True)
def test_a_board_moves_into_its_game_state_row():
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    old = executor.loader.project_state(OLD).apps
    board_pk = _old_board(old)

    executor = MigrationExecutor(connection)  # a fresh graph, as ``migrate`` would load it
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    game = new.get_model("games", "Game").objects.get()
    snapshot = new.get_model("games", "GameSnapshot").objects.get(pk=game.pk)
    assert (snapshot.version, snapshot.schema_version) == (3, 1)  # upcast when loaded
    assert board_pk and "risk_board" not in connection.introspection.table_names()
    assert snapshot.state == {
        "seed": "s" * 64, "version": 1, "options": {"map": "classic"}, "round": 2,
        "turn_number": 5, "actions": 9, "next_ship": 2, "first_seat": "alice", "over": False,
        "winner": None, "ranking": [], "created": {"setup": 4}, "lost": {}, "turn": None,
        "battle": None, "contest": None, "draw_votes": [],
        "seats": [
            {"id": "alice", "kind": "player", "player": "alice", "colour": "red", "suits": [],
             "pot": None, "alive": True, "set_up": True, "defence_dice": 2, "reveal": "ask",
             "revealed": [], "risk_cards": ["Peru"], "poker_cards": []},
            {"id": "ally-1", "kind": "allied", "player": None, "colour": "blue", "suits": [],
             "pot": None, "alive": True, "set_up": True, "defence_dice": 1,
             "reveal": "reveal-all", "revealed": [], "risk_cards": [], "poker_cards": []},
        ],
        "territories": {
            "Alaska": {"owner": "alice", "armies": 3, "factory": True, "captured": {}},
            "Peru": {"owner": "ally-1", "armies": 1, "factory": False, "captured": {"alice": 1}},
        },
        "ships": {
            "S1": {"id": "S1", "owner": "alice", "station": "Pacific:Alaska", "armies": 2,
                   "captured": {}, "cruises": 1, "moves": 0, "cruising": False,
                   "out_of_action": False, "ports": []},
        },
        "risk_deck": {"draw": ["wild", "Alaska"], "discard": []},  # the top card first
        "poker_deck": {"draw": ["AS"], "discard": ["KH"]},
    }  # fmt: skip


def _old_board(apps) -> int:
    """A two-seat board in the tables as ``risk.adapter.save_new`` wrote them; its pk."""
    user = apps.get_model("auth", "User").objects.create(username="alice")
    game_map = apps.get_model("risk", "Map").objects.create(name="classic")
    continent = apps.get_model("risk", "Continent").objects.create(
        map=game_map, name="America", bonus=5
    )
    territory = apps.get_model("risk", "Territory")
    alaska = territory.objects.create(map=game_map, continent=continent, name="Alaska",
                                      card="infantry")  # fmt: skip
    peru = territory.objects.create(map=game_map, continent=continent, name="Peru", card="cavalry")
    ocean = apps.get_model("risk", "Ocean").objects.create(map=game_map, name="Pacific")
    station = apps.get_model("risk", "Station").objects.create(
        map=game_map, ocean=ocean, territory=alaska, key="Pacific:Alaska", x=0.1, y=0.2
    )
    board = apps.get_model("risk", "Board").objects.create(
        map=game_map, seed="s" * 64, seed_commitment="c" * 64, version=1,
        options={"map": "classic"}, round=2, turn_number=5, actions=9, next_ship=2,
        first_seat="alice", armies_created={"setup": 4},
    )  # fmt: skip
    player = apps.get_model("risk", "Player")
    alice = player.objects.create(board=board, seat_id="alice", order=0, kind="player",
                                  person="alice", colour="red")  # fmt: skip
    ally = player.objects.create(board=board, seat_id="ally-1", order=1, kind="allied",
                                 person=None, colour="blue", defence_dice=1,
                                 reveal="reveal-all")  # fmt: skip
    holding = apps.get_model("risk", "TerritoryState")
    holding.objects.create(board=board, territory=alaska, owner=alice, armies=3)
    holding.objects.create(board=board, territory=peru, owner=ally, armies=1,
                           captured={"alice": 1})  # fmt: skip
    apps.get_model("risk", "Factory").objects.create(board=board, territory=alaska)
    apps.get_model("risk", "Ship").objects.create(
        board=board, ship_id="S1", owner=alice, station=station, armies=2, cruises=1
    )
    risk_card = apps.get_model("risk", "RiskCard")
    # The draw pile from the bottom: Alaska at 0, the wild card on top at 1.
    risk_card.objects.create(board=board, card="Alaska", location="draw", position=0)
    risk_card.objects.create(board=board, card="wild", location="draw", position=1)
    risk_card.objects.create(board=board, card="Peru", location="hand", holder=alice, position=0)
    poker_card = apps.get_model("risk", "PokerCard")
    poker_card.objects.create(board=board, card="AS", location="draw", position=0)
    poker_card.objects.create(board=board, card="KH", location="discard", position=0)
    apps.get_model("games", "Game").objects.create(
        creator_id=user.pk, seat_count=2, server_seed="0" * 64, seed_commitment="1" * 64,
        version=3, status="running", board=board,
    )  # fmt: skip
    return board.pk
