"""Load version 1 of the small map, published, from its packaged files (risk/data/small-risk-map.json
and small-risk-board.json, which stay the fixture and the import format)."""

from django.db import migrations

from risk.maps.documents import load_packaged, unload_packaged


def load(apps, schema_editor):
    load_packaged(apps, "small")


def unload(apps, schema_editor):
    unload_packaged(apps, "small")


class Migration(migrations.Migration):
    dependencies = [("risk", "0006_load_classic_map")]

    operations = [migrations.RunPython(load, unload)]
