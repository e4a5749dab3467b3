"""Every game ranked again by the order its players went out (risk/RULES.md J12).

The engine used to rank eliminated players by territories and armies (all nothing, so seat
order); a finished game's stored ranking, its snapshot and its ``game_over`` event get the
ranking the engine now gives, and a running game's board the order from its log, so
``verify_game`` replays every game to what is stored. Ratings are derived: ``manage.py rerate``
rebuilds them on the corrected order. Runs ``games.services.rerank`` with this migration's
historical models; nothing to undo (the old order was wrong).
"""

from django.db import migrations

from games.services.rerank import Models, rerank_all


def rerank(apps, schema_editor):
    rerank_all(
        Models(apps.get_model("games", "Game"), apps.get_model("games", "GameSnapshot"),
               apps.get_model("games", "ActionLog"))
    )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [("games", "0012_tournaments")]

    operations = [migrations.RunPython(rerank, migrations.RunPython.noop)]
