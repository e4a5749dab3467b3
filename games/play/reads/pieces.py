"""Reading the piece rows (``games.models.pieces``) for people: the board, own cards, statistics.

What each reader may see (risk/RULES.md "hidden information", ``risk.rules.views``):

- The board (territory holdings, ships) is public: anyone who may see the game
  (``access``) reads every row of it, as every view shows it.
- Cards: only one's own, the cards in the piles held by an army one plays now (its Risk hand
  and poker cards, and while a poker hand is played one's stash, hand and discards in it): the
  rows whose ``seat`` is the reader's. Never a deck's pile (their order is the secret the seed
  guards), never another seat's cards, whatever the filter. A player who left, or an allied
  army's player during an allied turn, sees no rows of that army's cards here (the view still
  shows the turn's player the ally's Risk hand it may turn in).

Every card query here starts from ``Card.objects.filter(seat__user=reader)``; the filters a
caller may add (game, kind) only narrow it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from games.models import Card, Game, Ship, TerritoryHolding
from games.play import access

HOLDING_FIELDS = ("territory", "owner", "armies", "factory", "captives")
SHIP_FIELDS = ("ship", "owner", "station", "armies", "captives")
CARD_FIELDS = ("kind", "pile", "holder", "position", "card")


def board(
    game: Game, *, owner: str | None = None, factory: bool | None = None
) -> dict[str, list[dict[str, Any]]]:
    """The public rows of a game the caller may see (checked by the caller, ``fetch.game_for``):
    its holdings and ships, each list in key order; ``owner`` keeps one army's, ``factory``
    the holdings with (or without) a factory."""
    holdings = TerritoryHolding.objects.filter(game=game)
    ships = Ship.objects.filter(game=game)
    if owner is not None:
        holdings, ships = holdings.filter(owner=owner), ships.filter(owner=owner)
    if factory is not None:
        holdings = holdings.filter(factory=factory)
    return {
        "holdings": list(holdings.order_by("territory").values(*HOLDING_FIELDS)),
        "ships": list(ships.order_by("ship").values(*SHIP_FIELDS)),
    }


def own_cards(user: Any, *, game: Game | None = None, kind: str | None = None) -> QuerySet[Card]:
    """The cards of the armies ``user`` plays now (none for a visitor): the one card query a
    view builds. ``game`` and ``kind`` only narrow it."""
    if not access.signed_in(user):
        return Card.objects.none()
    cards = Card.objects.filter(seat__user=user)
    if game is not None:
        cards = cards.filter(game=game)
    if kind is not None:
        cards = cards.filter(kind=kind)
    return cards.order_by("game", "kind", "pile", "holder", "position")


def mine(user: Any, *, game_id: int | None = None, kind: str | None = None) -> dict[str, Any]:
    """Everything ``user`` holds in their games (the armies they play now): territories,
    ships and cards, each row with its game; ``game_id`` keeps one game's, ``kind`` one
    deck's cards."""
    holdings = TerritoryHolding.objects.filter(seat__user=user)
    ships = Ship.objects.filter(seat__user=user)
    if game_id is not None:
        holdings, ships = holdings.filter(game_id=game_id), ships.filter(game_id=game_id)
    cards = own_cards(user, kind=kind)
    if game_id is not None:
        cards = cards.filter(game_id=game_id)
    return {
        "holdings": list(holdings.order_by("game", "territory").values("game", *HOLDING_FIELDS)),
        "ships": list(ships.order_by("game", "ship").values("game", *SHIP_FIELDS)),
        "cards": list(cards.values("game", *CARD_FIELDS)),
    }


# --- staff statistics ---------------------------------------------------------------------------


def tournament_games(tournament_id: int) -> QuerySet[Game]:
    """The games of a tournament's tables (through the table's link to its game)."""
    return Game.objects.filter(tournament_table__round__tournament_id=tournament_id)


def holdings_per_player(games: QuerySet[Game]) -> list[dict[str, Any]]:
    """For staff: per person (a user, or a bot seat's name), over ``games``, the territories,
    factories and armies they hold now, the ships they sail, and in how many of the games they
    hold a territory or a ship. Armies nobody plays (allied armies) are summed under "" (no
    player). Four SELECTs, whatever the number of games."""
    held = {
        row["seat__player"]: row
        for row in TerritoryHolding.objects.filter(game__in=games)
        .values("seat__player")
        .annotate(
            territories=Count("id"),
            factories=Count("id", filter=Q(factory=True)),
            armies=Sum("armies"),
        )
    }
    afloat = {
        row["seat__player"]: row
        for row in Ship.objects.filter(game__in=games)
        .values("seat__player")
        .annotate(ships=Count("id"), crews=Sum("armies"))
    }
    played: dict[str | None, set[int]] = {}
    for model in (TerritoryHolding, Ship):
        pairs = model.objects.filter(game__in=games).values_list("seat__player", "game")
        for player, game_id in pairs.distinct():
            played.setdefault(player, set()).add(game_id)
    rows = []
    for player in set(held) | set(afloat):
        land, sea = held.get(player, {}), afloat.get(player, {})
        rows.append({
            "player": player or "",
            "games": len(played.get(player, ())),
            "territories": land.get("territories", 0),
            "factories": land.get("factories", 0),
            "armies": (land.get("armies") or 0) + (sea.get("crews") or 0),
            "ships": sea.get("ships", 0),
        })  # fmt: skip
    return sorted(rows, key=lambda r: (-r["territories"], -r["factories"], r["player"]))
