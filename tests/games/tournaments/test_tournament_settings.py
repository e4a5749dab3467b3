"""The service, the API body and the page form read one description of a tournament's settings
(``games.tournaments.settings``): every limit there is the schema's, the form's and the
service's, and a changed limit changes all three."""

from __future__ import annotations

import dataclasses

import pytest
import yaml
from django.core.management import call_command

from frontend.tournament_forms import GROUPS, TournamentForm, form_fields
from games.tournaments import settings, setup
from games.tournaments.api import create_input
from games.tournaments.settings import SETTINGS, Kind, TournamentSettings
from games.web.exceptions import ApplicationError
from tests.games.conftest import make_user

BOUNDED = {name: s for name, s in SETTINGS.items() if s.kind == Kind.INTEGER}


@pytest.fixture(scope="module")
def create_body(tmp_path_factory):
    target = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    return schema["components"]["schemas"]["TournamentCreateInput"]["properties"]


def test_the_bounded_settings_are_the_ones_the_issue_names():
    assert {name: (s.low, s.high) for name, s in BOUNDED.items()} == {
        "minutes": (1, 240), "days": (1, 30), "days_per_turn": (1, 60),
        "min_entrants": (2, 256), "max_entrants": (2, 256), "rounds": (1, 30),
        "table_min": (3, 6), "table_max": (3, 6), "late_entry_rounds": (0, 30),
    }  # fmt: skip


@pytest.mark.parametrize("name", list(BOUNDED))
def test_each_limit_is_the_schemas_and_the_forms(create_body, name):
    setting = SETTINGS[name]
    prop = create_body[name]
    assert (prop["minimum"], prop["maximum"]) == (setting.low, setting.high)
    assert prop.get("description", "") == setting.help
    field = TournamentForm().fields[name]
    assert (field.min_value, field.max_value) == (setting.low, setting.high)
    assert field.label == setting.label


def test_choices_defaults_and_help_reach_the_schema_and_the_form(create_body):
    form = TournamentForm()
    assert create_body["room_sides"]["minItems"] == create_body["room_sides"]["maxItems"] == 2
    assert create_body["place_points"]["items"] == {"type": "number", "minimum": 0,
                                                    "maximum": 1000}  # fmt: skip
    assert create_body["days"]["default"] == form.fields["days"].initial == 3
    assert create_body["days_per_turn"]["default"] == form.fields["days_per_turn"].initial == 7
    assert create_body["table_max"]["default"] == form.fields["table_max"].initial == 6
    assert [v for v, _ in form.fields["format"].choices] == SETTINGS["format"].values == [
        "round_robin", "swiss", "knockout", "tables"]  # fmt: skip
    # Empty: the format's own largest field (a fixed 64 was over the round robin's 24).
    assert form.fields["max_entrants"].initial is None and not form.fields["max_entrants"].required
    assert form.fields["name"].max_length == create_body["name"]["maxLength"] == 80


def test_the_forms_groups_hold_every_field_once():
    grouped = [name for _, names in GROUPS for name in names]
    assert sorted(grouped) == sorted(TournamentForm().fields)
    assert dict(GROUPS)["Fast Risk games"] == (
        "win", "round_limit", "time_control", "minutes", "days", "ai_level")  # fmt: skip


def test_a_changed_limit_changes_the_api_the_form_and_the_service(monkeypatch, db):
    tighter = dataclasses.replace(SETTINGS["rounds"], high=12)
    table = {**SETTINGS, "rounds": tighter}
    api_rounds = create_input(table)().fields["rounds"]
    assert api_rounds.max_value == 12
    assert form_fields(table)["rounds"].max_value == 12
    monkeypatch.setitem(settings.SETTINGS, "rounds", tighter)
    staff = make_user("referee", is_staff=True)
    swiss = TournamentSettings(name="Tight", play="room", format="swiss", room_system="wif",
                               rounds=13)  # fmt: skip
    with pytest.raises(ApplicationError) as refused:
        setup.tournament_create(actor=staff, settings=swiss)
    assert (refused.value.field, refused.value.message) == ("rounds", "1-12 rounds")
    created = setup.tournament_create(actor=staff, settings=dataclasses.replace(swiss, rounds=12))
    assert created.rounds == 12


def test_the_service_refuses_just_past_each_limit_naming_the_field(db):
    staff = make_user("referee", is_staff=True)
    room = {"play": "room", "format": "swiss", "room_system": "wif"}
    for name, value, field in [("days_per_turn", 61, "days_per_turn"), ("rounds", 31, "rounds"),
                               ("max_entrants", 257, "max_entrants"),
                               ("min_entrants", 1, "min_entrants"),
                               ("table_min", 7, "table_min")]:  # fmt: skip
        with pytest.raises(ApplicationError) as refused:
            setup.tournament_create(
                actor=staff, settings=TournamentSettings(name="Edge", **room, **{name: value})
            )
        assert refused.value.field == field, name


def test_a_form_keeps_only_the_chosen_plays_group():
    values = {"name": "Cup", "play": "room", "format": "swiss", "minutes": 5, "days": 9,
              "days_per_turn": 4, "options": {"win": "domination"}}  # fmt: skip
    chosen = TournamentSettings.of(values)
    assert (chosen.days_per_turn, chosen.minutes, chosen.days, chosen.options) == (4, None, 3, None)
    assert settings.default("days") == 3 and settings.default("name") is dataclasses.MISSING
