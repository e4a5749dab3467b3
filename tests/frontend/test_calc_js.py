"""The calculators' modules under Node: calc.js's pure functions and calc_page.js's renderers.

Query string <-> form inputs, the JSON body built from the inputs, the bar chart's data, and the
plain-English explanations of result codes (every code the WiF table prints and every France 1944
letter). Needs Node.js, as tests/frontend/test_game_js_patch.py does.
"""

from __future__ import annotations

import json
import re

import pytest

from combat.crt.france_1944 import RESULTS as FRANCE_RESULTS
from combat.crt.wif import parse_code, wif_land_odds
from tests.conftest import ROOT
from tests.frontend.node import call_each, module_url, run_script

WIF_DATA = ROOT / "combat" / "crt" / "data" / "wif_2d10_land.json"
FUNCTIONS = ["toQuery", "fromQuery", "toBody", "barData", "explainWif", "explainFrance",
             "explainAA", "unitsText", "riskOutcomeText", "aaAnswerText", "swingBars",
             "retreatPolicy", "retreatText", "legacyRetreat", "parseOrder", "orderOfLoss",
             "orderWarningText", "cheapestText", "wavesText", "fieldInput"]  # fmt: skip


def call(*calls: tuple[str, list]) -> list[dict]:
    return call_each("calc.js", FUNCTIONS, list(calls))


def ok(name: str, *args: object) -> object:
    (got,) = call((name, list(args)))
    assert "ok" in got, got
    return got["ok"]


def test_the_query_string_holds_only_what_differs_from_the_defaults():
    values = [["attackers", "7"], ["defenders", "3"], ["mode", "normal"], ["naval", True],
              ["flanks", "15, 15"], ["stop_below", ""]]  # fmt: skip
    defaults = {"attackers": "5", "defenders": "3", "mode": "normal", "naval": False, "flanks": ""}
    query = ok("toQuery", values, defaults)
    assert query == "attackers=7&naval=true&flanks=15%2C+15"
    names = ["attackers", "defenders", "mode", "naval", "flanks", "stop_below"]
    back = ok("fromQuery", "?" + query + "&evil=1&attacker.x=2", names)
    assert back == [["attackers", "7"], ["naval", "true"], ["flanks", "15, 15"]]


def test_a_query_string_round_trips_odd_text():
    values = [["modifiers", '{"terrain": "forest & hills"}'], ["attacker.aa_gun", "1"]]
    query = ok("toQuery", values, {})
    assert ok("fromQuery", query, ["modifiers", "attacker.aa_gun"]) == values


def test_the_body_nests_converts_and_leaves_out_empty_values():
    values = [["attacker.infantry", "3"], ["attacker.armor", "0"], ["defender.infantry", "2"],
              ["rules", "lowluck"], ["rounds", ""], ["amphibious", False], ["drm", "0.5"],
              ["flanks", "15, 15"], ["modifiers", '{"terrain": "forest"}']]  # fmt: skip
    types = {"attacker.infantry": "count", "attacker.armor": "count", "defender.infantry": "count",
             "rounds": "int", "amphibious": "bool", "drm": "float", "flanks": "intlist",
             "modifiers": "json"}  # fmt: skip
    assert ok("toBody", values, types) == {
        "attacker": {"infantry": 3},
        "defender": {"infantry": 2},
        "rules": "lowluck",
        "amphibious": False,
        "drm": 0.5,
        "flanks": [15, 15],
        "modifiers": {"terrain": "forest"},
    }


def test_the_body_refuses_what_is_no_number():
    got = call(
        ("toBody", [[["attackers", "3x"]], {"attackers": "int"}]),
        ("toBody", [[["drm", "1e9"]], {"drm": "float"}]),
        ("toBody", [[["flanks", "1,-2"]], {"flanks": "intlist"}]),
        ("toBody", [[["modifiers", "{"]], {"modifiers": "json"}]),
    )
    assert [g.get("error", "").split(":")[0] for g in got] == [
        "attackers", "drm", "flanks", "modifiers",
    ]  # fmt: skip


def test_the_bars_scale_to_the_largest_value():
    items = [
        {"label": "A", "value": 0.5},
        {"label": "B", "value": 0.25},
        {"label": "C", "value": 0},
    ]
    bars = ok("barData", items, 200, 20)
    assert [(b["label"], b["width"], b["y"], b["percent"]) for b in bars] == [
        ("A", 200, 0, "50.0%"), ("B", 100, 20, "25.0%"), ("C", 0, 40, "0.0%"),
    ]  # fmt: skip
    assert ok("barData", [{"label": "x", "value": 0}], 200, 20)[0]["width"] == 0
    assert ok("barData", [], 200, 20) == []


def test_every_wif_code_the_table_prints_is_explained():
    codes: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, str):
            codes.add(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(WIF_DATA.read_text())["crt"]["rows"])
    assert len(codes) > 25
    assert set(wif_land_odds(12, 4).distribution) <= codes
    texts = call(*(("explainWif", [code]) for code in sorted(codes)))
    for code, got in zip(sorted(codes), texts, strict=True):
        text = got["ok"]
        parsed = parse_code(code)
        assert "not a code" not in text, code
        if parsed.attacker_losses:
            assert f"attacker loses {parsed.attacker_losses} unit" in text, text
        if parsed.defender_losses:
            assert f"defender loses {parsed.defender_losses} unit" in text, text
        assert ("extra loss" in text) == parsed.extra_loss, text
        assert ("half of the attacker" in text) == (parsed.face_up == "half"), text
        assert ("all of the attacker" in text) == (parsed.face_up == "all"), text
        assert ("retreat (R) instead" in text) == (parsed.defender_result in ("S", "B")), text
        assert ("breaks through" in text) == (parsed.defender_result == "B"), text


def test_the_wif_examples_read_in_plain_english():
    assert ok("explainWif", "†x1/2") == (
        "†x1/2: The attacker loses 1 unit; plus one extra loss if an x condition holds (e.g. "
        "attacking a city, mountain, forest, jungle or swamp hex, or a hex in rain or storm); "
        "the defender loses 2 units; half of the attacker's remaining land units stay face-up "
        "(not disorganised)."
    )
    assert ok("explainWif", "-/-").startswith("-/-: The attacker loses nothing; the defender loses")
    assert "not a code" in ok("explainWif", "<b>")


def test_every_france_1944_letter_is_explained():
    for letter in FRANCE_RESULTS:
        text = ok("explainFrance", letter)
        assert text.startswith(f"{letter}: result {letter} of the game's combat results key")
    assert "not a result letter" in ok("explainFrance", "Z")


def test_aa_results_and_units_read_in_plain_english():
    from combat.axis_allies.reports import RESULTS

    for result in RESULTS:
        assert ok("explainAA", result).startswith(f"{result}: ")
        assert len(ok("explainAA", result)) > len(result) + 10
    assert ok("unitsText", {"infantry": 2, "aa_gun": 1, "armor": 0}) == "2 infantry, 1 aa gun"
    assert ok("unitsText", {}) == "none"


def form_values(html: str) -> tuple[list[list[object]], dict[str, str]]:
    """The form's controls as the script sends them to the calculator endpoint: [[name, value]]
    and {name: type}. Those marked data-local (on themselves or on a part around them) are the
    page's own questions', not sent there."""
    html = re.sub(r'<details\b[^>]*\bdata-local="true"[^>]*>.*?</details>', "", html, flags=re.S)
    html = re.sub(r'<select\b[^>]*\bdata-local="true"[^>]*>.*?</select>', "", html, flags=re.S)
    values: list[list[object]] = []
    types: dict[str, str] = {}
    for tag in re.findall(r"<(?:input|textarea)\b[^>]*>", html):
        name = re.search(r'\bname="([^"]+)"', tag)
        if name is None or 'data-local="true"' in tag:
            continue
        if 'type="checkbox"' in tag:
            values.append([name[1], " checked" in tag])
            types[name[1]] = "bool"
            continue
        value = re.search(r'\bvalue="([^"]*)"', tag)
        values.append([name[1], value[1] if value else ""])
        kind = re.search(r'\bdata-type="([^"]+)"', tag)
        types[name[1]] = kind[1] if kind else "str"
    for name, options in re.findall(
        r'<select[^>]*\bname="([^"]+)"[^>]*>(.*?)</select>', html, re.S
    ):
        values.append([name, re.search(r'<option value="([^"]*)" selected', options)[1]])
    return values, types


@pytest.mark.parametrize(
    "path", ["/calculators/aa", "/calculators/risk", "/calculators/wif", "/calculators/france-1944"]
)
def test_the_forms_defaults_make_a_body_the_api_accepts(client, path):
    html = client.get(path).content.decode()
    api = re.search(r'data-api="([^"]+)"', html)[1]
    values, types = form_values(html)
    body = ok("toBody", values, types)
    response = client.post(api, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, (body, response.content)
    assert response.json()


# A small stand-in for the DOM: enough for common.js's el() and calc.js's renderers. Setting
# innerHTML or outerHTML throws, so a renderer that writes markup fails the test.
FAKE_DOM = """
class Node {
  constructor(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.dataset = {};
    this.classList = { add: () => {} }; this._text = ""; }
  append(...kids) {
    for (const k of kids) this.children.push(typeof k === "string" ? new Text(k) : k);
  }
  replaceChildren() { this.children = []; }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  addEventListener() {}
  set textContent(v) { this.children = [new Text(String(v))]; }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  set innerHTML(v) { throw new Error("innerHTML used"); }
  set outerHTML(v) { throw new Error("outerHTML used"); }
}
class Text extends Node { constructor(t) { super("#text"); this.t = t; }
  get textContent() { return this.t; } }
for (const p of ["className", "href", "type", "id", "value"]) Node.prototype[p] = undefined;
globalThis.Node = Node;
globalThis.document = { createElement: (t) => new Node(t), createElementNS: (ns, t) => new Node(t),
  createTextNode: (t) => new Text(t), getElementById: () => null, addEventListener: () => {} };
globalThis.location = { pathname: "/calculators/x", search: "", origin: "http://testserver" };
function collect(node, tags) {
  tags.push(node.tag);
  for (const c of node.children) collect(c, tags);
  return tags;
}
"""

RENDER_RUNNER = (
    f"""
const {{ RENDER }} = await import({json.dumps(module_url("calc_page.js"))});
"""
    + """
process.stdout.write(JSON.stringify(input.map(([kind, data]) => {
  const host = new Node("div");
  try { RENDER[kind](data, host); } catch (e) { return { error: String(e.stack) }; }
  return { text: host.textContent, tags: collect(host, []),
           bars: collect(host, []).filter((t) => t === "rect").length };
})));
"""
)


def render(cases: list[tuple[str, dict]]) -> list[dict]:
    # calc_page.js is imported once the fake DOM is in place (a static import would come first)
    return run_script(FAKE_DOM + RENDER_RUNNER, cases)


def api(client, url: str, body: dict) -> dict:
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_renderers_draw_real_answers_with_text_only(client):
    aa = api(client, "/api/combat/aa/odds", {"attacker": {"infantry": 3, "armor": 1},
             "defender": {"infantry": 3}, "rules": "chess-cof-r"})  # fmt: skip
    risk = api(client, "/api/combat/risk/odds", {"attackers": 6, "defenders": 3,
               "mode": "flanking", "flanks": [3, 3]})  # fmt: skip
    naval = api(client, "/api/combat/risk/odds", {"attackers": 3, "defenders": 3, "naval": True})
    wif = api(client, "/api/combat/wif/land", {"attack": 12, "defense": 4})
    wif_roll = api(client, "/api/combat/wif/land", {"attack": 12, "defense": 4, "resolve": True})
    body = {"attack": 6, "defense": 3, "attacker_morale": 3, "defender_morale": 3,
            "attacking_units": 2}  # fmt: skip
    france = api(client, "/api/combat/france-1944", body)
    france_roll = api(client, "/api/combat/france-1944", {**body, "resolve": True})
    got = render([("aa", aa), ("risk", risk), ("risk", naval), ("wif", wif), ("wif", wif_roll),
                  ("france", france), ("france", france_roll)])  # fmt: skip
    for result in got:
        assert "error" not in result, result.get("error")
        assert "svg" in result["tags"] and result["bars"] > 0
    text = [r["text"] for r in got]
    assert (
        f"{100 * aa['attacker_wins']:.2f}%" in text[0] and "attacker: the attacker wins" in text[0]
    )
    assert "attacker wins, 3+3 left, 2 captured" in text[1]
    assert "ship sunk" in text[2] and "The defending ship" in text[2]
    assert got[3]["bars"] == len(wif["distribution"])
    assert "†x1/2: The attacker loses 1 unit" in text[3]
    assert wif_roll["code"] in text[4] and wif_roll["commitment"] in text[4]
    assert "Row read" in text[4] and "Row read" not in text[3]
    assert got[5]["bars"] == 6 and "C: result C" in text[5]
    assert f"{france_roll['code']}: result {france_roll['code']}" in text[6]


def test_the_aa_answers_in_sentences():
    """One fighter against one infantry, 1942 2E (tests/combat/test_aa_questions_api.py): it
    wins 1/2 with only the fighter left, so it never takes the territory; swing worked there."""
    take = {"land_battle": True, "take": 0, "air_only_win": 0.5, "defender_holds": 0.5}
    swing = {"expected_swing": 12.4449, "attacker_loss_mean": 5, "attacker_loss_sd": 5,
             "defender_loss_mean": 1.5, "defender_loss_sd": 1.5}  # fmt: skip
    assert ok("aaAnswerText", take, swing) == [
        "The attacker takes the territory 0.0% of the time; expected IPC swing +12.4 for the "
        "attacker.",
        "It wins with only aircraft left 50.0% of the time: nothing takes the territory then, "
        "and the aircraft must land elsewhere.",
        "The defender holds 50.0% of the time.",
        "The attacker loses 5.0 IPC on average (standard deviation 5.0), the defender 1.5 "
        "(standard deviation 1.5).",
    ]
    sea = ok("aaAnswerText", {**take, "land_battle": False, "take": 0.873},
             {**swing, "expected_swing": -0.04})  # fmt: skip
    assert sea[0] == (
        "The attacker clears the sea zone 87.3% of the time; expected IPC swing 0.0 for the "
        "attacker."
    )
    assert len(sea) == 3  # no aircraft sentence at sea


def test_the_swing_bars_go_from_the_lowest_swing_up():
    swing = {"swing": [{"ipc": 3, "probability": 0.25}, {"ipc": -3, "probability": 0.625},
                       {"ipc": 0, "probability": 0.125}]}  # fmt: skip
    assert ok("swingBars", swing) == [
        {"label": "-3 IPC", "value": 0.625},
        {"label": "0 IPC", "value": 0.125},
        {"label": "+3 IPC", "value": 0.25},
    ]


@pytest.mark.parametrize(
    ("value", "policy"),
    [("", None), ("after_round:2", {"after_round": 2}), ("below_chance:0.5", {"below_chance": 0.5}),
     ("strafe", {"strafe": True})],
)  # fmt: skip
def test_the_retreat_choice_is_the_questions_policy(value, policy):
    assert ok("retreatPolicy", value) == policy


@pytest.mark.parametrize(
    ("kind", "at", "policy"),
    [("after_round", "3", {"after_round": 3}), ("below_chance", "40", {"below_chance": 0.4}),
     ("below_chance", "12.5", {"below_chance": 0.125}), ("below_units", "2", {"below_units": 2}),
     ("strafe", "", {"strafe": True}), ("", "7", None)],
)  # fmt: skip
def test_the_retreat_rule_and_its_number_are_the_policy(kind, at, policy):
    assert ok("retreatPolicy", kind, at) == policy


def test_a_retreat_number_that_does_not_fit_names_its_input():
    got = call(
        ("retreatPolicy", ["after_round", ""]),
        ("retreatPolicy", ["after_round", "1.5"]),
        ("retreatPolicy", ["below_units", "0"]),
        ("retreatPolicy", ["below_chance", "150"]),
    )
    assert [g["error"] for g in got] == [
        "retreat_at: give the number for the retreat",
        "retreat_at: a whole number, 1 or more",
        "retreat_at: a whole number, 1 or more",
        "retreat_at: a chance above 0% and at most 100%",
    ]


def test_an_older_links_retreat_becomes_the_two_inputs():
    pairs = [["retreat", "below_chance:0.3"], ["attacker.infantry", "2"]]
    assert ok("legacyRetreat", pairs) == [
        ["retreat", "below_chance"], ["retreat_at", "30"], ["attacker.infantry", "2"],
    ]  # fmt: skip
    assert ok("legacyRetreat", [["retreat", "after_round:2"]]) == [
        ["retreat", "after_round"], ["retreat_at", "2"],
    ]  # fmt: skip
    assert ok("legacyRetreat", [["retreat", "strafe"]]) == [["retreat", "strafe"]]


def test_the_new_inputs_round_trip_through_the_link():
    """The order of loss (text with commas), its two options, the cheapest force's pool and
    chance, and the second wave: what differs from the defaults goes into the link and back."""
    values = [["order", "armor, mech infantry"], ["keep_land", True], ["keep_capital", False],
              ["retreat", "below_units"], ["retreat_at", "2"], ["target", "85"],
              ["measure", "take"], ["by", "units"], ["available.infantry", "4"],
              ["available.armor", "0"], ["wave2.armor", "1"]]  # fmt: skip
    defaults = {"order": "", "keep_land": False, "keep_capital": False, "retreat": "",
                "retreat_at": "", "target": "90", "measure": "take", "by": "ipc",
                "available.infantry": "0", "available.armor": "0", "wave2.armor": "0"}  # fmt: skip
    query = ok("toQuery", values, defaults)
    assert query == (
        "order=armor%2C+mech+infantry&keep_land=true&retreat=below_units&retreat_at=2&target=85"
        "&by=units&available.infantry=4&wave2.armor=1"
    )
    back = ok("fromQuery", query, list(defaults))
    assert back == [[n, str(v).lower()] for n, v in values if str(v) != str(defaults[n])]
    assert ["keep_land", "true"] in back


def test_the_typed_order_of_loss_is_the_editions_unit_names():
    names = ["infantry", "mech_infantry", "armor", "fighter", "battleship", "aa_gun"]
    assert ok("parseOrder", "Infantry, mech-infantry; armors,,fighters", names) == [
        "infantry", "mech_infantry", "armor", "fighter",
    ]  # fmt: skip
    assert ok("parseOrder", "", names) == []
    assert ok("parseOrder", "armor, armor, infantry", names) == ["armor", "infantry"]
    (got,) = call(("parseOrder", ["infantry, tanks", names]))
    assert got["error"] == (
        'order: "tanks" is not a unit of this edition (its units: infantry, mech '
        "infantry, armor, fighter, battleship, aa gun)"
    )


def test_the_order_of_loss_as_the_questions_take_it():
    assert ok("orderOfLoss", [], False, False) is None
    assert ok("orderOfLoss", ["armor", "infantry"], False, False) == ["armor", "infantry"]
    assert ok("orderOfLoss", [], True, False) == {
        "units": [], "keep_one_land": True, "keep_capital_ship": False,
    }  # fmt: skip


def test_the_order_checks_warnings_in_the_pages_words():
    """The warnings as combat.axis_allies.questions.check_order writes them."""
    from combat.axis_allies.questions import check_order

    warnings = check_order({"mech_infantry": 1, "fighter": 1}, ["mech_infantry", "fighter"],
                           edition="global-1940-2e")  # fmt: skip
    assert warnings == [
        "the last land unit (mech_infantry) is lost before fighter: a battle won with only "
        "aircraft left does not take the territory (use keep_one_land)."
    ]
    assert ok("orderWarningText", warnings[0]) == (
        "The last land unit (mech infantry) is lost before fighter: a battle won with only "
        "aircraft left does not take the territory (tick \u201ckeep one land unit\u201d)."
    )
    warning = "armor (attacks at 3) is lost before infantry (attacks at 1)."
    assert ok("orderWarningText", warning) == f"A{warning[1:]}"


ORDER = ["infantry", "artillery", "armor", "fighter", "bomber"]


def test_the_cheapest_and_the_smallest_force_in_a_sentence():
    """Against 1 infantry, from 2 infantry and a bomber, to win at least 55%
    (tests/combat/test_aa_questions.py, worked by hand there): the cheapest is 2 infantry,
    6 IPC, winning 157/232 = 67.7%; the smallest the bomber, 15 IPC, winning 4/7 = 57.1%."""
    from combat.axis_allies.questions import cheapest_force

    pool = {"infantry": 2, "bomber": 1}
    cheapest = cheapest_force({"infantry": 1}, pool, 0.55, measure="win").to_dict()
    smallest = cheapest_force({"infantry": 1}, pool, 0.55, measure="win", by="units").to_dict()
    assert ok("cheapestText", cheapest, True, ORDER) == (
        "The cheapest force that wins the battle at least 55% of the time: 2 infantry \u2014 "
        "6 IPC, 2 units; it wins 67.7% of the time."
    )
    assert ok("cheapestText", smallest, True, ORDER) == (
        "The smallest force that wins the battle at least 55% of the time: 1 bomber \u2014 "
        "1 unit, 15 IPC; it wins 57.1% of the time."
    )


def test_the_cheapest_force_lists_its_units_in_the_editions_order():
    answer = {"target": 0.9, "measure": "take", "found": True, "by": "ipc", "cost": 44,
              "units": 11, "chance": 0.9134,
              "force": {"armor": 3, "infantry": 6, "artillery": 2}}  # fmt: skip
    assert ok("cheapestText", answer, True, ORDER) == (
        "The cheapest force that takes the territory at least 90% of the time: 6 infantry, "
        "2 artillery, 3 armor \u2014 44 IPC, 11 units; it takes it 91.3% of the time."
    )
    sea = {**answer, "target": 0.875, "force": {"destroyer": 2}, "cost": 16, "units": 2}
    assert ok("cheapestText", sea, False, ORDER).startswith(
        "The cheapest force that clears the sea zone at least 87.5% of the time: 2 destroyer"
    )


def test_a_force_out_of_reach_in_a_sentence():
    """Two infantry against five never take it 90% of the time (test_aa_questions.py)."""
    answer = {"target": 0.9, "measure": "take", "found": False, "force": None, "cost": None,
              "units": None, "chance": None, "best_chance": 0.0123, "by": "ipc"}  # fmt: skip
    assert ok("cheapestText", answer, True, ORDER) == (
        "No force from the units available takes the territory at least 90% of the time: all "
        "of them together take it only 1.2% of the time."
    )


def test_a_second_wave_in_sentences():
    """1942 2E: an infantry attacks an infantry, then an armor attacks what is left. Wave 1
    takes it 4/16 (test_aa_dice_worked_by_hand), both die 2/16 (the armor walks in), the
    defender holds 10/16: the armor fights then, winning 1/2 (hits 3/6 against 2/6: 1/3 a
    round alone, 1/6 lost alone, 1/6 both). Taken: 4/16 + 2/16 + 10/16 * 1/2 = 11/16 =
    68.75%; the second wave takes 7/16 = 43.75%. Lost: the infantry (3 IPC) 12/16 = 2.25;
    the armor (6 IPC) 10/16 * 1/2 = 1.875. The defender's infantry dies 1 - 10/16 * 1/4 =
    54/64: 3 * 54/64 = 2.53; swing 2.53 - 4.125 = -1.59."""
    from combat.axis_allies.questions import waves

    answer = waves({"infantry": 1}, [{"infantry": 1}, {"armor": 1}], edition="1942-2e").to_dict()
    assert answer["take"] == pytest.approx(11 / 16)
    assert answer["expected_swing"] == pytest.approx(2.53125 - 4.125)
    assert ok("wavesText", answer, True) == [
        "With a second wave, the attacker takes the territory 68.8% of the time (the first wave "
        "alone: 25.0%).",
        "The second wave goes in 62.5% of the time (when the wave before it did not take it) "
        "and takes it 43.8% of the time.",
        "The two waves lose 2.3 and 1.9 IPC on average; expected IPC swing -1.6 for the attacker.",
    ]


@pytest.mark.parametrize(
    ("field", "name"),
    [("available.armor", "available.armor"), ("available", "available"), ("target", "target"),
     ("waves.0.units.infantry", "attacker.infantry"), ("waves.1.units.armor", "wave2.armor"),
     ("waves.1.units", "wave2"), ("waves.0.order.units", "order"), ("waves", "wave2"),
     ("attacker_order", "order"), ("policy.after_round", "retreat_at"),
     ("units.infantry", "attacker.infantry"), ("defender.armor", "defender.armor"),
     ("body", None), (None, None)],
)  # fmt: skip
def test_an_api_field_is_the_forms_input(field, name):
    assert ok("fieldInput", field) == name


def test_the_retreat_sentence():
    """After round 1, one infantry each: neither hits 20/36 (test_aa_questions_api.py)."""
    text = ok("retreatText", {"after_round": 1}, {"retreat": 20 / 36})
    assert text == (
        "Retreating after round 1, the attacker retreats 55.6% of the time (the odds above fight "
        "to the end)."
    )
    assert ok("retreatText", {"below_chance": 0.3}, {"retreat": 0}).startswith(
        "Retreating when its chance to win drops under 30%, the attacker retreats 0.0%"
    )
    assert ok("retreatText", {"below_units": 2}, {"retreat": 0.364}) == (
        "Retreating when fewer than 2 of its units are left, the attacker retreats 36.4% of the "
        "time (the odds above fight to the end)."
    )
    assert ok("retreatText", {"below_chance": 0.125}, {"retreat": 0}).startswith(
        "Retreating when its chance to win drops under 12.5%,"
    )
    assert ok("retreatText", None, {}) is None
