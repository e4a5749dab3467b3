"""Applying one action: the path of design.md section 1, in one transaction per action.

``action_submit`` (a person over HTTP or a socket) and ``bot_step`` (a bot, an allied army's AI,
or the bot deciding for a player whose deadline passed) share ``commit_action``: lock the game
row, check the version, load the state from its snapshot row, call the pure ``apply``, write the
new state over it, append the log entry, move the clock, commit; then, on commit, push each seat
its own view and kick the bots. A refusal raises before anything is written, and the transaction
rolls back whatever was, so state is never half-written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from config.exceptions import ApplicationError, ConflictError, ForbiddenError, NotFoundError
from games.models import ActionLog, Game, Seat, is_reserved_name
from games.services import snapshots
from risk.rules import (
    Action,
    GameState,
    IllegalAction,
    InvalidAction,
    action_from_dict,
    apply,
    events_for,
    game_dice,
    pending_decisions,
)
from risk.rules.actions import ANYTIME_ACTIONS, Concede, Join, Leave
from risk.rules.vocabulary import Refusal

#: Engine refusal codes that mean "not yours to decide", answered 403 rather than 400.
NOT_YOURS = frozenset({Refusal.NOT_YOUR_TURN, Refusal.NOT_PLAYING})


@dataclass
class Committed:
    """What one applied action left behind, for the caller and the after-commit pushes."""

    game: Game
    log: ActionLog
    before: GameState
    after: GameState
    events: list[dict[str, Any]]
    seats: list[Seat] = field(default_factory=list)


# --- reading ----------------------------------------------------------------------------------


def game_get(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(f"no game {game_id}", field="id")
    return game


def game_lock(game_id: int, *, with_state: bool = False) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL ``SELECT ... FOR UPDATE``;
    SQLite runs every transaction ``BEGIN IMMEDIATE``, which serialises writers the same way).
    ``with_state``: its snapshot row comes in the same statement (joined; only the game row is
    locked, and it guards the snapshot: every writer takes it first)."""
    rows = Game.objects.select_for_update(of=("self",))
    if with_state:
        rows = rows.select_related("snapshot")
    game = rows.filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(f"no game {game_id}", field="id")
    return game


def game_state(game: Game) -> GameState:
    """The rules state as stored (always read from the database)."""
    return snapshots.load(game)


def locked_state(game: Game) -> GameState:
    """The state to apply the next action to, the game row being locked (read with it when
    ``game_lock(with_state=True)`` joined it in)."""
    return snapshots.load(game)


def seat_of(game: Game, user: Any) -> Seat | None:
    """The seat ``user`` holds in ``game`` (also one they left), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


# --- submitting -------------------------------------------------------------------------------


def action_submit(
    *,
    game_id: int,
    user: Any,
    action: Any,
    expected_version: int,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Apply ``action`` for ``user``; the response body (also stored for idempotent replays).

    Refusals: 400 ``invalid_action`` (malformed) or ``illegal_action`` (the engine's reason),
    403 ``not_your_decision``, 409 ``stale_version`` (with the current version) or
    ``not_running``, 404 for an unknown game.
    """
    try:
        with transaction.atomic():
            game = game_lock(game_id, with_state=True)
            committed = _submit_locked(game, user, action, expected_version, idempotency_key)
            return committed.log.response
    except (ApplicationError, IntegrityError):
        # Idempotency rides on the log's unique (game, user, key) index, not on a SELECT per
        # action: a repeat of a request that committed finds the game moved on (409, or the
        # insert's duplicate key) and gets the first answer back; nothing of it was written.
        earlier = _earlier_response(game_id, user, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise
        return earlier


def _earlier_response(game_id: int, user: Any, key: str) -> dict[str, Any] | None:
    entry = (
        ActionLog.objects.filter(game_id=game_id, user=user, idempotency_key=key)
        .only("response")
        .first()
    )
    return entry.response if entry is not None else None


def _submit_locked(
    game: Game, user: Any, raw: Any, expected_version: int, key: str | None
) -> Committed:
    check_running(game)
    if expected_version != game.version:
        raise ConflictError(
            f"the game is at version {game.version}, not {expected_version}: reload and retry",
            code="stale_version",
            field="expected_version",
            extra={"version": game.version},
        )
    seats = list(game.seats.select_related("user__profile"))
    seat = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
    player = seat.player if seat is not None else user.get_username()
    # Before parsing: a stranger naming a seated player in the action is told they hold no
    # seat, not that the decision is someone else's.
    if (seat is None or seat.state == Seat.State.LEFT) and not _is_join(raw):
        raise ForbiddenError(
            "you hold no seat in this game; join an allied army first",
            code="not_seated",
            field="action.type",
        )
    if seat is None and is_reserved_name(player):
        raise ApplicationError(
            f"the username {player!r} is reserved for the server's own seats",
            code="reserved_username", field="user",
        )  # fmt: skip
    action = parse_action(raw, player)
    state = locked_state(game)
    if not isinstance(action, ANYTIME_ACTIONS) and player not in _waiting_for(state):
        raise ForbiddenError(
            f"it is not your decision now; waiting for {_waiting_text(state)}",
            code="not_your_decision",
            field="action",
        )
    if seat is None:
        seat = _seat_for_newcomer(game, user)
        seats.append(seat)
    committed = commit_action(
        game, state, actor=player, action=action, seat=seat, source=ActionLog.Source.PLAYER,
        user=user, key=key, seats=seats, respond_to=player,
    )  # fmt: skip
    _after_own_action(seat, action)
    return committed


def _is_join(raw: Any) -> bool:
    return isinstance(raw, dict) and raw.get("type") == Join.type


def check_running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise ConflictError(f"the game is {game.status}, not running", code="not_running")


def parse_action(raw: Any, player: str) -> Action:
    """The client's JSON as an engine action acting for ``player`` (who is never taken from it)."""
    if not isinstance(raw, dict):
        raise ApplicationError(
            "an action is a JSON object with a 'type'", code="invalid_action", field="action"
        )
    claimed = raw.get("player")
    if claimed is not None and claimed != player:
        raise ForbiddenError(
            f"you act as {player!r}, not {claimed!r}", code="not_your_decision",
            field="action.player",
        )  # fmt: skip
    try:
        return action_from_dict({**raw, "player": player})
    except InvalidAction as exc:
        raise ApplicationError(
            exc.message, code="invalid_action", field=f"action.{exc.field}"
        ) from exc


def _waiting_for(state: GameState) -> set[str]:
    return {d.player for d in pending_decisions(state)}


def _waiting_text(state: GameState) -> str:
    return ", ".join(f"{d.player} ({d.kind})" for d in pending_decisions(state)) or "nobody"


def _seat_for_newcomer(game: Game, user: Any) -> Seat:
    """A late-comer taking over an allied army gets a seat row of their own."""
    last = game.seats.order_by("-position").values_list("position", flat=True).first()
    return Seat.objects.create(
        game=game, position=(last or 0) + 1, user=user, player=user.get_username()
    )


def _after_own_action(seat: Seat, action: Action) -> None:
    """A player acting for themselves is back: the timeout count starts again (written only
    when it changes, which for a player who never timed out is never)."""
    before = (seat.state, seat.timeouts)
    if isinstance(action, Leave | Concede):
        seat.state = Seat.State.LEFT
    elif isinstance(action, Join):
        seat.state = Seat.State.ACTIVE
        seat.timeouts = 0
    elif seat.timeouts or seat.state == Seat.State.AWAY:
        seat.timeouts = 0
        seat.state = Seat.State.ACTIVE
    if (seat.state, seat.timeouts) != before:
        seat.save(update_fields=["state", "timeouts"])


# --- the one write path -------------------------------------------------------------------------


def commit_action(
    game: Game,
    state: GameState,
    *,
    actor: str,
    action: Action,
    seat: Seat | None,
    source: str,
    user: Any = None,
    key: str | None = None,
    kick_bots: bool = True,
    seats: list[Seat] | None = None,
    respond_to: str | None = None,
) -> Committed:
    """Apply and write one action; the caller holds the game row lock inside ``atomic``.

    ``IllegalAction`` from the engine becomes a 400 (403 when it is about who may act) before
    anything is written. The log entry stores the dice context and every roll, so
    ``verify_game`` can re-derive them from the revealed seed. ``respond_to``: the player whose
    answer (version, sequence, the events as they see them) is stored with the entry, for
    idempotent replays. ``seats``: the game's seats with their users, when the caller has them.
    """
    from games.services import broadcast, clock

    dice = game_dice(state)
    try:
        after, events = apply(state, action, dice)
    except IllegalAction as exc:
        raise _refusal(exc, waited_for=actor in _waiting_for(state)) from exc
    event_dicts = [e.to_dict() for e in events]
    game.version += 1
    snapshots.save(game, after)
    response = {}
    if respond_to is not None:
        response = {
            "version": game.version,
            "sequence": game.version,
            "events": events_for(after, event_dicts, respond_to),
        }
    log = ActionLog.objects.create(
        game=game, sequence=game.version, seat=seat, actor=actor, source=source,
        user=user if user is not None and user.is_authenticated else None,
        action=action.to_dict(), events=event_dicts, context=dice.context,
        rolls=[r.as_dict() for r in dice.log], idempotency_key=key or None, response=response,
    )  # fmt: skip
    fields = ["version"]
    if after.over:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = {"winner": after.winner, "ranking": list(after.ranking)}
        fields += ["status", "finished_at", "result"]
    game.save(update_fields=fields)
    if seats is None:
        seats = list(game.seats.select_related("user__profile"))
    committed = Committed(game, log, state, after, event_dicts, seats)
    clock.after_action(committed)
    transaction.on_commit(lambda: broadcast.action_committed(committed, kick_bots=kick_bots))
    return committed


def _refusal(exc: IllegalAction, *, waited_for: bool) -> ApplicationError:
    field = f"action.{exc.field}" if exc.field else "action"
    if exc.code == Refusal.NOT_YOUR_TURN and waited_for:
        # The decision is the actor's, the action is the wrong kind for it (an attack while
        # reinforcing): not allowed now, a 400, not "someone else's decision".
        return ApplicationError(
            exc.reason, code="illegal_action", field="action.type", extra={"rule": exc.code}
        )
    if exc.code in NOT_YOURS:
        return ForbiddenError(exc.reason, code="not_your_decision", field=field)
    return ApplicationError(
        exc.reason, code="illegal_action", field=field, extra={"rule": exc.code}
    )
