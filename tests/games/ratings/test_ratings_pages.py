"""The ratings' reads: /api/ratings, /api/players/<username>/ratings, /leaderboard and
/players/<username> (with its SVG chart)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from frontend.rating_chart import HEIGHT, PAD, history_chart
from games.competition import glicko2_update
from games.ratings import rate
from tests.games.ratings.test_ratings import finished_game

pytestmark = pytest.mark.django_db


def two_results(alice, bob):
    t0 = timezone.now() - timedelta(days=2)
    rate.rate_game(finished_game([alice, bob], ["alice", "bob"], at=t0).pk)
    rate.rate_game(finished_game([alice, bob], ["alice", "bob"], at=t0 + timedelta(days=1)).pk)


def test_leaderboard_api(alice, bob):
    two_results(alice, bob)
    body = Client().get("/api/ratings?kind=fast_risk_2p").json()
    assert body["kind"] == "fast_risk_2p"
    assert [r["username"] for r in body["ratings"]] == ["alice", "bob"]
    assert [r["rank"] for r in body["ratings"]] == [1, 2]
    # Two games from 350: the RD is still far above 110, so provisional.
    assert body["ratings"][0]["provisional"] is True and body["ratings"][0]["games"] == 2
    assert Client().get("/api/ratings").json()["kind"] == "fast_risk_2p"
    assert Client().get("/api/ratings?kind=fast_risk_multi").json()["ratings"] == []
    bad = Client().get("/api/ratings?kind=chess")
    assert bad.status_code == 400 and bad.json()["field"] == "kind"


def test_player_api_history(alice, bob):
    two_results(alice, bob)
    body = Client().get("/api/players/alice/ratings").json()
    first = glicko2_update((1500.0, 350.0, 0.06), [(1500.0, 350.0, 1.0)])
    assert body["history"][0]["rating_before"] == 1500.0
    assert body["history"][0]["rating_after"] == first[0]
    assert len(body["history"]) == 2 and body["ratings"][0]["kind"] == "fast_risk_2p"
    missing = Client().get("/api/players/nobody/ratings")
    assert missing.status_code == 404 and missing.json()["field"] == "username"


def test_pages(alice, bob):
    two_results(alice, bob)
    board = Client().get("/leaderboard?kind=fast_risk_2p")
    assert board.status_code == 200
    text = board.content.decode()
    assert text.index("/players/alice") < text.index("/players/bob")
    assert 'title="provisional"' in text
    assert Client().get("/leaderboard?kind=chess").status_code == 404
    page = Client().get("/players/alice")
    assert page.status_code == 200
    assert (
        b"<polyline points=" in page.content
        and b"<script" not in page.content.split(b"<main")[1].split(b"</main>")[0]
    )
    assert Client().get("/players/nobody").status_code == 404


def test_chart_by_hand():
    chart = history_chart([1500.0, 1662.0, 1600.0])
    assert chart is not None
    # x from 24 to 536 in 2 steps of 256; the highest at y=24, the lowest at y=136.
    top, bottom = PAD, HEIGHT - PAD
    mid = top + (bottom - top) * (1662 - 1600) / 162
    assert chart.points == f"24.0,{bottom:.1f} 280.0,{top:.1f} 536.0,{mid:.1f}"
    assert (chart.low, chart.high) == (1500.0, 1662.0)
    assert history_chart([]) is None
    assert history_chart([1500.0]).points == "24.0,80.0 536.0,80.0"
