"""Pairing a round: the format's pure rule gives the pairs or tables; this creates the round's
tables with their games or rooms and mails the players after the commit.

A pair whose player has withdrawn or been removed is created as a forfeit (no game): the
other player scores the win. A bye is a table of one seat, scored at once (``BYE_POINTS``).
Games are public, created rated when the tournament is (a bot stand-in's seat makes its game
unrated at the start, as every game with a bot), with the tournament's options and clock;
rooms are public, refereed by the tournament's creator, with its days per turn.

A round's progress lives here too (``after_table``: when its last table is done, pair the
next round or ``finish`` the event), so pairing and results meet one way: ``results`` calls
``after_table``, and a round complete as it is paired (byes, forfeits) goes on at once.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.common.queue import enqueue
from games.competition.formats import duel_round, table_round
from games.models import (
    TableSeat,
    Tournament,
    TournamentEntrant,
    TournamentRound,
    TournamentTable,
)
from games.play import lobby
from games.rooms import setup as room_setup
from games.tournaments import access, reading, scoring
from games.tournaments.log import logged
from games.web.exceptions import ApplicationError, ConflictError

#: Points of a bye, by format: Swiss as FIDE's C.04 (a pairing-allocated bye scores a win);
#: a knockout bye goes through (scored as a win); a round robin's bye is the round off every
#: player of an odd field gets once, worth nothing.
BYE_POINTS = {"round_robin": 0.0, "swiss": 1.0, "knockout": 1.0}


def round_pair(*, actor: Any, tournament_id: int) -> TournamentRound:
    """Staff pair the next round now (events without automatic pairing, or to retry one)."""
    access.require_staff(actor)
    with transaction.atomic():
        return pair_next(access.locked(tournament_id), actor)


def pair_next(tournament: Tournament, actor: Any) -> TournamentRound:
    """Pair round ``current_round + 1`` of the locked, running tournament."""
    if tournament.status != Tournament.Status.RUNNING:
        raise ConflictError(f"the tournament is {tournament.status}", code="not_running")
    number = tournament.current_round + 1
    if tournament.rounds is not None and number > tournament.rounds:
        raise ConflictError(f"all {tournament.rounds} rounds are paired", code="no_more_rounds")
    if tournament.current_round and not reading.round_complete(tournament, number - 1):
        raise ConflictError(f"round {number - 1} is still being played", code="round_incomplete")
    entrants = list(tournament.entrants.select_related("user").order_by("seed", "pk"))
    active = [e for e in entrants if e.active and e.first_round <= number]
    field = [e for e in entrants if e.seed is not None and e.first_round == 1]
    try:
        if tournament.format == Tournament.Format.TABLES:
            history = reading.table_history(tournament)
            tables: list[list[TournamentEntrant | None]] = [
                list(t) for t in table_round(
                    [e.pk for e in active], history, min_size=tournament.table_min,
                    max_size=tournament.table_max, seed=tournament.pk * 1000 + number,
                )
            ]  # fmt: skip
        else:
            ids = duel_round(
                tournament.format, number, [e.pk for e in field], [e.pk for e in active],
                reading.duel_rounds(tournament), tournament.rounds or 0,
            )  # fmt: skip
            tables = [[a, b] if b is not None else [a] for a, b in ids]
    except ValueError as exc:
        raise ConflictError(f"round {number} cannot be paired: {exc}", code="cannot_pair") from exc
    by_id = {e.pk: e for e in entrants}
    the_round = TournamentRound.objects.create(tournament=tournament, number=number,
                                               paired_by=_person(actor))  # fmt: skip
    for board, ids_at_table in enumerate(tables, start=1):
        _create_table(tournament, the_round, board, [by_id[i] for i in ids_at_table])
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    logged(tournament, actor, "paired", round=number, tables=len(tables))
    tournament_id = tournament.pk
    transaction.on_commit(lambda: enqueue("games.tournament_round_mail", tournament_id, number))
    after_table(tournament)  # a round of byes and forfeits is complete
    return the_round


def _person(actor: Any) -> Any:
    return actor if actor is not None and actor.is_authenticated else None


def _create_table(
    tournament: Tournament, the_round: TournamentRound, board: int, players: list[Any]
) -> TournamentTable:
    table = TournamentTable.objects.create(round=the_round, number=board)
    seats = [TableSeat(table=table, entrant=e, position=i) for i, e in enumerate(players)]
    TableSeat.objects.bulk_create(seats)
    if len(players) == 1:
        scoring.score(tournament, table, [1], outcome=TournamentTable.Outcome.BYE,
                      points=[BYE_POINTS[tournament.format]])  # fmt: skip
        return table
    gone = [not e.active for e in players]
    if any(gone) and len(players) == 2:
        places = [2 if g else 1 for g in gone]
        scoring.score(tournament, table, places, outcome=TournamentTable.Outcome.FORFEIT)
        return table
    name = f"{tournament.name}: round {the_round.number}, table {board}"[:80]
    if tournament.play == Tournament.Play.FAST_RISK:
        table.game = lobby.game_create_seated(
            creator=tournament.created_by,
            players=[None if e.bot_stands_in else e.user for e in players],
            name=name, options=tournament.options, time_control=tournament.time_control,
            time_per_decision=tournament.time_per_decision, ai_level=tournament.ai_level,
            rated=tournament.rated,
        )  # fmt: skip
    else:
        try:
            table.room = room_setup.room_create_seated(
                creator=tournament.created_by, players=[e.user for e in players], name=name,
                system=tournament.room_system, sides=tournament.room_sides,
                rules=tournament.room_rules, edition=tournament.room_edition,
                days_per_turn=tournament.days_per_turn, rated=tournament.rated,
            )  # fmt: skip
        except ApplicationError as exc:
            raise ConflictError(f"table {board}'s room: {exc}", code="cannot_pair") from exc
    table.save(update_fields=["game", "room"])
    return table


def after_table(tournament: Tournament) -> None:
    """A table is done: if the round is complete, pair the next or finish the event."""
    if tournament.status != Tournament.Status.RUNNING or not tournament.current_round:
        return
    number = tournament.current_round
    if not reading.round_complete(tournament, number):
        return
    done = TournamentRound.objects.filter(tournament=tournament, number=number, completed_at=None)
    done.update(completed_at=timezone.now())
    if number >= (tournament.rounds or 0) or _knockout_final(tournament, number):
        finish(tournament)
    elif tournament.auto_pair:
        try:
            with transaction.atomic():
                pair_next(tournament, None)
        except ConflictError as exc:
            # The result stands; the round cannot be paired (too few players left for a
            # table, say). The staff see why in the log and end the event or pair by hand.
            logged(tournament, None, "pairing_failed", round=number + 1, reason=str(exc))


def _knockout_final(tournament: Tournament, number: int) -> bool:
    if tournament.format != Tournament.Format.KNOCKOUT:
        return False
    return TournamentTable.objects.filter(round__tournament=tournament,
                                          round__number=number).count() == 1  # fmt: skip


def finish(tournament: Tournament) -> None:
    """The event ends after its current round: the champion from the standings."""
    tournament.rounds = tournament.current_round
    tournament.save(update_fields=["rounds"])
    champion = reading.champion_id(tournament)
    entrant = TournamentEntrant.objects.select_related("user").filter(pk=champion).first()
    tournament.champion = entrant.user if entrant else None
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
    tournament.save(update_fields=["champion", "status", "finished_at"])
    logged(tournament, None, "finished",
           champion=entrant.user.get_username() if entrant else None)  # fmt: skip
