"""The calculator pages: each answers 200 with a labelled form that names its API and script.

The pages read no database (no db fixture here: a database read would fail the test). Every
form control has a <label for=...> or sits inside a <label>; no page loads an asset from another
host.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

PAGES = {
    "/calculators/aa": ("/api/combat/aa/odds", ["rules", "edition", "method", "attacker.infantry"]),
    "/calculators/risk": ("/api/combat/risk/odds", ["attackers", "defenders", "mode", "flanks"]),
    "/calculators/wif": ("/api/combat/wif/land", ["attack", "defense", "column", "drm"]),
    "/calculators/france-1944": (
        "/api/combat/france-1944",
        ["attack", "defense", "combat", "attacker_morale", "defender_morale", "attacking_units"],
    ),
}
ALL_PAGES = ["/", "/games", "/games/3", "/login", "/settings", "/account/reset", "/calculators/"]
ALL_PAGES += ["/rules", *PAGES]


RULE_TEXT_RUNS = Path(__file__).parent / "data" / "rule_text_runs.txt"


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def unlabelled_controls(html: str) -> list[str]:
    """Controls (input, select, textarea) with no <label for=id> and no enclosing <label>."""
    labelled = set(re.findall(r'<label[^>]*\bfor="([^"]+)"', html))
    outside = re.sub(r"<label\b.*?</label>", "", html, flags=re.S)  # drop wrapped controls
    bad = []
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", outside):
        if re.search(r'type="(hidden|submit|button)"', tag):
            continue
        ident = re.search(r'\bid="([^"]+)"', tag)
        if ident is None or ident.group(1) not in labelled:
            bad.append(tag)
    return bad


def test_the_routes_have_their_names():
    assert reverse("calculators") == "/calculators/"
    assert reverse("calc-aa") == "/calculators/aa"
    assert reverse("calc-risk") == "/calculators/risk"
    assert reverse("calc-wif") == "/calculators/wif"
    assert reverse("calc-france-1944") == "/calculators/france-1944"
    assert reverse("rules-page") == "/rules"


def test_the_index_links_every_calculator(client):
    html = page(client, "/calculators/")
    for path in PAGES:
        assert f'href="{path}"' in html


@pytest.mark.parametrize("path", PAGES)
def test_a_calculator_page_has_its_labelled_form(client, path):
    api, fields = PAGES[path]
    html = page(client, path)
    assert 'id="calc-form"' in html and f'data-api="{api}"' in html
    assert '<script type="module" src="/static/frontend/calc_page.js"></script>' in html
    assert '<script type="module" src="/static/frontend/whoami.js"></script>' in html
    for field in fields:
        assert f'name="{field}"' in html
    assert 'id="calc-share"' in html and 'aria-live="polite"' in html
    assert unlabelled_controls(html) == []


def test_the_aa_page_offers_every_rules_variant_and_unit(client):
    from combat.axis_allies.editions import available_editions, load_edition
    from combat.axis_allies.odds import METHODS
    from combat.axis_allies.rules import RULES

    html = page(client, "/calculators/aa")
    for key in RULES:
        assert f'<option value="{key}"' in html
    for key in METHODS:
        assert f'<option value="{key}"' in html
    for edition in available_editions():
        assert f'<option value="{edition}"' in html
        for unit in load_edition(edition).units:
            assert f'name="attacker.{unit}"' in html and f'name="defender.{unit}"' in html


@pytest.mark.parametrize("path", ALL_PAGES)
def test_no_page_loads_an_asset_from_another_host(client, path):
    html = page(client, path)
    urls = re.findall(r'\b(?:src|href|action)\s*=\s*["\']([^"\']*)', html)
    assert urls
    assert [u for u in urls if re.match(r"(?i)\s*(https?:)?//", u)] == []
    for asset in (u for u in urls if u.startswith("/static/")):
        assert client.get(asset).status_code == 200, asset


def test_the_nav_and_home_link_the_calculators_and_rules(client):
    for path in ("/", "/games"):
        html = page(client, path)
        assert 'href="/calculators/"' in html and 'href="/rules"' in html


def test_the_rules_page_covers_the_game_and_the_servers_readings(client):
    html = page(client, "/rules")
    assert "<title>Fast Risk rules - Warboard</title>" in html
    anchors = (
        "setup",
        "turn",
        "battles",
        "ships",
        "allies",
        "coming-going",
        "notation",
        "decisions",
    )
    for anchor in anchors:
        assert f'id="{anchor}"' in html and f'href="#{anchor}"' in html
    for word in ("Committed", "Flanking", "Mobilization bonus", "pirate", "poker", "R4)", "J6)"):
        assert word in html
    assert 'href="/calculators/risk"' in html
    assert "<form" not in html  # a text page: nothing to fill in


def test_the_rules_page_shows_the_notation_table_of_docs_notation_md(client):
    """Every row of docs/notation.md's table (49 examples), keywords in <code>, "\\|" as "|"."""
    html = page(client, "/rules")
    assert html.count("<tr><td>") == 49
    assert (
        "<tr><td>Place armies</td><td><code>place</code> n territory</td>"
        "<td><code>place 3 Alaska</code></td></tr>"
    ) in html
    turn_in = "<code>turn in</code> card card card [<code>for</code> <code>armies</code>|"
    assert turn_in in html
    assert "<td><code>flank Ukraine 6 + Ural 5 &gt; Afghanistan</code></td>" in html


def test_the_rules_page_is_in_the_projects_own_words():
    """No run of 12 words of the OCR'd rule text is copied onto the page. The rule text lives
    outside the repository, so the test compares against its fingerprint kept here
    (``data/rule_text_runs.txt``: a hash of every 12-word run), and runs on every machine."""
    from tests.conftest import ROOT

    runs = {line for line in RULE_TEXT_RUNS.read_text().splitlines() if not line.startswith("#")}
    assert len(runs) > 2000  # the whole text's runs, not an empty file
    template = ROOT / "frontend" / "templates" / "frontend" / "rules.html"
    ours = re.findall(r"[a-z0-9']+", re.sub(r"<[^>]+>", " ", template.read_text()).lower())
    copied = [" ".join(ours[i : i + 12]) for i in range(len(ours) - 11)]
    assert [run for run in copied if _run_hash(run) in runs] == []


def _run_hash(run: str) -> str:
    return hashlib.sha256(run.encode()).hexdigest()[:16]


@pytest.mark.parametrize("path", ALL_PAGES)
def test_every_form_control_of_every_page_has_a_label(client, path):
    assert unlabelled_controls(page(client, path)) == []


def test_the_label_check_finds_a_control_without_a_label():
    html = '<label for="a">A</label><input id="a"><label><input id="b"> B</label><select id="c">'
    assert unlabelled_controls(html) == ['<select id="c">']
    assert unlabelled_controls('<input type="hidden" name="x"><input id="d">') == ['<input id="d">']
