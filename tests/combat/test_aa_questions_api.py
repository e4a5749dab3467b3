"""The A&A questions over HTTP (issue 32): take, retreat, swing, waves, cheapest, order check,
and the editions listing. Values are worked by hand; the endpoints add nothing to the answers
of ``combat.axis_allies.questions`` (its own tests pin the maths), so these check the envelope,
the hand values of small battles, and the refusals naming the field."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

API = "/api/combat/aa"
ONE_V_ONE = {"attacker": {"infantry": 1}, "defender": {"infantry": 1}, "edition": "1942-2e"}


def post(client, path: str, body: Any):
    return client.post(f"{API}/{path}", body, content_type="application/json")


def ok(client, path: str, body: Any) -> dict[str, Any]:
    response = post(client, path, body)
    assert response.status_code == 200, response.json()
    return response.json()


def refused(client, path: str, body: Any, field: str) -> dict[str, Any]:
    response = post(client, path, body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field, response.json()
    return response.json()


def test_editions_list_every_edition_with_its_units(client):
    response = client.get(f"{API}/editions")
    assert response.status_code == 200
    editions = {e["key"]: e for e in response.json()["editions"]}
    assert set(editions) >= {
        "1942-2e", "global-1940-2e", "global-1940-2e-balanced-mod",
        "global-1940-2e-path-to-victory", "anniversary", "revised", "classic",
    }  # fmt: skip
    units = {u["name"]: u for u in editions["1942-2e"]["units"]}
    assert units["cruiser"] == {
        "name": "cruiser", "kind": "sea", "attack": 3, "defense": 3, "cost": 12, "hits": 1,
    }  # fmt: skip
    assert units["battleship"]["hits"] == 2 and units["battleship"]["cost"] == 20
    assert "aaa" in units and "mech_infantry" not in units
    g40 = {u["name"]: u for u in editions["global-1940-2e"]["units"]}
    assert (g40["mech_infantry"]["attack"], g40["mech_infantry"]["defense"]) == (1, 2)
    assert g40["mech_infantry"]["cost"] == 4
    assert (g40["tactical_bomber"]["attack"], g40["tactical_bomber"]["cost"]) == (3, 11)
    assert (g40["carrier"]["hits"], g40["carrier"]["cost"]) == (2, 16)
    marines = {u["name"] for u in editions["global-1940-2e-balanced-mod"]["units"]}
    assert "marine" in marines


def test_take_one_infantry_each(client):
    # Attack hits 1/6, defence 2/6: a deciding round is a: 1/6*4/6 = 4/36, d: 5/6*2/6 = 10/36,
    # both 2/36; of 16/36: the attacker takes 4/16, the defender holds 12/16 (10 + 2 draws).
    data = ok(client, "take", ONE_V_ONE)
    assert data["edition"] == "1942-2e"
    assert data["take"] == pytest.approx(0.25)
    assert data["defender_holds"] == pytest.approx(0.75)
    assert data["draw"] == pytest.approx(0.125)


def test_a_fighter_alone_wins_but_never_takes(client):
    # Fighter hits 3/6, infantry 2/6: a: 1/2*2/3 = 1/3, d: 1/2*1/3 = 1/6, both 1/6 (of 2/3):
    # the fighter wins 1/2, but only aircraft are left, so nothing takes the territory.
    body = {"attacker": {"fighter": 1}, "defender": {"infantry": 1}, "edition": "1942-2e"}
    data = ok(client, "take", body)
    assert data["take"] == 0
    assert data["air_only_win"] == pytest.approx(0.5)
    assert data["attacker_wins"] == pytest.approx(0.5)
    assert data["expected_air_to_land"]["fighter"] == pytest.approx(0.5)


def test_retreat_after_round_one(client):
    # One round, then retreat: a hits only 4/36, d only 10/36, both 2/36, neither 20/36.
    data = ok(client, "retreat", {**ONE_V_ONE, "policy": {"after_round": 1}})
    assert data["attacker_wins"] == pytest.approx(4 / 36)
    assert data["defender_wins"] == pytest.approx(10 / 36)
    assert data["draw"] == pytest.approx(2 / 36)
    assert data["retreat"] == pytest.approx(20 / 36)
    assert data["policy"]["after_round"] == 1


def test_swing_one_infantry_each(client):
    # Each infantry is worth 3 IPC: the attacker loses 3 and the defender 0 (5/8), both lose 3
    # (1/8), the defender loses 3 (2/8): swing -3, 0, +3; mean -15/8 + 6/8 = -9/8.
    data = ok(client, "swing", ONE_V_ONE)
    swing = {row["ipc"]: row["probability"] for row in data["swing"]}
    assert swing == {-3: pytest.approx(5 / 8), 0: pytest.approx(1 / 8), 3: pytest.approx(2 / 8)}
    assert data["expected_swing"] == pytest.approx(-9 / 8)


def test_two_waves_infantry_then_a_tank(client):
    # Wave 1 (1 v 1 infantry): takes 4/16, both die 2/16, the defender is left 10/16. Wave 2
    # walks in after the draw, and fights the 10/16: a tank (3/6) against an infantry (2/6)
    # wins 1/3 / (2/3) = 1/2. Taken: 4/16 + 2/16 + 10/16 * 1/2 = 11/16.
    body = {"defender": {"infantry": 1}, "edition": "1942-2e",
            "waves": [{"units": {"infantry": 1}}, {"units": {"armor": 1}}]}  # fmt: skip
    data = ok(client, "waves", body)
    assert data["take"] == pytest.approx(11 / 16)
    assert data["waves"][1]["fights"] == pytest.approx(10 / 16)


def test_cheapest_force_one_infantry_wins_a_quarter(client):
    body = {"defender": {"infantry": 1}, "available": {"infantry": 3, "armor": 1},
            "target": 0.25, "measure": "win", "edition": "1942-2e"}  # fmt: skip
    data = ok(client, "cheapest", body)
    assert data["found"] is True
    assert data["force"] == {"infantry": 1}
    assert data["cost"] == 3
    assert data["chance"] == pytest.approx(0.25)


def test_the_smallest_force_over_http(client):
    """As test_the_smallest_force_is_not_the_cheapest_hand_worked: a bomber wins 4/7."""
    body = {"defender": {"infantry": 1}, "available": {"infantry": 2, "bomber": 1},
            "target": 0.55, "measure": "win", "by": "units"}  # fmt: skip
    data = ok(client, "cheapest", body)
    assert data["force"] == {"bomber": 1}
    assert (data["cost"], data["units"], data["by"]) == (15, 1, "units")
    assert data["chance"] == pytest.approx(4 / 7)


def test_order_check_warns_of_a_tank_lost_before_infantry(client):
    body = {"units": {"infantry": 2, "armor": 1}, "order": ["armor", "infantry"],
            "edition": "1942-2e"}  # fmt: skip
    warnings = ok(client, "order-check", body)["warnings"]
    assert warnings and any("armor" in w for w in warnings)
    assert ok(client, "order-check", {**body, "order": ["infantry", "armor"]})["warnings"] == []


def test_order_of_loss_as_an_object(client):
    order = {"units": ["infantry"], "keep_one_land": True}
    data = ok(client, "take", {**ONE_V_ONE, "attacker_order": order})
    assert data["take"] == pytest.approx(0.25)


def test_new_units_in_the_odds_endpoint(client):
    # G40: a mech infantry attacks at 1 like infantry; against a lone AAA (defenceless, no
    # combat unit) the attacker wins without a roll.
    body = {"attacker": {"mech_infantry": 1}, "defender": {"aaa": 1}, "edition": "global-1940-2e"}
    data = ok(client, "take", body)
    assert data["take"] == pytest.approx(1)
    odds = client.post(f"{API}/odds", body, content_type="application/json")
    assert odds.status_code == 200, odds.json()
    assert odds.json()["attacker_wins"] == pytest.approx(1)


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("take", {**ONE_V_ONE, "edition": "revised", "attacker": {"mech_infantry": 1}},
         "attacker.mech_infantry"),
        ("take", {**ONE_V_ONE, "edition": "1943"}, "edition"),
        ("take", {**ONE_V_ONE, "colour": "red"}, "colour"),
        ("retreat", ONE_V_ONE, "policy"),
        ("retreat", {**ONE_V_ONE, "policy": {"after_round": 0}}, "policy.after_round"),
        ("retreat", {**ONE_V_ONE, "policy": {"chance_of": "lose"}}, "policy.chance_of"),
        ("cheapest", {"defender": {"infantry": 1}, "available": {"infantry": 2}, "target": 0},
         "target"),
        ("cheapest", {"defender": {"infantry": 1}, "available": {"cruiser": 2}},
         "available.cruiser"),
        ("cheapest", {"defender": {"infantry": 1}, "available": {"infantry": 2}, "by": "cost"},
         "by"),
        ("order-check", {"units": {"infantry": -1}}, "units.infantry"),
        ("order-check", {"units": {}}, "units"),
        ("waves", {"defender": {"infantry": 1}, "waves": []}, "waves"),
    ],
)  # fmt: skip
def test_refusals_name_the_field(client, path, body, field):
    refused(client, path, body, field)


@pytest.mark.parametrize(
    ("edition", "attacker", "defender"),
    [
        ("1942-2e", {"cruiser": 1, "fighter": 1}, {"destroyer": 1, "submarine": 1}),
        ("global-1940-2e", {"mech_infantry": 2, "tactical_bomber": 1}, {"infantry": 3, "aaa": 1}),
        ("global-1940-2e-balanced-mod", {"marine": 1, "infantry": 1}, {"infantry": 1}),
        ("anniversary", {"infantry": 2, "artillery": 1}, {"infantry": 2}),
    ],
)
def test_stored_battles_of_the_new_editions_verify(client, edition, attacker, defender):
    body = {"attacker": attacker, "defender": defender, "edition": edition, "client_seed": "x"}
    created = client.post(f"{API}/battles", body, content_type="application/json")
    assert created.status_code == 201, created.json()
    battle = created.json()
    assert battle["report"]["edition"] == edition
    closed = post(client, f"battles/{battle['id']}/close", {"close_token": battle["close_token"]})
    assert closed.status_code == 200, closed.json()
    assert closed.json()["verification"]["verified"] is True
    assert closed.json()["report"] == battle["report"]
