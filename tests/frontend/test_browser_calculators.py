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

from combat.axis_allies.editions import load_edition
from combat.axis_allies.rules import RULES
from frontend.views import AA_RULES
from tests.frontend.a11y import audit, tab_walk

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


def unit_names(site, edition: str) -> list[str]:
    """The edition's units in its data file's order, from GET /api/combat/aa/editions."""
    with urllib.request.urlopen(site.url + "/api/combat/aa/editions", timeout=60) as response:
        editions = json.loads(response.read())["editions"]
    return next([u["name"] for u in e["units"]] for e in editions if e["key"] == edition)


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
    # The rules and the edition as the form's lists name them, not their keys.
    assert facts["Rules"] == dict(AA_RULES)[data["rules"]]
    assert facts["Edition"] == load_edition(data["edition"]).name
    assert facts["Method"] == "exact"
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


#: The page's swing chart (the last chart): [label, %] of each bar.
SWING = """() => {
  const svgs = [...document.querySelectorAll('#calc-result svg.chart')];
  const last = svgs[svgs.length - 1];
  const texts = [...last.querySelectorAll(':scope > text')].map((t) => t.textContent);
  const bars = [];
  for (let i = 0; i < texts.length; i += 2) bars.push([texts[i], texts[i + 1]]);
  return bars;
}"""


def test_aa_1942_second_edition_on_a_phone_answers_in_words_and_the_link_restores_it(page, site):
    """On a 375 px phone: pick 1942 2E (its cruiser appears, Global 1940's mech infantry does
    not), one infantry attacks one. Worked by hand (as test_aa_dice_worked_by_hand): the
    attacker takes it 4/16 = 25.0%, holds 10/16 + 2/16 (both die) = 75%. The IPC swing (an
    infantry is 3 IPC): -3 with 10/16, 0 with 2/16, +3 with 4/16; mean -18/16 = -1.125."""
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto("/calculators/aa")
    expect(page.locator("#aa-att-mech_infantry")).to_be_hidden(timeout=LOADED)
    expect(page.locator("#aa-att-infantry")).to_be_visible()
    page.get_by_label("Edition").select_option("1942-2e")
    expect(page.get_by_label("Attacking cruiser", exact=True)).to_be_visible()
    expect(page.locator("#aa-att-mech_infantry")).to_be_hidden()
    expect(page.locator("#aa-att-mech_infantry")).to_be_disabled()
    calculate(page, {**aa_units({"infantry": 1}, "Attacking"),
                     **aa_units({"infantry": 1}, "Defending")})  # fmt: skip
    sentence = (
        "The attacker takes the territory 25.0% of the time; expected IPC swing -1.1 for the "
        "attacker."
    )
    expect(page.locator("#aa-answer")).to_have_text(sentence)
    expect(page.locator("#calc-result")).to_contain_text("The defender holds 75.0% of the time.")
    assert page.evaluate(SWING) == [["-3 IPC", "62.5%"], ["0 IPC", "12.5%"], ["+3 IPC", "25.0%"]]
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    shared = page.locator("#calc-share").get_attribute("href")
    assert "edition=1942-2e" in shared and "attacker.infantry=1" in shared
    page.goto(shared)  # a new load of the shared link fills the form and runs it
    expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
    expect(page.get_by_label("Edition")).to_have_value("1942-2e")
    expect(page.get_by_label("Attacking infantry", exact=True)).to_have_value("1")
    expect(page.get_by_label("Attacking armor", exact=True)).to_have_value("0")
    expect(page.get_by_label("Defending infantry", exact=True)).to_have_value("1")
    expect(page.get_by_label("Attacking cruiser", exact=True)).to_be_visible()
    expect(page.locator("#aa-answer")).to_have_text(sentence)

    # Global 1940 2E: its mechanized infantry and tactical bomber appear, each with its values.
    page.get_by_label("Edition").select_option("global-1940-2e")
    mech = page.get_by_label("Attacking mech_infantry", exact=True)
    expect(mech).to_be_visible()
    assert mech.get_attribute("title") == "land, attack 1, defense 2, 4 IPC"
    expect(page.get_by_label("Attacking tactical_bomber", exact=True)).to_be_visible()


def force_text(force: dict[str, int], order: list[str]) -> str:
    """calc.js ``forceText``: the units in the edition's order, "2 infantry, 1 armor"."""
    return ", ".join(f"{force[n]} {n.replace('_', ' ')}" for n in order if force.get(n))


def p1(x: float) -> str:
    """calc.js answers' percentages: one decimal and %."""
    return f"{100 * x:.1f}%"


def ipc1(x: float) -> str:
    return "0.0" if abs(x) < 0.05 else f"{x:.1f}"


#: The sentences of the A&A answers, by id.
ANSWERS = """() => Object.fromEntries(['aa-answer', 'aa-order-check', 'aa-cheapest', 'aa-waves']
  .map((id) => [id, document.getElementById(id)?.innerText.trim() ?? null]))"""


def test_aa_cheapest_force_second_wave_and_order_on_a_phone_match_the_api(page, site):
    """On a 375 px phone: 2 infantry and an armor attack 2 infantry, losing the armor first
    (armor, infantry) and keeping one land unit to the end. The cheapest force from 4 infantry,
    2 artillery and 2 armor that takes the territory at least 85% of the time, and a second
    wave of 1 infantry and 1 armor, are answered in sentences whose numbers are the API's for
    the same requests; the order check warns in words. The shared link restores it all."""
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto("/calculators/aa")
    expect(page.locator("#aa-att-mech_infantry")).to_be_hidden(timeout=LOADED)
    attack, defend = {"infantry": 2, "armor": 1}, {"infantry": 2}
    for label, value in {**aa_units(attack, "Attacking"), **aa_units(defend, "Defending")}.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_label("The attacker's order of loss, first lost first").fill("Armor, infantry")
    page.get_by_label("Keep one land unit to the end (so a win takes the territory)").check()
    page.get_by_text("The cheapest force (optional)").click()  # opens its part of the form
    page.get_by_label("Chance to reach (%)").fill("85")
    pool = {"infantry": 4, "artillery": 2, "armor": 2}
    for unit, n in pool.items():
        page.get_by_label(f"Available {unit}", exact=True).fill(str(n))
    page.get_by_text("A second wave (optional)").click()
    wave2 = {"infantry": 1, "armor": 1}
    for unit, n in wave2.items():
        page.get_by_label(f"Second wave {unit}", exact=True).fill(str(n))
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
    shown = page.evaluate(ANSWERS)

    order = {"units": ["armor", "infantry"], "keep_one_land": True, "keep_capital_ship": False}
    cheapest = api(site, "/api/combat/aa/cheapest", {
        "defender": defend, "available": pool, "target": 0.85, "measure": "take", "by": "ipc",
        "rules": "dice", "edition": "revised", "attacker_order": order, "amphibious": False,
    })  # fmt: skip
    assert cheapest["found"] and cheapest["chance"] >= 0.85
    units = unit_names(site, "revised")
    assert shown["aa-cheapest"] == (
        "The cheapest force that takes the territory at least 85% of the time: "
        f"{force_text(cheapest['force'], units)} \u2014 {cheapest['cost']} IPC, "
        f"{cheapest['units']} units; it takes it {p1(cheapest['chance'])} of the time."
    )
    waves = api(site, "/api/combat/aa/waves", {
        "defender": defend, "rules": "dice", "edition": "revised",
        "waves": [{"units": attack, "amphibious": False, "order": order, "policy": None},
                  {"units": wave2, "order": order}],
    })  # fmt: skip
    first, second = waves["waves"]
    assert shown["aa-waves"].split("\n\n") == [
        f"With a second wave, the attacker takes the territory {p1(waves['take'])} of the time "
        f"(the first wave alone: {p1(first['take'])}).",
        f"The second wave goes in {p1(second['fights'])} of the time (when the wave before it "
        f"did not take it) and takes it {p1(second['take'])} of the time.",
        f"The two waves lose {ipc1(first['expected_attacker_loss'])} and "
        f"{ipc1(second['expected_attacker_loss'])} IPC on average; expected IPC swing "
        f"{'+' if waves['expected_swing'] >= 0.05 else ''}{ipc1(waves['expected_swing'])} for "
        "the attacker.",
    ]
    # The first wave is the battle the take answer is about: the same chance to take it.
    take = api(site, "/api/combat/aa/take", {"attacker": attack, "defender": defend,
                                            "attacker_order": order})  # fmt: skip
    assert first["take"] == pytest.approx(take["take"])
    assert shown["aa-answer"].startswith(f"The attacker takes the territory {p1(take['take'])}")
    assert shown["aa-order-check"] == (
        "About your order of loss:\n\nArmor (attacks at 3) is lost before infantry (attacks at 1)."
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375

    shared = page.locator("#calc-share").get_attribute("href")
    for part in ("available.infantry=4", "wave2.armor=1", "target=85", "keep_land=true",
                 "order=Armor%2C+infantry"):  # fmt: skip
        assert part in shared, shared
    page.goto(shared)  # a new load of the link fills the form, opens its parts and runs it
    expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
    expect(page.get_by_label("Available artillery", exact=True)).to_be_visible()
    expect(page.get_by_label("Available artillery", exact=True)).to_have_value("2")
    expect(page.get_by_label("Second wave armor", exact=True)).to_have_value("1")
    expect(page.get_by_label("Chance to reach (%)")).to_have_value("85")
    expect(page.get_by_label("Keep one land unit to the end", exact=False)).to_be_checked()
    assert page.evaluate(ANSWERS) == shown
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375


def test_aa_a_refusal_is_shown_next_to_the_field_it_names(page, site):
    """A unit the edition does not have in the order of loss is caught on the page; the
    retreat's round must be given; the API's refusal of the cheapest force's pool (too many
    combinations to search) is shown next to the pool, the other answers still given."""
    page.goto("/calculators/aa")
    expect(page.locator("#aa-att-mech_infantry")).to_be_hidden(timeout=LOADED)
    order = page.get_by_label("The attacker's order of loss, first lost first")
    order.fill("infantry, tanks")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#calc-status")).to_have_text("Check the field marked in the form.")
    expect(order).to_have_attribute("aria-invalid", "true")
    names = ", ".join(n.replace("_", " ") for n in unit_names(site, "revised"))
    expect(page.locator("#aa-order-error")).to_have_text(
        f'"tanks" is not a unit of this edition (its units: {names})'
    )
    order.fill("infantry, armor")
    page.get_by_label("The attacker retreats (take, swing, waves)").select_option("after_round")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#aa-retreat-at-error")).to_have_text("Give the number for the retreat")
    page.get_by_label("Retreat after round (N)").fill("2")
    page.get_by_text("The cheapest force (optional)").click()
    for unit in ("infantry", "artillery", "armor", "fighter", "bomber"):
        page.get_by_label(f"Available {unit}", exact=True).fill("12")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
    expect(page.locator("#aa-order-error, #aa-retreat-at-error")).to_have_count(0)
    error = page.locator("#aa-avail-infantry-error")
    expect(error).to_contain_text("Too many combinations to search")
    expect(page.get_by_label("Available infantry", exact=True)).to_have_attribute(
        "aria-invalid", "true"
    )
    expect(page.locator("#calc-result")).to_contain_text("The cheapest force not answered:")
    expect(page.locator("#aa-answer")).to_contain_text("The attacker takes the territory")
    expect(page.locator("#calc-result")).to_contain_text(
        "Retreating after round 2, the attacker retreats"
    )
    # Keyboard use with the optional parts open: every input named by its label, Tab reaches
    # each one in order with a visible focus ring.
    page.get_by_text("A second wave (optional)").click()
    found = audit(page)
    assert found["unnamed"] == [], found
    walk = tab_walk(page)
    assert walk["missed"] == [] and walk["no_indicator"] == [], walk
    assert walk["order"] == sorted(walk["order"])
