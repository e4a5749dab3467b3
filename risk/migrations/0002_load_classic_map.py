"""Loaded the classic map into the map tables (``risk.maps.sync_map``).

The map tables went in 0004 (the map is one validated data file, read by the engine),
so this no longer loads anything: a fresh ``migrate`` would only drop the rows again.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("risk", "0001_initial")]

    operations = []
