"""The piece rows of every game started before the tables existed, from its state row.

Every game with a state row gets them (running and paused games, and finished ones too, so that
``verify_game`` finds the rows of games that ended before this migration): the rows
``risk.rules.pieces.pieces_of`` gives for its stored state (upcast as the server loads it), each
linked to the seat of the person playing that army, as ``games.play.pieces.create`` writes them
when a game starts. Undone by deleting the rows.
"""

from django.db import migrations

from risk.rules.pieces import pieces_of
from risk.rules.upcast import load_state


def fill(apps, schema_editor):
    GameSnapshot = apps.get_model("games", "GameSnapshot")
    Seat = apps.get_model("games", "Seat")
    TerritoryHolding = apps.get_model("games", "TerritoryHolding")
    Ship = apps.get_model("games", "Ship")
    Card = apps.get_model("games", "Card")
    for game_id, stored in GameSnapshot.objects.values_list("game_id", "state").iterator():
        rows = pieces_of(load_state(stored))
        people = dict(Seat.objects.filter(game_id=game_id).values_list("player", "pk"))

        def link(player, people=people):
            return people.get(player) if player is not None else None

        TerritoryHolding.objects.bulk_create(
            TerritoryHolding(game_id=game_id, territory=r.territory, owner=r.owner,
                             seat_id=link(r.player), armies=r.armies, factory=r.factory,
                             captives=r.captives)
            for r in rows.holdings
        )  # fmt: skip
        Ship.objects.bulk_create(
            Ship(game_id=game_id, ship=r.ship, owner=r.owner, seat_id=link(r.player),
                 station=r.station, armies=r.armies, captives=r.captives)
            for r in rows.ships
        )  # fmt: skip
        Card.objects.bulk_create(
            Card(game_id=game_id, kind=r.kind, pile=r.pile, holder=r.holder,
                 seat_id=link(r.player), position=r.position, card=r.card)
            for r in rows.cards
        )  # fmt: skip


def empty(apps, schema_editor):
    for name in ("TerritoryHolding", "Ship", "Card"):
        apps.get_model("games", name).objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0015_pieces")]

    operations = [migrations.RunPython(fill, empty)]
