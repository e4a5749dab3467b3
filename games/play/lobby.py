"""The lobby: create a game, take and leave seats, fill empty ones with bots, start.

Before the start a seat is only a row; the rules state is made at ``game_start`` from the seats in
order, with the seed mixed from the server's secret seed and the players' client seeds
(``games.play.seeds``). From then on, joining and leaving are rules actions (a late-comer takes
over an allied army, a leaver's army becomes one) and go through ``submit.action_submit``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from combat.dice import commitment_of, new_seed
from games.models import (
    AI_LEVELS,
    BOT_PREFIX,
    MAX_SEATS,
    MIN_SEATS,
    NAUTICAL_RISK,
    ActionLog,
    Game,
    Seat,
    is_reserved_name,
)
from games.play import access, clock, effects, lobby_feed, pieces, snapshots
from games.play.reads import fetch
from games.play.seeds import engine_seed
from games.play.write import Committed, game_lock
from games.web.exceptions import ApplicationError, ConflictError, ForbiddenError
from risk.maps.store import MapRefused, offered_maps, playable
from risk.rules import Options, new_game
from risk.rules.board_map import load_map
from risk.rules.state import (
    AI,
    ALLY_OWN,
    DECLARER_ONLY,
    DEFENDER_DICE,
    DOMINATION,
    LAST_STANDING,
    MAX_MIN_COMMITMENT,
    MAX_PIRATE_TURNS,
    NEXT_PLAYER,
    PIRATE_TURNS,
    ROUND_LIMIT,
)
from risk.rules.upcast import stored_options

WINS = (LAST_STANDING, DOMINATION, ROUND_LIMIT)
ALLY_DEFENDERS = (NEXT_PLAYER, AI)
ALLY_CARDS = (ALLY_OWN, DECLARER_ONLY)
#: The host options against the flanking loophole (risk/RULES.md C10, C11).
DEFENDER_DICE_CHOICES = DEFENDER_DICE
MIN_COMMITMENTS = (2, MAX_MIN_COMMITMENT)

#: The most consecutive timeouts a game may allow before a seat counts as having left (the
#: column is a small integer; 3,000,000,000 overflowed it into a 500).
MAX_TIMEOUTS = 100
#: The longest pause between two of the AI's moves a game may ask for (milliseconds).
MAX_AI_DELAY_MS = 10_000
#: Allowances per time control: live in minutes, correspondence in days.
LIVE_MINUTES = (1, 240)
CORRESPONDENCE_DAYS = (1, 30)


def game_create(
    *,
    creator: Any,
    seats: int,
    options: dict[str, Any] | None = None,
    public: bool = True,
    time_control: str = Game.TimeControl.UNTIMED,
    minutes: int | None = None,
    days: int | None = None,
    max_timeouts: int = 3,
    name: str = "",
    client_seed: str = "",
    ai_level: str = "hard",
    ai_delay_ms: int | None = None,
    hints: bool = True,
    rated: bool = True,
    trial: bool = False,
) -> Game:
    """A new game in the lobby with its creator in the first seat and the seed committed.

    ``ai_level``: the AI's strength for bots, allied armies and timed-out players;
    ``ai_delay_ms``: the pause between its moves (``settings.AI_DELAY_MS`` when not given);
    ``hints``: whether players may ask the AI for a hint; ``rated``: asked for a rated game
    (it stays rated at the start only if every seat is a person, ``games.ratings.rate``);
    ``trial``: the map may be a trial copy (``game_try_map``)."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ApplicationError(
            f"a game has {MIN_SEATS}-{MAX_SEATS} seats", code="invalid", field="seats"
        )
    check_name(creator)
    chosen = checked_options(options or {}, trial=trial)
    check_seats(chosen, seats)
    per_decision = allowance(time_control, minutes, days)
    if not 1 <= max_timeouts <= MAX_TIMEOUTS:
        raise ApplicationError(
            f"between 1 and {MAX_TIMEOUTS}", code="invalid", field="max_timeouts"
        )
    if ai_level not in AI_LEVELS:
        raise ApplicationError(f"one of {', '.join(AI_LEVELS)}", code="invalid",
                               field="ai_level", allowed=list(AI_LEVELS))  # fmt: skip
    if ai_delay_ms is None:
        ai_delay_ms = settings.AI_DELAY_MS
    if not 0 <= ai_delay_ms <= MAX_AI_DELAY_MS:
        raise ApplicationError(
            f"between 0 and {MAX_AI_DELAY_MS}", code="invalid", field="ai_delay_ms"
        )
    server_seed = new_seed()
    with transaction.atomic():
        game = Game.objects.create(
            kind=NAUTICAL_RISK, name=name, creator=creator, seat_count=seats,
            options=chosen.to_dict(), public=public, time_control=time_control,
            time_per_decision=per_decision, max_timeouts=max_timeouts, server_seed=server_seed,
            seed_commitment=commitment_of(server_seed), ai_level=ai_level,
            ai_delay_ms=ai_delay_ms, hints=bool(hints), rated=bool(rated),
        )  # fmt: skip
        Seat.objects.create(
            game=game, position=0, user=creator, player=creator.get_username(),
            client_seed=client_seed,
        )  # fmt: skip
        lobby_feed.changed(game.pk, public=game.public)
    return game


def check_seats(options: Options, seats: int, *, field: str = "seats") -> None:
    """As many seats as the game's map is made for (``Map.min_seats``/``max_seats``)."""
    board = load_map(options.map, options.map_version)
    if not board.min_seats <= seats <= board.max_seats:
        raise ApplicationError(
            f"a game on the {options.map} map has {board.min_seats}-{board.max_seats} seats",
            code="invalid", field=field,
        )  # fmt: skip


def checked_options(raw: dict[str, Any], *, trial: bool = False) -> Options:
    """The rules options a creator chose, each checked, with its field named when wrong.

    The map is one of the published maps (``risk.maps.store``; with ``trial``, a trial copy may
    be named too), at the version asked for or else its newest published one: the options
    returned name the version, so the game keeps it whatever is published later."""
    known = set(Options.__dataclass_fields__)
    for key in raw:
        if key not in known:
            raise ApplicationError(
                "not a rules option", code="invalid", field=f"options.{key}", allowed=sorted(known)
            )
    # The rule revision is not a host's choice: every new game plays by the newest readings. A
    # stored set of options (a tournament's, checked again for each table) names it: accepted.
    newest = Options().revision
    if raw.get("revision", newest) != newest:
        raise ApplicationError(
            "a new game plays by the newest rule revision", code="invalid",
            field="options.revision", allowed=[newest],
        )  # fmt: skip
    win = raw.get("win", LAST_STANDING)
    if win not in WINS:
        raise ApplicationError("unknown win condition", code="invalid", field="options.win",
                               allowed=WINS)  # fmt: skip
    limit = raw.get("round_limit")
    # A limit given with another win condition is checked too: the options are shown to every
    # player. (bool is an int in Python; true is no number of rounds.)
    whole = isinstance(limit, int) and not isinstance(limit, bool) and limit >= 1
    if (win == ROUND_LIMIT or limit is not None) and not whole:
        raise ApplicationError(
            "a whole number of rounds, at least 1 (a round-limit game needs one)",
            code="invalid", field="options.round_limit",
        )  # fmt: skip
    turns = raw.get("pirate_turns", PIRATE_TURNS)
    whole = isinstance(turns, int) and not isinstance(turns, bool)
    if turns is not None and not (whole and 1 <= turns <= MAX_PIRATE_TURNS):
        raise ApplicationError(
            f"a whole number of turns, 1 to {MAX_PIRATE_TURNS}, or null (a landless player is "
            "never put out)",
            code="invalid", field="options.pirate_turns",
        )  # fmt: skip
    for flag in ("red_queens_high", "reveal_needs_cut", "reveal_once"):
        if flag in raw and not isinstance(raw[flag], bool):
            raise ApplicationError("true or false", code="invalid", field=f"options.{flag}")
    least = raw.get("min_commitment", 2)
    low, high = MIN_COMMITMENTS
    if isinstance(least, bool) or not isinstance(least, int) or not low <= least <= high:
        raise ApplicationError(
            f"a whole number of armies, {low} to {high}", code="invalid",
            field="options.min_commitment",
        )  # fmt: skip
    for choice, allowed in (("ally_defender", ALLY_DEFENDERS), ("ally_cards", ALLY_CARDS),
                            ("defender_dice", DEFENDER_DICE_CHOICES)):  # fmt: skip
        if choice in raw and raw[choice] not in allowed:
            raise ApplicationError(
                f"one of {', '.join(allowed)}", code="invalid", field=f"options.{choice}",
                allowed=list(allowed),
            )  # fmt: skip
    name, version = raw.get("map", "classic"), raw.get("map_version")
    try:
        version = playable(name, version, trial=trial)
    except MapRefused as refused:
        field = "options.map" if version is None else "options.map_version"
        raise ApplicationError(
            refused.message, code="invalid", field=field,
            allowed=[offer.name for offer in offered_maps()],
        ) from None  # fmt: skip
    return Options.from_dict({**raw, "win": win, "map": name, "map_version": version})


def allowance(time_control: str, minutes: int | None, days: int | None) -> timedelta | None:
    if time_control == Game.TimeControl.UNTIMED:
        return None
    if time_control == Game.TimeControl.LIVE:
        low, high = LIVE_MINUTES
        if not (isinstance(minutes, int) and low <= minutes <= high):
            raise ApplicationError(
                f"live games need minutes per turn, {low}-{high}", code="invalid", field="minutes"
            )
        return timedelta(minutes=minutes)
    if time_control == Game.TimeControl.CORRESPONDENCE:
        low, high = CORRESPONDENCE_DAYS
        if not (isinstance(days, int) and low <= days <= high):
            raise ApplicationError(
                f"correspondence games need days per turn, {low}-{high}", code="invalid",
                field="days",
            )  # fmt: skip
        return timedelta(days=days)
    raise ApplicationError(
        "unknown time control", code="invalid", field="time_control",
        allowed=Game.TimeControl.values,
    )  # fmt: skip


def _open_game(game_id: int, user: Any, invite: str | None = None) -> Game:
    """The game locked, if ``user`` may see it (``access``; else the 404 of a missing id, read
    before the lock so that it costs the same) and it is still in the lobby."""
    fetch.game_for(game_id, user, invite=invite)
    game = game_lock(game_id)
    if game.status != Game.Status.OPEN:
        raise ConflictError(
            f"the game is {game.status}; seats are taken in the lobby only (a running game is "
            "joined by taking over an allied army: a 'join' action)",
            code="not_open",
        )
    return game


def game_join(*, game_id: int, user: Any, invite: str = "", client_seed: str = "") -> Seat:
    """Take the first free seat of an open game. A private game needs its invite token: without
    it, 404 as for a missing game (``access``); staff, who see every game, get 403
    ``invite_required``."""
    with transaction.atomic():
        game = _open_game(game_id, user, invite)
        if game.seats.filter(user=user).exists():
            raise ConflictError("you already hold a seat", code="already_seated")
        if not game.public and not access.invite_matches(game, invite):
            raise ForbiddenError("this game is by invitation", code="invite_required",
                                 field="invite")  # fmt: skip
        check_name(user)
        position = _free_position(game)
        lobby_feed.changed(game.pk, public=game.public)
        return Seat.objects.create(
            game=game, position=position, user=user, player=user.get_username(),
            client_seed=client_seed,
        )  # fmt: skip


def check_name(user: Any) -> None:
    """An account named like the server's own seats (made by ``createsuperuser``, which does not
    go through registration) cannot sit: the engine would mistake it for an allied army."""
    if is_reserved_name(user.get_username()):
        raise ApplicationError(
            f"the username {user.get_username()!r} is reserved for the server's own seats",
            code="reserved_username", field="user",
        )  # fmt: skip


def _free_position(game: Game) -> int:
    taken = set(game.seats.values_list("position", flat=True))
    free = [p for p in range(game.seat_count) if p not in taken]
    if not free:
        raise ConflictError("every seat is taken", code="game_full")
    return free[0]


def game_leave(*, game_id: int, user: Any) -> None:
    """Give up one's seat before the start; the creator cancels the game instead."""
    with transaction.atomic():
        game = _open_game(game_id, user)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise ConflictError("you hold no seat in this game", code="not_seated")
        lobby_feed.changed(game.pk, public=game.public)
        if game.creator_id == user.pk:
            game.delete()  # the creator leaving an unstarted game cancels it
            return
        seat.delete()


def game_cancel(*, game_id: int, user: Any) -> None:
    """The creator calls off a game before it starts: the game and its seats are deleted (no
    move was made, so nothing is lost). Anyone else: 403; a started game: 409 ``not_open``."""
    with transaction.atomic():
        game = _open_game(game_id, user)
        if game.creator_id != user.pk:
            raise ForbiddenError(
                f"only the game's creator ({game.creator.get_username()}) may cancel it; "
                "leave it instead to give up your seat",
                code="not_creator",
            )
        lobby_feed.changed(game.pk, public=game.public)
        game.delete()


def game_fill_with_bots(*, game_id: int, user: Any, ai_level: str | None = None) -> list[Seat]:
    """The creator fills every empty seat with a bot, playing at ``ai_level`` if given (the
    game's one AI level: its bots, allied armies and timed-out players)."""
    with transaction.atomic():
        game = _open_game(game_id, user)
        _creator_only(game, user)
        if ai_level is not None and ai_level != game.ai_level:
            game.ai_level = ai_level
            game.save(update_fields=["ai_level"])
        taken = set(game.seats.values_list("position", flat=True))
        bots = [
            Seat(game=game, position=p, user=None, player=f"{BOT_PREFIX}{p + 1}")
            for p in range(game.seat_count)
            if p not in taken
        ]
        lobby_feed.changed(game.pk, public=game.public)
        return Seat.objects.bulk_create(bots)


def _creator_only(game: Game, user: Any) -> None:
    if game.creator_id != user.pk:
        raise ForbiddenError("only the game's creator may do this", code="not_creator")


def game_start(*, game_id: int, user: Any) -> Game:
    """Deal and place the board from the seats in order; the game runs from here."""
    with transaction.atomic():
        game = _open_game(game_id, user)
        _creator_only(game, user)
        return _start(game)


def _start(game: Game) -> Game:
    """Deal the locked open game from its seats; the caller holds ``atomic`` and the lock."""
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    if len(seats) != game.seat_count:
        raise ConflictError(
            f"{game.seat_count - len(seats)} seat(s) are empty: wait for players or fill "
            "them with bots",
            code="seats_empty",
        )
    seed = engine_seed(game.server_seed, [s.client_seed for s in seats])
    state = new_game([s.player for s in seats], seed=seed, options=stored_options(game.options))
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    # Fixed here for good: a bot seat at the start makes the game unrated.
    game.rated = game.rated and all(not s.is_bot for s in seats)
    game.save(update_fields=["status", "started_at", "rated"])
    snapshots.create(game, state, server_turn=bool(clock.answered_by_server(game, state, seats)))
    pieces.create(game, state, seats)
    colours = {seat.id: seat.colour for seat in state.seats}
    for seat in seats:
        seat.colour = colours[seat.player]
    Seat.objects.bulk_update(seats, ["colour"])
    _started(game, state, seats)
    return game


def game_create_seated(
    *,
    creator: Any,
    players: list[Any],
    name: str,
    options: dict[str, Any],
    time_control: str,
    time_per_decision: timedelta | None,
    ai_level: str,
    rated: bool,
    public: bool = True,
    trial: bool = False,
) -> Game:
    """A game dealt at once with ``players`` in its seats, in order (a tournament's table):
    ``None`` is a bot seat. ``creator`` (the tournament's staff) holds no seat. Hints are off:
    a tournament game is the players' own play. The caller holds ``atomic``."""
    chosen = checked_options(options, trial=trial)
    check_seats(chosen, len(players))
    game = Game.objects.create(
        kind=NAUTICAL_RISK, name=name, creator=creator, seat_count=len(players),
        options=chosen.to_dict(), public=public, time_control=time_control,
        time_per_decision=time_per_decision, server_seed=(seed := new_seed()),
        seed_commitment=commitment_of(seed), ai_level=ai_level, ai_delay_ms=settings.AI_DELAY_MS,
        hints=False, rated=rated,
    )  # fmt: skip
    for position, user in enumerate(players):
        if user is not None:
            check_name(user)
        Seat.objects.create(
            game=game, position=position, user=user,
            player=user.get_username() if user is not None else f"{BOT_PREFIX}{position + 1}",
        )  # fmt: skip
    return _start(game_lock(game.pk))


def game_try_map(*, creator: Any, name: str, version: int, seats: int, watch: bool = False) -> Game:
    """Staff try a map version (a trial copy of a draft, or a published one) against bots: a
    private, unrated game, started at once; ``creator`` plays the first seat against bots, or
    (``watch``) only watches a game of bots. Never listed in the lobby (private), never rated."""
    players: list[Any] = [None] * seats if watch else [creator, *[None] * (seats - 1)]
    with transaction.atomic():
        return game_create_seated(
            creator=creator, players=players, name=f"Trying the map {name}@{version}",
            options={"map": name, "map_version": version}, time_control=Game.TimeControl.UNTIMED,
            time_per_decision=None, ai_level="hard", rated=False, public=False, trial=True,
        )  # fmt: skip


def _started(game: Game, state: Any, seats: list[Seat]) -> None:
    """The clock of a game that has just started (no action is logged), and after the commit
    its first push and the driver (bots may set up first)."""
    opening = ActionLog(game=game, sequence=0, actor="", action={"type": "start"})
    change = clock.sync_deadlines(
        game, clock.waited_for(state), {s.player: s for s in seats}, timezone.now()
    )
    change.started = [s for s in seats if s.player in clock.waited_for(state)]
    clock.count_turns(change.started)
    committed = Committed(
        game, opening, state, state, [], seats, change,
        server_answers=bool(clock.answered_by_server(game, state, seats)),
    )  # fmt: skip
    effects.after_commit(committed)
