"""The map tables (risk.models): a map version and its continents, territories, borders, oceans,
stations and lanes."""

import django.core.validators
import django.db.models.deletion
import risk.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('risk', '0004_drop_board_and_map_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Map',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(help_text='e.g. classic', max_length=40, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9_-]*$', 'lower-case letters, digits, - and _ (first a letter or digit)')])),
                ('version', models.PositiveIntegerField()),
                ('title', models.CharField(help_text="The document's name: what players read.", max_length=200)),
                ('notes', models.JSONField(blank=True, default=list, help_text="The document's notes (text).")),
                ('board_notes', models.JSONField(blank=True, default=list, help_text="The drawn board's notes.")),
                ('status', models.CharField(choices=[('draft', 'Draft'), ('trial', 'Trial'), ('published', 'Published')], default='draft', max_length=10)),
                ('wild_cards', models.PositiveSmallIntegerField(default=2)),
                ('min_seats', models.PositiveSmallIntegerField(default=2)),
                ('max_seats', models.PositiveSmallIntegerField(default=6)),
                ('view_box', models.JSONField(default=risk.models.default_view_box, help_text="The drawn board's [x, y, width, height].")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('published_at', models.DateTimeField(blank=True, null=True)),
                ('author', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='maps', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ('name', 'version'),
            },
        ),
        migrations.CreateModel(
            name='Continent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('bonus', models.PositiveSmallIntegerField(help_text='Armies a turn for holding all of it.')),
                ('position', models.PositiveSmallIntegerField(default=0, help_text='Order on the map.')),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='continents', to='risk.map')),
            ],
            options={
                'ordering': ('map', 'position', 'pk'),
            },
        ),
        migrations.CreateModel(
            name='Ocean',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('position', models.PositiveSmallIntegerField(default=0, help_text='Order on the map.')),
                ('label_x', models.FloatField(default=0, help_text='Where its name is drawn.')),
                ('label_y', models.FloatField(default=0)),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='oceans', to='risk.map')),
            ],
            options={
                'ordering': ('map', 'position', 'pk'),
            },
        ),
        migrations.CreateModel(
            name='Station',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('x', models.FloatField(help_text="West to east, 0..1 (the map document's place).")),
                ('y', models.FloatField(help_text='North to south, 0..1.')),
                ('board_x', models.FloatField(default=0, help_text='Its place on the drawn board.')),
                ('board_y', models.FloatField(default=0)),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stations', to='risk.map')),
                ('ocean', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stations', to='risk.ocean')),
            ],
            options={
                'ordering': ('map', 'ocean__position', 'territory__position'),
            },
        ),
        migrations.CreateModel(
            name='Lane',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('length', models.PositiveSmallIntegerField(help_text='Boat lengths.')),
                ('position', models.PositiveSmallIntegerField(default=0, help_text='Order on the map.')),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lanes', to='risk.map')),
                ('a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='risk.station')),
                ('b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='risk.station')),
            ],
            options={
                'ordering': ('map', 'position', 'pk'),
            },
        ),
        migrations.CreateModel(
            name='Territory',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('card', models.CharField(choices=[('infantry', 'Infantry'), ('cavalry', 'Cavalry'), ('artillery', 'Artillery')], help_text='Its Risk card symbol.', max_length=10)),
                ('position', models.PositiveSmallIntegerField(default=0, help_text='Order on the map.')),
                ('polygon', models.JSONField(blank=True, default=list, help_text='Its shape on the drawn board: [[x, y], ...].')),
                ('label_x', models.FloatField(default=0, help_text='Where its name and armies are drawn.')),
                ('label_y', models.FloatField(default=0)),
                ('extra', models.JSONField(blank=True, default=dict, help_text="Other keys of the document's territory (kept as is).")),
                ('continent', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='territories', to='risk.continent')),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='territories', to='risk.map')),
            ],
            options={
                'verbose_name_plural': 'territories',
                'ordering': ('map', 'position', 'pk'),
            },
        ),
        migrations.AddField(
            model_name='station',
            name='territory',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stations', to='risk.territory'),
        ),
        migrations.CreateModel(
            name='Border',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('link', models.BooleanField(default=False, help_text='Drawn as a line across water (their shapes do not touch).')),
                ('wrap', models.BooleanField(default=False, help_text='That line crosses the east-west edge.')),
                ('map', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='borders', to='risk.map')),
                ('a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='risk.territory')),
                ('b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='risk.territory')),
            ],
            options={
                'ordering': ('map', 'pk'),
            },
        ),
        migrations.AddConstraint(
            model_name='map',
            constraint=models.UniqueConstraint(fields=('name', 'version'), name='risk_map_name_version'),
        ),
        migrations.AddConstraint(
            model_name='map',
            constraint=models.CheckConstraint(condition=models.Q(('min_seats__gte', 2), ('min_seats__lte', models.F('max_seats')), ('max_seats__lte', 6)), name='risk_map_seats'),
        ),
        migrations.AddConstraint(
            model_name='continent',
            constraint=models.UniqueConstraint(fields=('map', 'name'), name='risk_continent_name'),
        ),
        migrations.AddConstraint(
            model_name='ocean',
            constraint=models.UniqueConstraint(fields=('map', 'name'), name='risk_ocean_name'),
        ),
        migrations.AddConstraint(
            model_name='lane',
            constraint=models.UniqueConstraint(fields=('map', 'a', 'b'), name='risk_lane_pair'),
        ),
        migrations.AddConstraint(
            model_name='lane',
            constraint=models.CheckConstraint(condition=models.Q(('a', models.F('b')), _negated=True), name='risk_lane_two_stations'),
        ),
        migrations.AddConstraint(
            model_name='territory',
            constraint=models.UniqueConstraint(fields=('map', 'name'), name='risk_territory_name'),
        ),
        migrations.AddConstraint(
            model_name='station',
            constraint=models.UniqueConstraint(fields=('ocean', 'territory'), name='risk_station_coast'),
        ),
        migrations.AddConstraint(
            model_name='border',
            constraint=models.UniqueConstraint(fields=('map', 'a', 'b'), name='risk_border_pair'),
        ),
        migrations.AddConstraint(
            model_name='border',
            constraint=models.CheckConstraint(condition=models.Q(('a', models.F('b')), _negated=True), name='risk_border_two_territories'),
        ),
    ]
