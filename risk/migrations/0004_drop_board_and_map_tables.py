"""Drop the board and map tables (a game's state is one JSON row now): boards moved to ``games.GameSnapshot`` in games
0002, which runs first; the map is read from its data file. Children before parents, whole
tables at a time (removing columns one by one would make SQLite rebuild each table)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('risk', '0003_seat_preferences_and_draw_votes'),
        ('games', '0002_gamesnapshot'),
    ]

    operations = [
        migrations.DeleteModel(name=name)
        for name in (
            'RiskCard', 'PokerCard', 'Ship', 'Factory', 'TerritoryState', 'Player', 'Board',
            'SeaLane', 'Station', 'Border', 'Territory', 'Ocean', 'Continent', 'Map',
        )
    ]
