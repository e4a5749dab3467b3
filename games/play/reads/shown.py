"""What a caller may read of a game: the detail with their own view, the log, the replay.

Every read goes through the engine's filters (``view_for``, ``events_for``, ``action_for``) with
the caller's player name, so a spectator, a seated player and a player who has left each get only
what the rules let them see. Until the game is over nothing here includes the seed, the client
seeds or the logged rolls: the rolls of a reshuffle would give away the new deck order.
"""

from __future__ import annotations

from typing import Any

from combat import poker
from games.models import ActionLog, Deadline, Game, Seat
from games.play import snapshots
from games.play.reads.fetch import seat_of
from risk.rules import action_for, pending_decisions, view_for
from risk.rules.state import GameState

#: Log entries one ``events`` call returns at most; the client pages on with ``after``.
PAGE = 500


def viewer_of(game: Game, user: Any) -> tuple[Seat | None, str | None]:
    """The caller's seat and the player name the engine knows them by (None: a spectator)."""
    seat = seat_of(game, user)
    return seat, seat.player if seat is not None else None


def game_detail(game: Game, user: Any) -> dict[str, Any]:
    """The game as ``user`` sees it: lobby facts, their view, whose turn, the deadlines."""
    seat, player = viewer_of(game, user)
    state = snapshots.load_if_started(game)
    seats = list(game.seats.select_related("user__profile"))
    detail: dict[str, Any] = {
        **game_summary(game, seats),
        "you": {"position": seat.position, "player": seat.player, "state": seat.state}
        if seat is not None
        else None,
        "view": view_for(state, player) if state is not None else None,
        "turn": _turn(state),
        "pending": pending_of(game, state, seats),
    }
    if seat is not None or _creator_or_staff(game, user):
        # Never to a caller who merely sees the game (a public game's onlooker, or one who came
        # with the invite and has not taken a seat yet).
        detail["invite_token"] = game.invite_token
    if game.status == Game.Status.FINISHED:
        detail.update(revealed(game, seats))
    return detail


def _creator_or_staff(game: Game, user: Any) -> bool:
    signed_in = user is not None and user.is_authenticated
    return bool(signed_in and (user.pk == game.creator_id or user.is_staff))


def game_summary(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What the lobby list shows of a game (nothing hidden in it)."""
    allowance = game.time_per_decision
    return {
        "id": game.pk,
        "name": game.name,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "creator": game.creator.get_username(),
        "public": game.public,
        "seat_count": game.seat_count,
        "seats": [_seat(s) for s in seats],
        "options": game.options,
        "time_control": game.time_control,
        "seconds_per_turn": int(allowance.total_seconds()) if allowance else None,
        "max_timeouts": game.max_timeouts,
        "ai_level": game.ai_level,
        "ai_delay_ms": game.ai_delay_ms,
        # Offered only in unrated games (games.play.hints).
        "hints": game.hints and not game.rated,
        "rated": game.rated,
        "seed_commitment": game.seed_commitment,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "result": game.result or None,
    }


def _seat(seat: Seat) -> dict[str, Any]:
    name = seat.player
    if seat.user is not None and hasattr(seat.user, "profile") and seat.user.profile.display_name:
        name = seat.user.profile.display_name
    return {"position": seat.position, "player": seat.player, "name": name,
            "bot": seat.is_bot, "colour": seat.colour, "state": seat.state}  # fmt: skip


def _turn(state: GameState | None) -> dict[str, Any] | None:
    if state is None or state.turn is None:
        return None
    turn = state.turn
    return {"seat": turn.seat, "controller": turn.controller, "phase": turn.phase,
            "round": state.round}  # fmt: skip


def pending_of(game: Game, state: GameState | None, seats: list[Seat]) -> list[dict[str, Any]]:
    """Who the game waits for, each with their deadline when the game is timed (the state body's
    ``pending``; a timed game's updates carry it too, ``broadcast.action_committed``)."""
    if state is None:
        return []
    positions = {s.player: s for s in seats}
    due = {d.seat_id: d for d in Deadline.objects.filter(game=game, status=Deadline.Status.OPEN)}
    pending = []
    for decision in pending_decisions(state):
        seat = positions.get(decision.player)
        deadline = due.get(seat.pk) if seat is not None else None
        pending.append({
            "player": decision.player, "seat": decision.seat, "kind": decision.kind,
            "deadline": deadline.due_at.isoformat() if deadline is not None else None,
        })  # fmt: skip
    return pending


def revealed(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What the end of the game reveals so every roll can be checked (design.md section 2)."""
    return {
        "server_seed": game.server_seed,
        "client_seeds": [s.client_seed for s in seats if s.position < game.seat_count],
    }


def log_for(game: Game, user: Any, after: int = 0, limit: int = PAGE) -> dict[str, Any]:
    """Log entries after ``after`` as ``user`` may see them; the rolls once the game is over."""
    _, player = viewer_of(game, user)
    over = game.status == Game.Status.FINISHED
    entries = list(
        ActionLog.objects.filter(game=game, sequence__gt=after)
        .select_related("seat")
        .order_by("sequence")[:limit]
    )
    seat_ids = _seat_ids_over_time(game, player)
    out = []
    for entry in entries:
        mine = _seat_at(seat_ids, entry.sequence)
        item = {
            "sequence": entry.sequence,
            "actor": entry.actor,
            "position": entry.seat.position if entry.seat is not None else None,
            "source": entry.source,
            "action": entry.action if over else action_for(entry.action, player),
            "events": entry.events if over else poker.events_for(entry.events, mine),
            "created_at": entry.created_at.isoformat(),
        }
        if over:
            item["context"] = entry.context
            item["rolls"] = entry.rolls
        out.append(item)
    last = out[-1]["sequence"] if out else after
    return {"version": game.version, "after": after, "last": last, "entries": out}


def _seat_ids_over_time(game: Game, player: str | None) -> list[tuple[int, str | None]]:
    """(from sequence, seat id) for ``player``: a late-comer sees an allied army's private
    events only from the moment they took it over, a leaver none after leaving."""
    if player is None:
        return [(0, None)]
    started_with = game.seats.filter(player=player, position__lt=game.seat_count).exists()
    spans: list[tuple[int, str | None]] = [(0, player if started_with else None)]
    moves = ActionLog.objects.filter(game=game, actor=player).order_by("sequence")
    for sequence, action in moves.values_list("sequence", "action"):
        if action.get("type") == "join":
            spans.append((sequence, action.get("ally")))
        elif action.get("type") in ("leave", "concede"):
            spans.append((sequence, None))
    return spans


def _seat_at(spans: list[tuple[int, str | None]], sequence: int) -> str | None:
    seat_id = None
    for start, seat in spans:
        if start <= sequence:
            seat_id = seat
    return seat_id


def replay(game: Game) -> dict[str, Any]:
    """The whole log with the revealed seeds: everything ``verify_game`` needs."""
    seats = list(game.seats.all())
    entries = ActionLog.objects.filter(game=game).order_by("sequence")
    return {
        **game_summary(game, seats),
        **revealed(game, seats),
        "players": [s.player for s in seats if s.position < game.seat_count],
        "entries": [
            {
                "sequence": e.sequence,
                "actor": e.actor,
                "source": e.source,
                "action": e.action,
                "events": e.events,
                "context": e.context,
                "rolls": e.rolls,
            }
            for e in entries
        ],
    }
