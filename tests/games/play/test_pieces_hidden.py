"""Hidden information stays hidden in the piece rows: no card row of a hand, a stash or a deck
reaches anyone but its holder while the game runs, through the admin or the API.

The reading decided (``games.play.admin``, ``games.play.reads.pieces``): the board's rows
(holdings, ships) are public, for staff in the admin and for whoever may see the game in the
API. Card rows: over the API a player gets their own cards only, whatever the filters; others
(players, staff, visitors) get none. In the admin staff see no card row of a game that is not
over (no list, search, filter, ordering, inline or change page reaches one); a finished game's
cards are listed, as its seed and log are public then.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Card, Game, TerritoryHolding
from games.play import operations
from games.play.reads import fetch
from tests.games.conftest import PASSWORD, client_for, make_user
from tests.games.helpers import play_out, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob) -> Game:
    """A running game of alice, bob and a bot, into its second round: hands dealt, cards drawn
    and turned in."""
    game = start_game(alice, 3, others=[bob])
    return play_out(game, [alice, bob], until=lambda g, s: s.round > 1)


@pytest.fixture
def staff(db) -> Client:
    root = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    return client


def alices_cards(game: Game) -> list[Card]:
    cards = list(Card.objects.filter(game=game, holder="alice"))
    assert cards  # she holds some, so a leak would show
    return cards


# --- the admin ----------------------------------------------------------------------------------


def changelist(**params: str) -> str:
    return reverse("admin:games_card_changelist") + ("?" + urlencode(params) if params else "")


def result_count(response) -> str:
    assert response.status_code == 200
    return re.findall(r'class="paginator">\s*([^<]*?)\s*<', response.content.decode())[0]


def test_staff_find_no_card_row_of_a_running_game_whatever_they_ask(staff, game):
    card = alices_cards(game)[0]
    asked = [
        {},
        {"kind__exact": "risk"},
        {"kind__exact": "poker"},
        {"pile": "hand"},
        {"pile": "draw"},
        {"pile": "discard"},
        {"q": str(game.pk)},
        {"q": "alice"},
        {"q": card.card},
        *({"o": str(column)} for column in range(1, 7)),
        *({"o": f"-{column}"} for column in range(1, 7)),
    ]
    for params in asked:
        assert result_count(staff.get(changelist(**params))) == "0 cards", params


LOOKUPS = ["card", "card__startswith", "card__in", "position", "holder", "seat__player", "game",
           "game__id__exact", "seat__user__username", "kind__startswith"]  # fmt: skip


def test_a_lookup_the_card_admin_does_not_declare_is_a_400(staff, game):
    card = alices_cards(game)[0].card
    for lookup in LOOKUPS:
        value = card if lookup.startswith("card") else "alice"
        assert staff.get(changelist(**{lookup: value})).status_code == 400, lookup


def test_the_change_page_of_a_running_games_card_is_not_found(staff, game):
    for card in alices_cards(game):
        response = staff.get(reverse("admin:games_card_change", args=[card.pk]))
        assert response.status_code == 302  # "doesn't exist. Perhaps it was deleted?"
        # The page it lands on (the admin's index) names no card: no element holds one
        # ("As" alone inside a tag; the two letters occur in ordinary words of the page).
        landed = staff.get(response.url).content.decode()
        assert re.search(rf">\s*{re.escape(card.card)}\s*<", landed) is None


RELATED = [("games_game", "cards__card"), ("games_seat", "cards__card__startswith"),
           ("games_territoryholding", "game__cards__card"), ("games_ship", "game__cards__pile"),
           ("games_game", "cards__position")]  # fmt: skip


def test_no_other_changelist_reaches_the_cards_through_a_relation(staff, game):
    value = alices_cards(game)[0].card
    for admin_name, lookup in RELATED:
        url = reverse(f"admin:{admin_name}_changelist") + "?" + urlencode({lookup: value})
        assert staff.get(url).status_code == 400, (admin_name, lookup)


def test_the_game_page_shows_the_board_as_rows_and_its_cards_only_once_it_is_over(staff, game):
    page = reverse("admin:games_game_change", args=[game.pk])
    html = staff.get(page).content.decode().lower()
    holding = TerritoryHolding.objects.filter(game=game).order_by("territory").first()
    assert "territories (the board)" in html and "ships afloat" in html
    assert holding.territory.lower() in html
    assert "cards (where they ended)" not in html

    operations.game_end(game, "over")
    html = staff.get(page).content.decode().lower()
    assert "cards (where they ended)" in html
    assert result_count(staff.get(changelist())) == f"{Card.objects.count()} cards"
    card = alices_cards(game)[0]
    shown = staff.get(reverse("admin:games_card_change", args=[card.pk]))
    assert shown.status_code == 200 and card.card in shown.content.decode()


def test_a_player_gets_no_admin_page_at_all(game, bob):
    client = Client()
    client.force_login(bob)
    for name in ("games_card", "games_territoryholding", "games_ship"):
        response = client.get(reverse(f"admin:{name}_changelist"))
        assert response.status_code == 302 and "/login/" in response.url


# --- the API ------------------------------------------------------------------------------------

FILTERS = [
    {},
    {"kind": "risk"},
    {"kind": "poker"},
    {"owner": "alice"},
    {"owner": "bob"},
    {"factory": "true"},
    {"factory": "false"},
    {"owner": "alice", "kind": "risk", "factory": "false"},
]


def pieces(client, game: Game, **params: str) -> dict:
    response = client.get(f"/api/games/{game.pk}/pieces", params)
    assert response.status_code == 200, response.content
    return response.json()


def own(game: Game, holder: str, kind: str | None = None) -> list[dict]:
    cards = Card.objects.filter(game=game, holder=holder)
    if kind is not None:
        cards = cards.filter(kind=kind)
    return list(
        cards.order_by("kind", "pile", "position").values(
            "kind", "pile", "holder", "position", "card"
        )
    )


def test_a_player_gets_their_own_cards_and_the_whole_board(game, alice):
    state = fetch.game_state(game)
    body = pieces(client_for(alice), game)
    assert body["cards"] == own(game, "alice")
    hand = [c["card"] for c in body["cards"] if (c["kind"], c["pile"]) == ("risk", "hand")]
    assert hand == state.seat("alice").risk_cards
    assert [h["territory"] for h in body["holdings"]] == sorted(state.territories)
    assert {s["ship"] for s in body["ships"]} == set(state.ships)
    assert pieces(client_for(alice), game, kind="poker")["cards"] == own(game, "alice", "poker")


def test_no_filter_shows_anyone_cards_but_their_own(game, alice, bob):
    """Whatever the filters, bob sees his own cards and no one else's; staff who sit at no
    seat and visitors see none; the board rows are the same for everyone."""
    root = make_user("root", is_staff=True, is_superuser=True)
    readers = {"bob": client_for(bob), "root": client_for(root), "visitor": client_for(None)}
    readers["visitor"].force_authenticate(None)
    for params in FILTERS:
        board = pieces(client_for(alice), game, **params)
        for name, client in readers.items():
            body = pieces(client, game, **params)
            expected = own(game, "bob", params.get("kind")) if name == "bob" else []
            assert body["cards"] == expected, (name, params)
            assert all(card["holder"] != "alice" for card in body["cards"])
            assert (body["holdings"], body["ships"]) == (board["holdings"], board["ships"])
        if "owner" in params:
            assert {h["owner"] for h in board["holdings"]} <= {params["owner"]}


def test_my_pieces_are_only_my_own(game, alice, bob):
    mine = set(
        TerritoryHolding.objects.filter(game=game, seat__user=bob).values_list(
            "territory", flat=True
        )
    )
    assert mine
    for params in [{}, {"kind": "risk"}, {"kind": "poker"}, {"game": str(game.pk)}]:
        response = client_for(bob).get("/api/me/pieces", params)
        assert response.status_code == 200
        body = response.json()
        assert {h["territory"] for h in body["holdings"]} == mine
        assert {card["holder"] for card in body["cards"]} <= {"bob"}
        assert [{k: v for k, v in c.items() if k != "game"} for c in body["cards"]] == own(
            game, "bob", params.get("kind")
        )
    nothing = client_for(bob).get("/api/me/pieces", {"game": "0"}).json()
    assert nothing == {"holdings": [], "ships": [], "cards": []}


def test_a_visitor_has_no_pieces_of_their_own(db):
    client = client_for(None)
    client.force_authenticate(None)
    assert client.get("/api/me/pieces").status_code in (401, 403)


def test_a_private_game_s_pieces_are_hidden_as_a_missing_game(alice, bob):
    game = start_game(alice, 2, others=[bob])
    Game.objects.filter(pk=game.pk).update(public=False)
    stranger = client_for(make_user("mallory"))
    assert stranger.get(f"/api/games/{game.pk}/pieces").status_code == 404
    invited = stranger.get(f"/api/games/{game.pk}/pieces", {"invite": game.invite_token})
    assert invited.status_code == 200 and invited.json()["cards"] == []
    assert pieces(client_for(bob), game)["cards"] == own(game, "bob")


@pytest.mark.parametrize(
    "query",
    ["kind=spades", "factory=yes", "owner=", "owner=alice&owner=bob", "kind=risk&kind=poker",
     "owner=" + "x" * 151],
)  # fmt: skip
def test_a_malformed_filter_is_a_400_naming_it(alice, bob, query):
    game = start_game(alice, 2, others=[bob])
    response = client_for(alice).get(f"/api/games/{game.pk}/pieces?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == query.split("=")[0]


@pytest.mark.parametrize("query", ["game=abc", "game=1.0", "kind=wild", "game=1&game=2"])
def test_a_malformed_filter_of_my_pieces_is_a_400(alice, query):
    response = client_for(alice).get(f"/api/me/pieces?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == query.split("=")[0]
