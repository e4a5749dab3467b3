"""Creating a tournament, entries, withdrawals, removals, stand-ins, the start and cancelling.

Decisions where the issue is silent:

- **Registration** is open from ``registration_opens`` (or at once) until ``registration_closes``
  (or the start) and up to ``max_entrants``. A withdrawal before the start deletes the entry
  (the player may register again); a staff removal keeps it, marked removed, so the player
  cannot simply re-register.
- **Late entries** (Swiss and tables only): ``late_entry_rounds`` is the last round a late
  entrant may start in (0 or 1: none). While the event runs and the next round is no later, a
  player may still register; they are paired from the next round, on no points for the rounds
  missed, seeded after everyone already in.
- **Seeding** at the start: by the rating of the event's kind (Fast Risk 1 v 1, Fast Risk
  tables, or the room's system), unrated players at the system's starting rating, then by
  registration time.
- **Withdrawn or removed during play**: see ``results.resolve_leaver``.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.competition.formats import CLOSED_FORMATS, MAX_FIELD, total_rounds
from games.competition.openskill_rating import DEFAULT_RATING
from games.models import (
    AI_LEVELS,
    Rating,
    Room,
    Tournament,
    TournamentEntrant,
    default_place_points,
)
from games.play import lobby
from games.ratings.rate import GLICKO_START, game_kind_for_seats
from games.rooms import setup as room_setup
from games.tournaments import access, pairing, results
from games.tournaments.log import logged
from games.tournaments.settings import SETTINGS, TABLE_ROUNDS, TournamentSettings, limits
from games.web.exceptions import ApplicationError, ConflictError, NotFoundError
from risk.rules import Options

#: Side names a room tournament gets unless the staff name them: first-named plays the first.
DEFAULT_SIDES = {
    Room.System.AXIS_ALLIES: ["Axis", "Allies"],
    Room.System.WIF: ["Axis", "Allies"],
    Room.System.FRANCE_1944: ["Allies", "Germany"],
}


def tournament_create(*, actor: Any, settings: TournamentSettings) -> Tournament:
    """A new tournament open for registration; every setting checked, the bad one named."""
    access.require_staff(actor)
    s = settings
    name, play, format = str(s.name).strip(), s.play, s.format
    longest = SETTINGS["name"].max_length or 0
    if not 1 <= len(name) <= longest:
        raise ApplicationError(f"a tournament's name is 1-{longest} characters", field="name")
    if Tournament.objects.filter(name=name).exists():
        raise ConflictError("a tournament has that name already", code="name_taken")
    if play not in Tournament.Play.values:
        raise ApplicationError("not a kind of play", field="play", allowed=Tournament.Play.values)
    if format not in Tournament.Format.values:
        raise ApplicationError("not a format", field="format", allowed=Tournament.Format.values)
    fields: dict[str, Any] = {}
    if play == Tournament.Play.FAST_RISK:
        fields["options"] = lobby.checked_options(s.options or {}).to_dict()
        fields["time_control"] = s.time_control
        fields["time_per_decision"] = lobby.allowance(s.time_control, s.minutes, s.days)
        if s.ai_level not in AI_LEVELS:
            raise ApplicationError("not an AI level", field="ai_level", allowed=list(AI_LEVELS))
        fields["ai_level"] = s.ai_level
    else:
        if format == Tournament.Format.TABLES:
            raise ApplicationError(
                "multiplayer tables are Fast Risk games; a room tournament is 1 v 1",
                field="format",
            )
        try:
            rules, edition = room_setup.checked_variant(s.room_system, s.room_rules,
                                                        s.room_edition)  # fmt: skip
            sides = room_setup.checked_sides(s.room_sides or DEFAULT_SIDES[s.room_system])
        except ApplicationError as exc:  # the rooms' checks name "system", "sides.1": ours
            exc.field = f"room_{exc.field}" if exc.field else exc.field
            raise
        if len(sides) != 2:
            raise ApplicationError("a room tournament's rooms have 2 sides", field="room_sides")
        low, high = limits("days_per_turn")
        if s.days_per_turn is not None and not low <= s.days_per_turn <= high:
            raise ApplicationError(f"{low}-{high} days, or none (untimed)", field="days_per_turn")
        fields.update(room_system=s.room_system, room_rules=rules, room_edition=edition,
                      room_sides=sides, days_per_turn=s.days_per_turn)  # fmt: skip
    max_entrants = MAX_FIELD.get(format, 2) if s.max_entrants is None else s.max_entrants
    min_entrants = s.min_entrants
    if min_entrants is None:
        min_entrants = s.table_min if format == Tournament.Format.TABLES else 2
    check_counts(format, min_entrants, max_entrants, s.table_min, s.table_max)
    if play == Tournament.Play.FAST_RISK:
        tables = (s.table_min, s.table_max) if format == Tournament.Format.TABLES else (2, 2)
        for field, seats in zip(("table_min", "table_max"), tables, strict=True):
            lobby.check_seats(Options.from_dict(fields["options"]), seats, field=field)
    rounds = s.rounds
    if format == Tournament.Format.TABLES and rounds is None:
        rounds = TABLE_ROUNDS
    _check_rounds(format, rounds, s.late_entry_rounds)
    points = _checked_points(s.place_points, s.table_max)
    registration_opens, registration_closes = s.registration_opens, s.registration_closes
    if registration_opens and registration_closes and registration_closes <= registration_opens:
        raise ApplicationError("registration must close after it opens",
                               field="registration_closes")  # fmt: skip
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name=name, play=play, format=format, created_by=actor,
                description=str(s.description)[: SETTINGS["description"].max_length],
                rated=bool(s.rated), registration_opens=registration_opens,
                registration_closes=registration_closes, min_entrants=min_entrants,
                max_entrants=max_entrants, rounds=rounds, table_min=s.table_min,
                table_max=s.table_max, place_points=points,
                late_entry_rounds=s.late_entry_rounds, auto_pair=bool(s.auto_pair),
                **fields,
            )  # fmt: skip
            logged(tournament, actor, "created", play=play, format=format)
    except IntegrityError as exc:  # the same name, created by another request just now
        raise ConflictError("a tournament has that name already", code="name_taken") from exc
    return tournament


def check_counts(fmt: str, low: int, high: int, table_min: int, table_max: int) -> None:
    fewest, most = limits("max_entrants")
    if not (isinstance(low, int) and isinstance(high, int) and fewest <= low <= high <= most):
        raise ApplicationError(f"{fewest} <= min_entrants <= max_entrants <= {most}",
                               field="max_entrants" if isinstance(low, int) and low >= fewest
                               else "min_entrants")  # fmt: skip
    if not (isinstance(table_min, int) and isinstance(table_max, int)):
        raise ApplicationError("whole numbers", field="table_min")
    smallest, largest = limits("table_min")
    if not smallest <= table_min <= table_max <= largest:
        raise ApplicationError(f"tables seat {smallest} <= table_min <= table_max <= {largest}",
                               field="table_min")  # fmt: skip
    if fmt in MAX_FIELD and high > MAX_FIELD[fmt]:
        raise ApplicationError(f"a {fmt} event takes at most {MAX_FIELD[fmt]} entrants",
                               field="max_entrants")  # fmt: skip
    if fmt == Tournament.Format.TABLES and low < table_min:
        raise ApplicationError(f"a tables event needs at least {table_min} entrants",
                               field="min_entrants")  # fmt: skip


def _check_rounds(fmt: str, rounds: int | None, late: int) -> None:
    if fmt in CLOSED_FORMATS:
        if rounds is not None:
            raise ApplicationError(f"a {fmt} event's rounds follow from its field",
                                   field="rounds")  # fmt: skip
        if late:
            raise ApplicationError(f"a {fmt} event's field is fixed at the start",
                                   field="late_entry_rounds")  # fmt: skip
        return
    fewest, most = limits("rounds")
    if rounds is not None and not (isinstance(rounds, int) and fewest <= rounds <= most):
        raise ApplicationError(f"{fewest}-{most} rounds", field="rounds")
    if not (isinstance(late, int) and 0 <= late <= (rounds or limits("late_entry_rounds")[1])):
        raise ApplicationError("0 up to the number of rounds", field="late_entry_rounds")


def _checked_points(points: list[float] | None, table_max: int) -> list[float]:
    if points is None:
        return default_place_points()
    low, high = limits("place_points")
    if not isinstance(points, list) or len(points) < table_max:
        raise ApplicationError(f"points for each of {table_max} places", field="place_points")
    for i, p in enumerate(points):
        if isinstance(p, bool) or not isinstance(p, int | float) or not low <= p <= high:
            raise ApplicationError(f"a number {low}-{high}", field=f"place_points.{i}")
        if i and p > points[i - 1]:
            raise ApplicationError("a place never scores more than the one above it",
                                   field=f"place_points.{i}")  # fmt: skip
    return [float(p) for p in points]


# --- players ------------------------------------------------------------------------------------


def register(*, tournament_id: int, user: Any) -> TournamentEntrant:
    """Enter ``user``: during registration, or as a late entry where the format allows."""
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        lobby.check_name(user)
        if tournament.entrants.filter(user=user).exists():
            raise ConflictError("you are entered already", code="already_entered")
        if (
            tournament.play == Tournament.Play.ROOM
            and tournament.rated
            and user.pk == tournament.created_by_id
        ):  # its rooms' referee (rooms.setup.room_create_seated): a rated room's plays no side
            raise ConflictError(
                "the tournament's creator referees its rated rooms and plays in none",
                code="referee_plays",
            )
        now = timezone.now()
        first_round = 1
        if tournament.status == Tournament.Status.RUNNING:
            if tournament.current_round + 1 > tournament.late_entry_rounds:
                raise ConflictError("entries are closed: the event is under way",
                                    code="registration_closed")  # fmt: skip
            first_round = tournament.current_round + 1
        elif tournament.status != Tournament.Status.REGISTRATION:
            raise ConflictError(
                f"the tournament is {tournament.status}", code="registration_closed"
            )
        elif tournament.registration_opens and now < tournament.registration_opens:
            raise ConflictError("registration has not opened yet", code="registration_not_open")
        elif tournament.registration_closes and now >= tournament.registration_closes:
            raise ConflictError("registration has closed", code="registration_closed")
        if tournament.entrants.count() >= tournament.max_entrants:
            raise ConflictError(f"the field is full ({tournament.max_entrants})", code="full")
        entrant = TournamentEntrant.objects.create(
            tournament=tournament, user=user, first_round=first_round
        )
        if first_round > 1:
            last = max((e.seed or 0 for e in tournament.entrants.all()), default=0)
            entrant.seed, entrant.rating = last + 1, _rating_of(tournament, user.pk)
            entrant.save(update_fields=["seed", "rating"])
            logged(tournament, user, "late_entry", user=user.get_username(), round=first_round)
        return entrant


def withdraw(*, tournament_id: int, user: Any) -> None:
    """A player leaves the event (``results.resolve_leaver`` settles their unfinished games)."""
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        entrant = tournament.entrants.filter(user=user).first()
        if entrant is None or not entrant.active:
            raise ConflictError("you are not in this tournament", code="not_entered")
        _leave(tournament, entrant, TournamentEntrant.Status.WITHDRAWN, "withdrew", user)


def entrant_remove(*, actor: Any, tournament_id: int, username: str, reason: str = "") -> None:
    """Staff remove a player: no more pairings, unfinished games resolved by the stated rule."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        entrant = _entrant(tournament, username)
        if not entrant.active:
            raise ConflictError(f"{username} is {entrant.status} already", code="not_active")
        _leave(tournament, entrant, TournamentEntrant.Status.REMOVED, reason.strip()[:200], actor)


def _leave(
    tournament: Tournament, entrant: TournamentEntrant, status: str, reason: str, actor: Any
) -> None:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ConflictError(f"the tournament is {tournament.status}", code="tournament_over")
    who = entrant.user.get_username()
    if tournament.status == Tournament.Status.REGISTRATION and status == "withdrawn":
        entrant.delete()
        logged(tournament, actor, "withdrew", user=who)
        return
    entrant.status, entrant.left_at, entrant.left_reason = status, timezone.now(), reason
    entrant.save(update_fields=["status", "left_at", "left_reason"])
    logged(tournament, actor, "withdrew" if status == "withdrawn" else "removed",
           user=who, reason=reason)  # fmt: skip
    if tournament.status == Tournament.Status.RUNNING:
        results.resolve_leaver(tournament, entrant)


def stand_in(*, actor: Any, tournament_id: int, username: str, on: bool = True) -> None:
    """Staff let a bot play a Fast Risk entrant's seats from the next pairing (games unrated)."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        if tournament.play != Tournament.Play.FAST_RISK:
            raise ApplicationError("bots play Fast Risk only; a room's result is entered",
                                   field="username")  # fmt: skip
        entrant = _entrant(tournament, username)
        entrant.bot_stands_in = bool(on)
        entrant.save(update_fields=["bot_stands_in"])
        logged(tournament, actor, "stand_in", user=username, on=bool(on))


def _entrant(tournament: Tournament, username: str) -> TournamentEntrant:
    entrant = tournament.entrants.select_related("user").filter(user__username=username).first()
    if entrant is None:
        raise NotFoundError(f"{username!r} is not entered", field="username")
    return entrant


# --- the start ----------------------------------------------------------------------------------


def tournament_start(*, actor: Any, tournament_id: int) -> Tournament:
    """Close registration, seed the field by rating and pair round 1."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise ConflictError(f"the tournament is {tournament.status}", code="not_registration")
        entrants = list(tournament.entrants.select_related("user").filter(status="active"))
        if len(entrants) < tournament.min_entrants:
            raise ConflictError(
                f"{len(entrants)} entrants; the tournament needs {tournament.min_entrants}",
                code="too_few_entrants",
            )
        for e in entrants:
            e.rating = _rating_of(tournament, e.user_id)
        entrants.sort(key=lambda e: (-(e.rating or 0.0), e.entered_at, e.pk))
        for number, e in enumerate(entrants, start=1):
            e.seed = number
        TournamentEntrant.objects.bulk_update(entrants, ["seed", "rating"])
        tournament.rounds = total_rounds(tournament.format, len(entrants), tournament.rounds)
        tournament.status, tournament.started_at = Tournament.Status.RUNNING, timezone.now()
        tournament.save(update_fields=["rounds", "status", "started_at"])
        logged(tournament, actor, "started", entrants=len(entrants), rounds=tournament.rounds)
        pairing.pair_next(tournament, actor)
    return tournament


def tournament_cancel(*, actor: Any, tournament_id: int, reason: str = "") -> Tournament:
    """Staff call the event off: no champion; games under way play on as ordinary games."""
    access.require_staff(actor)
    with transaction.atomic():
        tournament = access.locked(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise ConflictError(f"the tournament is {tournament.status}", code="tournament_over")
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        logged(tournament, actor, "cancelled", reason=reason.strip()[:200])
    return tournament


def rating_kind(tournament: Tournament) -> str:
    """The rating an event seeds by: its rooms' system, or the Fast Risk kind of its tables."""
    if tournament.play == Tournament.Play.ROOM:
        return tournament.room_system
    seats = 3 if tournament.format == Tournament.Format.TABLES else 2
    return game_kind_for_seats(seats)


def _rating_of(tournament: Tournament, user_id: int) -> float:
    kind = rating_kind(tournament)
    found = Rating.objects.filter(user_id=user_id, kind=kind).values_list("rating", flat=True)
    if found:
        return float(found[0])
    if kind == Rating.Kind.FAST_RISK_MULTI:
        return float(DEFAULT_RATING[0])
    return GLICKO_START[0]
