"""Ratings after rated games and rooms: load, call the pure math, save.

Decisions where the issue is silent:

- **The rated flag.** A game is created rated unless its creator says ``rated: false``; at the
  start (``lobby.game_start``) it stays rated only if every seat is a person, and is never
  changed after that. A bot seat at the start makes the game unrated for good. Later events do
  not: a person who leaves (or times out too often) hands their army to the AI but still
  stands in the result, ranked last (see below), as a resignation on lichess is still rated.
  A room is rated only if asked for at creation and it has exactly 2 sides (Glicko-2 is a
  one-to-one system); its sides are always people.
- **Who is rated.** A game's people are the persons seated at the start; a late-comer who
  took over an allied army mid-game is not rated for that game. Their order is the result's
  ``ranking`` (the rules engine's finishing order, strict); seats missing from the ranking (a
  player who left: their army became an allied army) share the last place. A game ended by an
  administrator (no ranking) is not rated. A draw (no winner, agreed by every player) ties
  everyone.
- **Kinds.** A 2-seat game is ``fast_risk_2p`` (Glicko-2: 1 win, 0 loss, 0.5 draw); 3-6
  seats ``fast_risk_multi`` (OpenSkill Plackett-Luce from the places); a room's kind is its
  system (Glicko-2; its winners score 1, the other side 0, no or both winners 0.5).
- **Inactivity.** Before a Glicko-2 update each player's RD grows over the days since their
  last rated game of that kind, as lichess does (``games.competition.inactivity``). The clock
  is the game's ``finished_at``, not the wall clock, so ``manage.py rerate`` reproduces the
  numbers exactly. OpenSkill's sigma does not grow (the library has no such step).
- **Once only.** A result is rated under its game's (or room's) row lock and only if it has no
  ``RatingChange`` yet, so a task run twice changes nothing. Results are rated when their task
  runs; ``rerate`` replays in ``finished_at`` order, so the two agree when tasks run in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from games.competition import glicko2_update, inactive_deviation, openskill_table
from games.competition import is_provisional as glicko_provisional
from games.competition.inactivity import MAX_DEVIATION
from games.competition.openskill_rating import DEFAULT_RATING
from games.models import Game, Rating, RatingChange, Room

#: A new Glicko-2 player: Glickman's 1500 / 350 / 0.06.
GLICKO_START = (1500.0, MAX_DEVIATION, 0.06)
GLICKO_KINDS = frozenset(
    {Rating.Kind.FAST_RISK_2P, Rating.Kind.AXIS_ALLIES, Rating.Kind.WIF, Rating.Kind.FRANCE_1944}
)
#: OpenSkill is provisional while sigma is above lichess's ratio 110/350 of the start.
OPENSKILL_PROVISIONAL_SIGMA = DEFAULT_RATING[1] * 110.0 / 350.0
SECONDS_PER_DAY = 86400.0
#: Game.Status.FINISHED and Room.Status.FINISHED alike.
FINISHED = "finished"


@dataclass(frozen=True)
class Entrant:
    """One person in a rated result: their place (1 best, equal places tie)."""

    user_id: int
    place: int


def is_provisional(kind: str, deviation: float) -> bool:
    """Shown with a "?" until the deviation is low enough (lichess's 110 for Glicko-2)."""
    if kind in GLICKO_KINDS:
        return glicko_provisional(deviation)
    return deviation > OPENSKILL_PROVISIONAL_SIGMA


def game_entrants(game: Game) -> list[Entrant]:
    """The game's people with their places from ``result``; [] when it cannot be rated."""
    result = game.result or {}
    ranking = result.get("ranking")
    if not ranking:
        return []
    # The people seated at the start (a late-comer's seat row comes after them).
    seats = [s for s in game.seats.all() if s.user_id is not None and s.position < game.seat_count]
    if result.get("winner") is None:
        return [Entrant(s.user_id, 1) for s in seats]  # an agreed draw
    last = len(ranking) + 1
    places = {player: i + 1 for i, player in enumerate(ranking)}
    return [Entrant(s.user_id, places.get(s.player, last)) for s in seats]


def room_entrants(room: Room) -> list[Entrant]:
    """A 2-sided room's people: the winners first; no or both winners, a draw."""
    winners = set((room.result or {}).get("winners") or [])
    sides = [s for s in room.sides.all() if s.user_id is not None]
    return [Entrant(s.user_id, 1 if s.name in winners or not winners else 2) for s in sides]


def game_kind(game: Game) -> str:
    return game_kind_for_seats(game.seat_count)


def game_kind_for_seats(seats: int) -> str:
    """Fast Risk's rating kind: Glicko-2 for 2 seats, OpenSkill for 3-6."""
    return Rating.Kind.FAST_RISK_2P if seats == 2 else Rating.Kind.FAST_RISK_MULTI


def rate_game(game_id: int) -> int:
    """Rate a finished rated game once; the number of players whose rating changed."""
    return _rate_once(Game, game_id, "game", lambda g: (game_kind(g), game_entrants(g)))


def rate_room(room_id: int) -> int:
    """Rate a finished rated room once; the number of players whose rating changed."""
    return _rate_once(Room, room_id, "room", lambda r: (r.system, room_entrants(r)))


def _rate_once(
    model: type[Game] | type[Room],
    pk: int,
    field: str,
    read: Callable[[Any], tuple[str, list[Entrant]]],
) -> int:
    """Under the row's lock: a finished rated result without rating changes yet is rated."""
    with transaction.atomic():
        row = model.objects.select_for_update().get(pk=pk)
        if not row.rated or row.status != FINISHED or row.finished_at is None:
            return 0
        if RatingChange.objects.filter(**{field: row}).exists():
            return 0
        kind, entrants = read(row)
        return _apply(kind, entrants, row.finished_at, {field: row})


def _apply(kind: str, entrants: Sequence[Entrant], at: datetime, source: dict[str, Any]) -> int:
    if len(entrants) < 2 or len({e.user_id for e in entrants}) != len(entrants):
        return 0
    ids = sorted(e.user_id for e in entrants)
    current = {
        r.user_id: r for r in Rating.objects.select_for_update().filter(kind=kind, user_id__in=ids)
    }
    ratings = [current.get(e.user_id) or _new_rating(e.user_id, kind, at) for e in entrants]
    if kind in GLICKO_KINDS:
        before, after = _glicko(ratings, entrants, at)
    else:
        before, after = _openskill(ratings, entrants)
    changes = []
    for rating, (r0, d0), (r1, d1, v1) in zip(ratings, before, after, strict=True):
        changes.append(
            RatingChange(
                user_id=rating.user_id,
                kind=kind,
                rating_before=r0,
                deviation_before=d0,
                rating_after=r1,
                deviation_after=d1,
                volatility_after=v1,
                at=at,
                **source,
            )
        )
        rating.rating, rating.deviation, rating.volatility = r1, d1, v1
        rating.games += 1
        rating.last_played = at
        rating.save()
    RatingChange.objects.bulk_create(changes)
    return len(changes)


def _new_rating(user_id: int, kind: str, at: datetime) -> Rating:
    if kind in GLICKO_KINDS:
        rating, rd, vol = GLICKO_START
    else:
        (rating, rd), vol = DEFAULT_RATING, 0.0
    return Rating(user_id=user_id, kind=kind, rating=rating, deviation=rd, volatility=vol,
                  games=0, last_played=at)  # fmt: skip


def _glicko(
    ratings: Sequence[Rating], entrants: Sequence[Entrant], at: datetime
) -> tuple[list[tuple[float, float]], list[tuple[float, float, float]]]:
    """Each against the other, with the RDs first grown over the idle days."""
    grown = [
        inactive_deviation(r.deviation, r.volatility, _days(r.last_played, at)) for r in ratings
    ]
    before = [(r.rating, d) for r, d in zip(ratings, grown, strict=True)]
    after = []
    for i, (rating, entrant) in enumerate(zip(ratings, entrants, strict=True)):
        results = [
            (ratings[j].rating, grown[j], _score(entrant.place, entrants[j].place))
            for j in range(len(ratings))
            if j != i
        ]
        after.append(glicko2_update((rating.rating, grown[i], rating.volatility), results))
    return before, after


def _openskill(
    ratings: Sequence[Rating], entrants: Sequence[Entrant]
) -> tuple[list[tuple[float, float]], list[tuple[float, float, float]]]:
    before = [(r.rating, r.deviation) for r in ratings]
    new = openskill_table(before, [e.place for e in entrants])
    return before, [(mu, sigma, 0.0) for mu, sigma in new]


def _score(place: int, other: int) -> float:
    return 1.0 if place < other else 0.0 if place > other else 0.5


def _days(since: datetime, until: datetime) -> float:
    return max(0.0, (until - since).total_seconds() / SECONDS_PER_DAY)


def rerate() -> int:
    """Wipe every rating and replay every finished rated game and room in finish order (ties
    by kind and id); the number of results rated. One transaction: all or nothing."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        games = Game.objects.filter(rated=True, status=Game.Status.FINISHED)
        rooms = Room.objects.filter(rated=True, status=Room.Status.FINISHED)
        order: list[tuple[datetime, str, int]] = [
            (at, "game", pk) for pk, at in games.values_list("pk", "finished_at") if at
        ] + [(at, "room", pk) for pk, at in rooms.values_list("pk", "finished_at") if at]
        rated = 0
        for _at, what, pk in sorted(order):
            changed = rate_game(pk) if what == "game" else rate_room(pk)
            rated += 1 if changed else 0
    return rated
