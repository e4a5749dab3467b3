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
             "explainAA", "unitsText", "riskOutcomeText"]  # fmt: skip


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
    """The form's controls as the script reads them: [[name, value]] and {name: type}."""
    values: list[list[object]] = []
    types: dict[str, str] = {}
    for tag in re.findall(r"<(?:input|textarea)\b[^>]*>", html):
        name = re.search(r'\bname="([^"]+)"', tag)
        if name is None:
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
        values.append([name, re.search(r'<option value="([^"]+)" selected', options)[1]])
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
