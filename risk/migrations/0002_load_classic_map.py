"""Load the classic map so a fresh ``migrate`` has it (the same loader as ``manage.py load_map``)."""

from django.db import migrations


def load_classic(apps, schema_editor):
    from risk.maps import sync_map
    from risk.rules.board_map import load_map

    sync_map(load_map("classic"), "classic", apps=apps)


class Migration(migrations.Migration):
    dependencies = [("risk", "0001_initial")]

    # Backwards does nothing: the rows may stay (loading again is idempotent), and unapplying
    # 0001 drops the tables anyway.
    operations = [migrations.RunPython(load_classic, migrations.RunPython.noop)]
