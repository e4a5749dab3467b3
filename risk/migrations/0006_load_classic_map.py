"""Load version 1 of the classic map, published, from its packaged files (risk/data/classic-risk-map.json
and classic-risk-board.json, which stay the fixture and the import format)."""

from django.db import migrations

from risk.maps.documents import load_packaged, unload_packaged


def load(apps, schema_editor):
    load_packaged(apps, "classic")


def unload(apps, schema_editor):
    unload_packaged(apps, "classic")


class Migration(migrations.Migration):
    dependencies = [("risk", "0005_maps")]

    operations = [migrations.RunPython(load, unload)]
