"""One state row per game: ``GameSnapshot`` holds the engine's ``to_dict`` as JSON.

The data step moves every existing board out of the normalized ``risk`` board tables into its
game's snapshot, reading the rows as ``risk.adapter.load`` did (that module is gone, so its read
is frozen here, on the historical models). The board tables themselves go in risk 0004.
"""

from django.db import migrations, models
import django.db.models.deletion

SEAT_COLUMNS = {
    "id": "seat_id", "kind": "kind", "player": "person", "colour": "colour", "suits": "suits",
    "pot": "pot", "alive": "alive", "set_up": "set_up", "defence_dice": "defence_dice",
    "reveal": "reveal", "revealed": "revealed",
}  # fmt: skip
BOARD_COLUMNS = {
    "seed": "seed", "version": "version", "options": "options", "round": "round",
    "turn_number": "turn_number", "actions": "actions", "next_ship": "next_ship",
    "first_seat": "first_seat", "over": "over", "winner": "winner", "ranking": "ranking",
    "created": "armies_created", "lost": "armies_lost", "turn": "turn", "battle": "battle",
    "contest": "contest", "draw_votes": "draw_votes",
}  # fmt: skip
SHIP_COLUMNS = ("armies", "captured", "cruises", "moves", "cruising", "out_of_action", "ports")


def board_to_dict(apps, board):
    """The state's dict as the rows hold it (``risk.adapter.load``, before ``from_dict``)."""
    Player = apps.get_model("risk", "Player")
    TerritoryState = apps.get_model("risk", "TerritoryState")
    Factory = apps.get_model("risk", "Factory")
    Ship = apps.get_model("risk", "Ship")
    seats, seat_of = [], {}
    for pk, *values in (
        Player.objects.filter(board=board).order_by("order")
        .values_list("pk", *SEAT_COLUMNS.values())
    ):  # fmt: skip
        seat = dict(zip(SEAT_COLUMNS, values))
        seat.update(risk_cards=[], poker_cards=[])
        seats.append(seat)
        seat_of[pk] = seat["id"]
    territories = {
        name: {"owner": seat_of[owner], "armies": armies, "factory": False, "captured": captured}
        for name, owner, armies, captured in TerritoryState.objects.filter(board=board)
        .order_by("territory_id")
        .values_list("territory__name", "owner_id", "armies", "captured")
    }
    for name in Factory.objects.filter(board=board).values_list("territory__name", flat=True):
        territories[name]["factory"] = True
    ships = {}
    for ship_id, owner, station, *values in (
        Ship.objects.filter(board=board).order_by("pk")
        .values_list("ship_id", "owner_id", "station__key", *SHIP_COLUMNS)
    ):  # fmt: skip
        ship = {"id": ship_id, "owner": seat_of[owner], "station": station}
        ships[ship_id] = {**ship, **dict(zip(SHIP_COLUMNS, values))}
    data = {field: getattr(board, column) for field, column in BOARD_COLUMNS.items()}
    data.update(seats=seats, territories=territories, ships=ships)
    hands = {seat["id"]: seat for seat in seats}
    for deck, hand, model in (("risk_deck", "risk_cards", "RiskCard"),
                              ("poker_deck", "poker_cards", "PokerCard")):  # fmt: skip
        draw, discard = [], []
        rows = apps.get_model("risk", model).objects.filter(board=board)
        for card, location, holder in rows.order_by("position", "pk").values_list(
            "card", "location", "holder_id"
        ):
            if location == "draw":
                draw.append(card)
            elif location == "discard":
                discard.append(card)
            else:
                hands[seat_of[holder]][hand].append(card)
        draw.reverse()  # positions count from the bottom; the state lists the top card first
        data[deck] = {"draw": draw, "discard": discard}
    return data


def boards_to_snapshots(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameSnapshot = apps.get_model("games", "GameSnapshot")
    for game in Game.objects.exclude(board=None).select_related("board").iterator():
        state = board_to_dict(apps, game.board)
        GameSnapshot.objects.create(
            game=game, version=game.version, schema_version=state["version"], state=state
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial"), ("risk", "0003_seat_preferences_and_draw_votes")]

    operations = [
        migrations.CreateModel(
            name="GameSnapshot",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="snapshot",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                (
                    "version",
                    models.PositiveIntegerField(
                        help_text="The last log entry this state includes."
                    ),
                ),
                (
                    "schema_version",
                    models.PositiveSmallIntegerField(
                        help_text="risk.rules.state.SCHEMA_VERSION the state was written with."
                    ),
                ),
                (
                    "state",
                    models.JSONField(help_text="risk.rules.state.to_dict of the game's state."),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RunPython(boards_to_snapshots, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="board"),
    ]
