"""Running (and paused) games whose state row predates ``server_turn`` (migration 0004) get it set.

0004 added the flag as False everywhere, so a game that was waiting on a bot when the server was
upgraded, its task lost, would never be found by the sweep. Setting it on every running game is
safe: the sweep queues each one's driver once (after ``GAME_STALLED_SECONDS``); the driver
answers what waits on the server, or finds nothing and clears the flag
(``games.services.driver``); the next action writes the true value anyway.
"""

from django.db import migrations


def flag_running_games(apps, schema_editor):
    GameSnapshot = apps.get_model("games", "GameSnapshot")
    GameSnapshot.objects.filter(game__status__in=("running", "paused")).update(server_turn=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_server_turn")]

    operations = [migrations.RunPython(flag_running_games, migrations.RunPython.noop)]
