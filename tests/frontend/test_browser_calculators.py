"""Each calculator page, filled in and run in Chromium, shows the numbers its API answers.

The page is filled as a person would (labels, selects), submitted with its Calculate button,
and what it shows (the facts list and the chart's bars) is read back from the DOM. The same
input is posted to the API straight from the test (urllib, no page script involved), and the
page's numbers must be that answer, formatted as calc.js formats them (``pct``: two decimals
and %, ``num``: at most two decimals, a bar: one decimal and %). Values worked by hand, from the
rules, pin the API too.
"""

from __future__ import annotations

import json
import math
import urllib.request

import pytest
from playwright.sync_api import expect

from combat.axis_allies.rules import RULES

pytestmark = pytest.mark.browser

#: How long an expectation waits (ms): the browser tests share the machine with the suite.
LOADED = 30_000

#: The shown result, read from the DOM: the first facts list, and each chart's [label, %] bars.
READ = """() => {
  const dl = document.querySelector('#calc-result dl');
  const facts = {};
  const terms = [...dl.querySelectorAll('dt')];
  terms.forEach((dt) => { facts[dt.textContent] = dt.nextElementSibling.textContent; });
  const charts = [...document.querySelectorAll('#calc-result svg.chart')].map((svg) => {
    const texts = [...svg.querySelectorAll(':scope > text')].map((t) => t.textContent);
    const bars = [];
    for (let i = 0; i < texts.length; i += 2) bars.push([texts[i], texts[i + 1]]);
    return bars;
  });
  return { facts, charts };
}"""


def pct(p: float) -> str:
    """calc.js ``pct``: ``(100 * p).toFixed(2) + "%"``."""
    return f"{100 * p:.2f}%"


def num(x: float) -> str:
    """calc.js ``num``: ``Math.round(x * 100) / 100`` written as JavaScript writes a number."""
    value = math.floor(x * 100 + 0.5) / 100
    return str(int(value)) if value == int(value) else repr(value)


def bar(p: float) -> str:
    """calc.js ``barData``: one decimal, three below 0.1%."""
    return f"{100 * p:.{3 if 0 < p < 0.001 else 1}f}%"


def api(site, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        site.url + path, data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def calculate(page, fields: dict[str, str], selects: dict[str, str] | None = None) -> dict:
    """Fill the form by its labels, press Calculate, and read what the page shows."""
    for label, value in (selects or {}).items():
        page.get_by_label(label, exact=True).select_option(value)
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
    return page.evaluate(READ)


def aa_units(units: dict[str, int], side: str) -> dict[str, str]:
    fields = {f"{side} {unit}": "0" for unit in ("infantry", "armor")}
    return {**fields, **{f"{side} {unit}": str(n) for unit, n in units.items()}}


def assert_aa_page_matches(shown: dict, data: dict) -> None:
    facts = shown["facts"]
    assert facts["Attacker wins"] == pct(data["attacker_wins"])
    assert facts["Defender wins"] == pct(data["defender_wins"])
    assert facts["Both wiped out (draw)"] == pct(data["draw"])
    assert facts["Stalemate"] == pct(data["stalemate"])
    assert facts["Expected IPC swing (to the attacker)"] == num(data["expected_ipc_swing"])
    assert facts["Rules, edition, method"] == f"{data['rules']}, {data['edition']}, exact"
    survivors = data["expected_attacker_survivors"]
    assert facts["Attacker's expected survivors"] == (
        ", ".join(f"{num(v)} {k}" for k, v in survivors.items()) or "none"
    )
    who = ("attacker_wins", "defender_wins", "draw", "stalemate")
    assert [value for _, value in shown["charts"][0]] == [bar(data[key]) for key in who]
    likeliest = data["outcomes"][:15]
    assert [value for _, value in shown["charts"][1]] == [bar(o["probability"]) for o in likeliest]


def test_aa_dice_worked_by_hand(page, site):
    """One infantry attacks (hits on 1) one infantry defending (hits on 1-2), every unit rolls.
    A round: attacker hits only 1/6 * 4/6 = 4/36, defender only 5/6 * 2/6 = 10/36, both
    2/36, neither 20/36 (and again). So the attacker wins 4/16 = 25%, the defender 10/16 =
    62.5%, both die 2/16 = 12.5%."""
    page.goto("/calculators/aa")
    shown = calculate(page, {**aa_units({"infantry": 1}, "Attacking"),
                             **aa_units({"infantry": 1}, "Defending")})  # fmt: skip
    assert shown["facts"]["Attacker wins"] == "25.00%"
    assert shown["facts"]["Defender wins"] == "62.50%"
    assert shown["facts"]["Both wiped out (draw)"] == "12.50%"
    body = {"rules": "dice", "edition": "revised", "method": "exact",
            "attacker": {"infantry": 1}, "defender": {"infantry": 1}}  # fmt: skip
    assert_aa_page_matches(shown, api(site, "/api/combat/aa/odds", body))


@pytest.mark.parametrize("rules", list(RULES))
def test_aa_every_rules_variant_shows_the_apis_numbers(page, site, rules):
    """Dice, Low Luck and every A&A Chess variant the page offers (its <select> lists RULES)."""
    page.goto("/calculators/aa")
    expect(page.locator(f'#aa-rules option[value="{rules}"]')).to_have_count(1, timeout=LOADED)
    attack, defend = {"infantry": 3, "armor": 1}, {"infantry": 3}
    shown = calculate(page, {**aa_units(attack, "Attacking"), **aa_units(defend, "Defending")},
                      {"Rules": rules})  # fmt: skip
    body = {"rules": rules, "edition": "revised", "method": "exact",
            "attacker": attack, "defender": defend}  # fmt: skip
    assert_aa_page_matches(shown, api(site, "/api/combat/aa/odds", body))


def test_fast_risk_shows_the_apis_numbers(page, site):
    page.goto("/calculators/risk")
    shown = calculate(page, {"Attacking armies (the one left behind not counted)": "6",
                             "Defending armies": "4"})  # fmt: skip
    data = api(site, "/api/combat/risk/odds", {"attackers": 6, "defenders": 4, "mode": "normal"})
    facts = shown["facts"]
    assert facts["Attacker wins"] == pct(data["attacker_wins"])
    assert facts["Defender wins"] == pct(data["defender_wins"])
    assert facts["Expected attacker losses"] == num(data["expected_attacker_losses"])
    assert facts["Expected defender losses"] == num(data["expected_defender_losses"])
    assert facts["Expected armies captured"] == num(data["expected_captures"])
    assert facts["End states"].startswith(f"{data['outcomes_total']} in all")
    assert [v for _, v in shown["charts"][0]] == [bar(o["probability"]) for o in data["outcomes"]]
    # The attacker cannot win and lose: the two add up to one.
    assert data["attacker_wins"] + data["defender_wins"] == pytest.approx(1.0)


def test_world_in_flames_shows_the_apis_numbers_and_the_crt_worked_by_hand(page, site):
    """12 attack factors against 4 are 3:1, which the odds table gives +6 on the assault column.
    The roll is 2d10 (2 to 20) + 6. The lowest, 2 + 6 = 8 (1 way in 100), reads the assault
    column's row 8: "2/-". Row 9 (a 3: 2 ways) reads "x1/-". 17 to 20 (4+3+2+1 = 10 ways) make
    23 to 26, all read on the last row, 23: "*/2S". So 1%, 2% and 10%."""
    page.goto("/calculators/wif")
    shown = calculate(page, {"Attack factors": "12", "Defense factors": "4"},
                      {"Column": "assault"})  # fmt: skip
    data = api(site, "/api/combat/wif/land", {"attack": 12, "defense": 4, "column": "assault"})
    facts = shown["facts"]
    assert facts["Odds level"] == data["odds_level"] == "3:1"
    assert facts["Column"] == "assault"
    assert facts["Odds modifier"] == num(data["odds_drm"]) == "6"
    assert facts["Total die-roll modifier"] == num(data["total_drm"]) == "6"
    bars = dict(shown["charts"][0])
    assert bars == {code: bar(p) for code, p in data["distribution"].items()}
    assert (bars["2/-"], bars["x1/-"], bars["*/2S"]) == ("1.0%", "2.0%", "10.0%")


def test_france_1944_shows_the_apis_numbers(page, site):
    """6 against 3 is the 2-1 column; equal morale (3 and 3) and 2 attacking units (within the
    limit of 4 at morale 3) add nothing."""
    page.goto("/calculators/france-1944")
    shown = calculate(page, {"Attack strength": "6", "Defense strength": "3"})
    body = {"attack": 6, "defense": 3, "combat": "set-piece", "attacker_morale": 3,
            "defender_morale": 3, "attacking_units": 2, "terrain_morale": 0,
            "other_morale": 0}  # fmt: skip
    data = api(site, "/api/combat/france-1944", body)
    facts = shown["facts"]
    assert facts["Odds column"] == data["odds_level"] == "2-1"
    assert facts["Column read after shifts"] == data["column"]
    assert facts["Die-roll modifier"] == num(data["total_drm"]) == "0"
    assert dict(shown["charts"][0]) == {k: bar(p) for k, p in data["distribution"].items()}
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
