"""Results: a table's game or room ends (or staff enter a result, or a player leaves), its
places and points are written, and a complete round pairs the next or names the champion.

Rules stated here:

- **A game's places** come from its ``ranking`` (the engine's finishing order); a seat missing
  from it (its army became an allied army) shares the last place. An agreed draw ties everyone.
  A game ended by an administrator has no ranking: the table waits for staff to enter one.
- **A room's** winners take 1st place and the other side 2nd; no winner, or both, is a draw.
- **1 v 1 points**: 1 for the better place, 0 for the worse, 0.5 each when tied.
  **Table points**: the tournament's points table by place, tied places sharing
  (``games.competition.points``); territories held at the end of the game are recorded as the
  tie-break.
- **A player who withdraws or is removed** (``resolve_leaver``) loses their unfinished 1 v 1
  game by forfeit: a Fast Risk game is ended by the staff, a room is decided for the opponent by
  its referee (the tournament's creator), so a rated room counts as a resignation would. At a
  multiplayer table the game plays on with the AI in their seat (when the rules let it take
  over at once; otherwise their own clock runs on), and they are placed last at that table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.models import (
    Game,
    Room,
    Seat,
    Tournament,
    TournamentEntrant,
    TournamentTable,
)
from games.play import operations, snapshots
from games.rooms import journal
from games.tournaments import access, pairing, reading, scoring
from games.tournaments.log import logged
from games.web.exceptions import ApplicationError, ConflictError, NotFoundError


def record_game(game_id: int) -> bool:
    """The table of a finished tournament game takes its result; True if written."""
    with transaction.atomic():
        table = TournamentTable.objects.filter(game_id=game_id).select_related("round").first()
        if table is None:
            return False
        tournament = access.locked(table.round.tournament_id)
        table.refresh_from_db()
        game = Game.objects.get(pk=game_id)
        if table.done or game.status != Game.Status.FINISHED:
            return False
        places, territories = game_places(game, table)
        if places is None:
            logged(tournament, None, "needs_result", table=table.pk, game=game_id,
                   reason=(game.result or {}).get("reason", ""))  # fmt: skip
            return False
        scoring.score(tournament, table, places, outcome=TournamentTable.Outcome.PLAYED,
              territories=territories)  # fmt: skip
        pairing.after_table(tournament)
        return True


def game_places(game: Game, table: TournamentTable) -> tuple[list[int] | None, list[int]]:
    """Places by seat position from the game's ranking (seats that left the tournament last),
    and the territories each seat held at the end."""
    result = game.result or {}
    ranking = result.get("ranking")
    seats = {s.position: s for s in Seat.objects.filter(game=game)}
    state = snapshots.load_if_started(game)
    held = {
        pos: sum(1 for t in state.territories.values() if t.owner == seat.player) if state else 0
        for pos, seat in seats.items()
    }
    table_seats = sorted(table.seats.all(), key=lambda s: s.position)
    territories = [held.get(s.position, 0) for s in table_seats]
    if not ranking:
        return None, territories
    if result.get("winner") is None:
        game_place = {s.position: 1 for s in table_seats}  # an agreed draw
    else:
        order = {player: i + 1 for i, player in enumerate(ranking)}
        last = len(ranking) + 1
        game_place = {s.position: order.get(seats[s.position].player, last) for s in table_seats}
    keys = [(s.left, game_place[s.position]) for s in table_seats]
    return scoring.competition_places(keys), territories


def record_room(room_id: int) -> bool:
    """The table of a finished tournament room takes its result; True if written."""
    with transaction.atomic():
        table = TournamentTable.objects.filter(room_id=room_id).select_related("round").first()
        if table is None:
            return False
        tournament = access.locked(table.round.tournament_id)
        table.refresh_from_db()
        room = Room.objects.get(pk=room_id)
        if table.done or room.status != Room.Status.FINISHED:
            return False
        winners = set((room.result or {}).get("winners") or [])
        sides = {s.position: s.name for s in room.sides.all()}
        positions = sorted(s.position for s in table.seats.all())
        won = [sides[p] in winners for p in positions]
        places = [1 if w or not any(won) or all(won) else 2 for w in won]
        scoring.score(tournament, table, places, outcome=TournamentTable.Outcome.PLAYED)
        pairing.after_table(tournament)
        return True


def enter_result(
    *,
    actor: Any,
    tournament_id: int,
    table_id: int,
    places: Sequence[int],
    territories: Sequence[int] | None = None,
    reason: str = "",
) -> TournamentTable:
    """Staff enter a table's result (places by seat position, 1 best, ties allowed): an
    adjudication, or the result of a game that ended without one. A game still running is ended;
    a room still running is decided by its referee from these places."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        table = (
            TournamentTable.objects.filter(pk=table_id, round__tournament=tournament)
            .select_related("game", "room")
            .first()
        )
        if table is None:
            raise NotFoundError("no such table in this tournament", field="table")
        if table.done:
            raise ConflictError("the table has its result already", code="table_done")
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        places = _checked_places(places, len(seats))
        if territories is not None:
            if len(territories) != len(seats) or any(
                not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= 200
                for t in territories
            ):
                raise ApplicationError(f"{len(seats)} counts of 0-200", field="territories")
        elif table.game is not None:
            territories = game_places(table.game, table)[1]
        scoring.score(tournament, table, places, outcome=TournamentTable.Outcome.ENTERED,
              territories=territories)  # fmt: skip
        logged(tournament, actor, "result_entered", table=table.pk, places=list(places),
               reason=reason.strip()[:200])  # fmt: skip
        _close_play(tournament, table, places)
        pairing.after_table(tournament)
        return table


def _checked_places(places: Sequence[int], seats: int) -> list[int]:
    if not isinstance(places, list | tuple) or len(places) != seats:
        raise ApplicationError(f"one place for each of the {seats} seats", field="places")
    for i, p in enumerate(places):
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= seats:
            raise ApplicationError(f"a place 1-{seats}", field=f"places.{i}")
    if scoring.competition_places([(p,) for p in places]) != list(places):
        raise ApplicationError("places rank as 1, 2, 2, 4: tied places skip the next",
                               field="places")  # fmt: skip
    return list(places)


def _close_play(tournament: Tournament, table: TournamentTable, places: Sequence[int]) -> None:
    """End the game or room still being played at a table whose result was decided here."""
    if table.game is not None and table.game.status != Game.Status.FINISHED:
        operations.game_end(table.game, "the tournament's result was entered by staff")
    if table.room is not None and table.room.status == Room.Status.RUNNING:
        sides = {s.position: s.name for s in table.room.sides.all()}
        positions = [s.position for s in sorted(table.seats.all(), key=lambda s: s.position)]
        best = min(places)
        winners = [] if len(set(places)) == 1 else [
            sides[p] for p, place in zip(positions, places, strict=True) if place == best
        ]  # fmt: skip
        journal.decide_result(room_id=table.room.pk, user=tournament.created_by,
                              winners=winners, text="Tournament result")  # fmt: skip


def resolve_leaver(tournament: Tournament, entrant: TournamentEntrant) -> None:
    """Settle ``entrant``'s unfinished tables by the module's rule (the caller holds the lock)."""
    pending = TournamentTable.objects.filter(
        round__tournament=tournament, outcome="", seats__entrant=entrant
    ).select_related("game", "room")
    for table in pending:
        seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.position)
        if len(seats) == 2:
            places = [2 if not s.entrant.active else 1 for s in seats]
            scoring.score(tournament, table, places, outcome=TournamentTable.Outcome.FORFEIT)
            _close_play(tournament, table, places)
            continue
        seat = next(s for s in seats if s.entrant_id == entrant.pk)
        seat.left = True
        seat.save(update_fields=["left"])
        if table.game is not None and table.game.status == Game.Status.RUNNING:
            game_seat = Seat.objects.filter(game=table.game, position=seat.position).first()
            if game_seat is not None and not game_seat.is_bot:
                # A battle or poker hand under way refuses the leave: their own clock runs on.
                with contextlib.suppress(ConflictError):
                    operations.seat_replace_with_bot(table.game, game_seat)
    pairing.after_table(tournament)


def finish_now(*, actor: Any, tournament_id: int) -> Tournament:
    """Staff end the event after its last complete round (when a round cannot be paired, or
    the staff decide to stop): the champion from the standings so far."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            raise ConflictError(f"the tournament is {tournament.status}", code="not_running")
        if not reading.round_complete(tournament, tournament.current_round):
            raise ConflictError(f"round {tournament.current_round} is still being played",
                                code="round_incomplete")  # fmt: skip
        logged(tournament, actor, "finished_early", after_round=tournament.current_round)
        pairing.finish(tournament)
        return tournament


def sweep() -> int:
    """Record every finished game or room whose result a lost task did not (Celery beat)."""
    recorded = 0
    pending = TournamentTable.objects.filter(
        outcome="", round__tournament__status=Tournament.Status.RUNNING
    )
    for game_id in pending.filter(game__status=Game.Status.FINISHED).values_list("game", flat=True):
        recorded += record_game(game_id)
    for room_id in pending.filter(room__status=Room.Status.FINISHED).values_list("room", flat=True):
        recorded += record_room(room_id)
    return recorded
