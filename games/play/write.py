"""The write path: one action applied and written in the caller's transaction.

``person_action`` (a person, over HTTP or a socket, through ``submit.action_submit``) and
the driver (``driver.advance``: bots, allied armies' AIs, players out of time) share
``commit_action``: with the game row locked and its state row read in the same statement, call
the pure ``apply``, write the new state and version over the state row, append the log entry
with its response, write the piece rows the action changed (``pieces``: one statement on
PostgreSQL, none when no piece moved), move the clock, and return a ``Committed``. A refusal
raises before anything is written, and the caller's transaction rolls back whatever was, so
state is never half-written.

Nothing here happens after the commit: the caller hands the ``Committed`` to
``effects.after_commit`` (pushes, mail, deadline tasks, the driver), which sits above this
layer, so the write path imports no transport and queues no task.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.models import ActionLog, Game, GameSnapshot, Seat, is_reserved_name
from games.play import access, clock, pieces, snapshots
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError
from risk.rules import (
    Action,
    GameState,
    IllegalAction,
    InvalidAction,
    action_from_dict,
    apply_recorded,
    events_for,
    game_dice,
    pending_decisions,
    simultaneous,
)
from risk.rules.actions import ANYTIME_ACTIONS, Concede, Join, Leave
from risk.rules.vocabulary import Refusal

#: Engine refusal codes that mean "not yours to decide", answered 403 rather than 400.
NOT_YOURS = frozenset({Refusal.NOT_YOUR_TURN, Refusal.NOT_PLAYING})


@dataclass
class Committed:
    """What one applied action (or the start) left behind: for the caller's answer and for
    ``effects.after_commit``, which acts on it once the transaction has committed."""

    game: Game
    log: ActionLog
    before: GameState
    after: GameState
    events: list[dict[str, Any]]
    seats: list[Seat] = field(default_factory=list)
    #: The clock's work in the same transaction: deadlines opened (their tasks are queued
    #: after the commit), people the game has started waiting for ("your turn" mail).
    clock_change: clock.ClockChange = field(default_factory=clock.ClockChange)
    #: Whether the server must answer a decision now (a bot's, or a player's out of time).
    server_answers: bool = False


# --- the lock ---------------------------------------------------------------------------------


def game_lock(game_id: int) -> Game:
    """The game row, locked until the transaction ends, with its state row (if it has started)
    read and locked in the same statement.

    One statement for both rows, and the state row locked too, not merely joined: PostgreSQL
    re-reads only the locked rows of a ``SELECT ... FOR UPDATE`` that waited for a lock (READ
    COMMITTED's recheck), so a state row that was only joined would come back as it was before
    the transaction that held the lock, with the old version, and the version check would pass
    twice. Every writer takes this one lock, the same two rows in the same order, so two
    writers never deadlock on them. A game still in the lobby has no state row: its game row
    alone (a second statement, never on an action's path). SQLite ignores ``FOR UPDATE`` and
    runs every transaction ``BEGIN IMMEDIATE``, which serialises writers the same way.
    """
    snapshot = (
        GameSnapshot.objects.select_for_update(of=("self", "game"))
        .select_related("game")
        .filter(pk=game_id)
        .first()
    )
    if snapshot is not None:
        game = snapshot.game
        game.snapshot = snapshot  # the reverse side's cache: ``version`` and the state, no query
        return game
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise access.not_found()
    return game


def locked_state(game: Game) -> GameState:
    """The state to apply the next action to, read with the lock by ``game_lock``."""
    return snapshots.load(game)


def game_seats(game: Game) -> list[Seat]:
    """The game's seats with their users and profiles (one SELECT)."""
    return list(game.seats.select_related("user__profile"))


# --- a person's action ------------------------------------------------------------------------


def person_action(
    game: Game,
    user: Any,
    raw: Any,
    expected_version: int,
    key: str | None,
    invite: str | None = None,
) -> Committed:
    """Apply ``raw`` (the client's JSON) for ``user`` in ``game``, locked with its state.

    Refusals: 404 ``not_found`` for a private game the caller may not see (``access``: the
    answer of a missing game, checked first), 400 ``invalid_action`` (malformed) or
    ``illegal_action`` (the engine's reason), 403 ``not_your_decision`` / ``not_seated`` /
    ``invite_required`` (a newcomer's 'join' in a private game they see without its invite:
    staff), 409 ``stale_version`` (with the current version) or ``not_running``.
    """
    seats = game_seats(game)
    seat = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
    access.check(game, user, seated=seat is not None, invite=invite)
    check_running(game)
    behind = expected_version != game.version
    if behind and not _may_cross(game, seat, raw, expected_version):
        raise stale(game, expected_version)
    player = seat.player if seat is not None else user.get_username()
    # Before parsing: a stranger naming a seated player in the action is told they hold no
    # seat, not that the decision is someone else's.
    if (seat is None or seat.state == Seat.State.LEFT) and not _is_join(raw):
        raise ForbiddenError(
            "you hold no seat in this game; join an allied army first",
            code="not_seated",
            field="action.type",
        )
    if seat is None and not game.public and not access.invite_matches(game, invite):
        # Taking over an allied army of a private game takes its invite, as a lobby seat does.
        raise ForbiddenError(
            "this game is by invitation: send its invite", code="invite_required", field="invite"
        )
    if seat is None and is_reserved_name(player):
        raise ApplicationError(
            f"the username {player!r} is reserved for the server's own seats",
            code="reserved_username", field="user",
        )  # fmt: skip
    action = parse_action(raw, player)
    state = locked_state(game)
    if behind:
        _check_crossing(game, state, player, action, expected_version)
    if not isinstance(action, ANYTIME_ACTIONS) and player not in _waiting_for(state):
        raise ForbiddenError(
            f"it is not your decision now; waiting for {_waiting_text(state)}",
            code="not_your_decision",
            field="action",
        )
    if seat is None:
        seat = _seat_for_newcomer(game, user)
        seats.append(seat)
    _after_own_action(seat, action)
    try:
        return commit_action(
            game, state, actor=player, action=action, seat=seat, source=ActionLog.Source.PLAYER,
            user=user, key=key, seats=seats, respond_to=player, back=player,
        )  # fmt: skip
    except ApplicationError as exc:
        if behind and exc.code == "illegal_action":
            # Legal, maybe, on the state the client saw; not on this one: a real conflict.
            raise stale(game, expected_version, because=exc.message) from exc
        raise


def stale(game: Game, expected_version: int, because: str = "") -> ConflictError:
    """409 ``stale_version``: the client acted on a state the game has moved on from."""
    reason = f" ({because})" if because else ""
    return ConflictError(
        f"the game is at version {game.version}, not {expected_version}{reason}: reload and retry",
        code="stale_version",
        field="expected_version",
        extra={"version": game.version},
    )


# --- answers that crossed ---------------------------------------------------------------------
#
# When may an action sent against an older version still be applied? Only when nothing since
# that version bears on it, which the server can tell without the old state in one case: a
# decision put to several players at once (arranging armies, challenging a declaration,
# choosing poker cards; ``risk.rules.simultaneous``). Two players answering it in the same
# moment both answered against the same version, and the second is applied too when
#
# 1. it answers such a decision, and the game asks the player that decision now;
# 2. every action logged since the client's version is another player's answer to the same
#    decision, or an aside (a defence preference, a draw vote) of anyone's, and there are at most
#    ``MAX_CROSSED`` of them: then the player has been asked the same thing all along, and the
#    others' answers do not change what the player is asked;
# 3. the engine accepts it on the current state (if not, a 409 too, with the engine's reason).
#
# Anything else is a real conflict, refused 409 ``stale_version`` as before: a version ahead of
# the game's, an action of another kind (a turn is one player's, and whatever happened since it
# was read may bear on it), a turn, a join or a leave in between, the player's own answer in
# between. All of it runs inside the caller's lock, so the check and the write see one state.

#: The most actions logged since the client's version that an answer may cross: more than a
#: table's answers and asides in one moment means the client has been away, not racing.
MAX_CROSSED = 32


def _may_cross(game: Game, seat: Seat | None, raw: Any, expected_version: int) -> bool:
    """Whether the submission may be a crossed answer (checked in full by ``_check_crossing``
    once it is parsed): from a seated player, against an earlier version, of an answering type."""
    return (
        seat is not None
        and seat.state != Seat.State.LEFT
        and 0 <= expected_version < game.version
        and game.version - expected_version <= MAX_CROSSED
        and isinstance(raw, dict)
        and raw.get("type") in {answer for answer, _ in simultaneous.ANSWERS.values()}
    )


def _check_crossing(
    game: Game, state: GameState, player: str, action: Action, expected_version: int
) -> None:
    """Refuse 409 unless ``action`` crossed only other players' answers to the same decision
    (conditions 1 and 2 above; one SELECT of the entries since ``expected_version``)."""
    kind = simultaneous.simultaneous_answer(state, player, action)
    if kind is None:
        raise stale(game, expected_version)
    since = ActionLog.objects.filter(game=game, sequence__gt=expected_version).values_list(
        "actor", "action"
    )
    for actor, logged in since:
        if logged.get("type") in simultaneous.ASIDES:
            continue
        if actor == player or not simultaneous.leaves_alone(kind, logged):
            raise stale(game, expected_version)


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
    when it changes, which for a player who never timed out is never). Written before the
    action so the clock and the driver see the seat as it now is; a refused action rolls the
    transaction back with it."""
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
    seats: list[Seat] | None = None,
    respond_to: str | None = None,
    back: str | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> Committed:
    """Apply and write one action; the caller holds the game row lock inside ``atomic``.

    ``IllegalAction`` from the engine becomes a 400 (403 when it is about who may act) before
    anything is written. The log entry stores the dice context and every roll, so
    ``verify_game`` can re-derive them from the revealed seed. ``respond_to``: the player whose
    answer (version, sequence, the events as they see them) is stored with the entry, for
    idempotent replays. ``seats``: the game's seats with their users, when the caller has them.
    ``back``: the player who acted for themselves (an overdue deadline of theirs ends).
    ``notes``: the server's own events written before the engine's (a forced step's note,
    ``risk.rules.forced``); ``verify_game`` leaves them out of its comparison.
    """
    dice = game_dice(state)
    try:
        after, events, touched = apply_recorded(state, action, dice)
    except IllegalAction as exc:
        raise _refusal(exc, waited_for=actor in _waiting_for(state)) from exc
    event_dicts = [*(notes or ()), *(e.to_dict() for e in events)]
    version = game.version + 1
    response = {}
    if respond_to is not None:
        response = {
            "version": version,
            "sequence": version,
            "events": events_for(after, event_dicts, respond_to),
        }
    log = ActionLog.objects.create(
        game=game, sequence=version, seat=seat, actor=actor, source=source,
        user=user if user is not None and user.is_authenticated else None,
        action=action.to_dict(), events=event_dicts, context=dice.context,
        rolls=[r.as_dict() for r in dice.log], idempotency_key=key or None, response=response,
    )  # fmt: skip
    if after.over:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = {"winner": after.winner, "ranking": list(after.ranking)}
        game.save(update_fields=["status", "finished_at", "result"])
    if seats is None:
        seats = game_seats(game)
    change = clock.after_action(game, state, after, seats, back=back)
    server_answers = not after.over and bool(
        clock.answered_by_server(game, after, seats, change.overdue)
    )
    pieces.save(game, state, after, touched, seats)
    snapshots.save(game, after, version, server_turn=server_answers)
    return Committed(
        game, log, state, after, event_dicts, seats, change, server_answers=server_answers
    )


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
