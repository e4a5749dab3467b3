"""Email to players: "your turn" with what happened since, the deadline reminder, game over.

Mail goes through Django's email backend (the console in the embedded default, SMTP from
``EMAIL_URL``), one message per recipient so nobody sees another player's address. Bodies are
plain-text templates under ``games/templates/games/email/``.

Who gets mail: a person (never a bot) with an email address who has not opted out of that kind
in their ``Profile``. "Your turn" is also not sent to a player connected to the game's socket
right now (``games.play.presence``): they see the game move live. Nor is it sent when the
game is no longer waiting for them by the time the task runs (a worker that ran late, a player
who played over HTTP at once): a "your turn" that is already over only confuses.

The summary is the log after ``Seat.last_seen_sequence`` exactly as that player may see it
(``shown.log_for``: other players' cards stripped), one line per thing a player cares about
(a battle is one line with its losses and outcome, not one per roll), with a generic line for any
action the formatter does not know. The seat's mark moves on once a mail is sent (or the player
was watching live), so the next summary starts where this one ended.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db.models import Subquery
from django.db.models.functions import Greatest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.timesince import timeuntil

from games.mail.core import address as reply_address
from games.models import Deadline, Game, GameSnapshot, Profile, Seat
from games.notifications.dispatch import Notice, deliver
from games.notifications.kinds import Channel, Kind
from games.play import clock, presence
from games.play.reads import shown
from games.play.reads.fetch import game_state
from games.protocol.events import EVENTS, QUIET_ACTIONS
from games.protocol.text import Unrendered, render
from risk.rules import GameState
from risk.rules.notation import legal_moves_text
from risk.rules.vocabulary import DecisionKind

logger = logging.getLogger(__name__)

#: Log entries a "your turn" summary covers at most (the newest); the game page has the rest.
SUMMARY_ENTRIES = 300
#: Lines a summary shows at most (the newest).
SUMMARY_LINES = 60
#: Lines of legal moves a "your turn" mail lists at most (one per kind of action: a handful).
MOVES_LINES = 30


# --- "your turn" ----------------------------------------------------------------------------


def your_turn(game_id: int, seat_ids: Iterable[int]) -> int:
    """Tell each of ``seat_ids`` that the game waits for them, by the channel each chose
    (``games.notifications``): a push, or the mail with the summary; the number told."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return 0  # a finished game gets its game-over mail instead
    state = game_state(game)
    waiting = clock.waited_for(state)
    seats = Seat.objects.filter(game=game, pk__in=list(seat_ids)).select_related("user__profile")
    names = display_names(game)
    notices: list[Notice] = []
    told_seats: list[Seat] = []
    marks: dict[int, int] = {}
    for seat in seats:
        if seat.user is None or seat.player not in waiting or seat.state == Seat.State.LEFT:
            continue
        if presence.presence_is_connected(game.pk, seat.user_id):
            # Watching live: they have seen everything up to now.
            _mark_seen(seat, game.version)
            continue
        decision = decision_text(waiting[seat.player])
        notices.append(
            Notice(
                user=seat.user,
                kind=Kind.YOUR_TURN,
                title=f"Your turn in {game}",
                text=f"It is your turn: {decision}.",
                url=f"/games/{game.pk}",
                tag=f"game-{game.pk}-turn",
                mail=partial(_your_turn_mail, game, state, seat, names, decision, marks),
            )
        )
        told_seats.append(seat)
    told = 0
    for seat, done in zip(told_seats, deliver(notices), strict=True):
        told += done.ok
        if done.ok and done.channel == Channel.EMAIL:
            _mark_seen(seat, marks[seat.pk])  # the next summary starts where this one ended
    return told


def _your_turn_mail(
    game: Game,
    state: GameState,
    seat: Seat,
    names: Mapping[str, str],
    decision: str,
    marks: dict[int, int],
) -> EmailMessage:
    """The "your turn" mail of ``seat``: what happened since its last one, its legal moves, the
    deadline; ``marks`` gets the log sequence the summary ends at (the seat's next mark)."""
    after = max(seat.last_seen_sequence, game.version - SUMMARY_ENTRIES)
    log = shown.log_for(game, seat.user, after=after, limit=SUMMARY_ENTRIES)
    lines = summary_lines(log["entries"], names)
    skipped = max(0, len(lines) - SUMMARY_LINES)
    context = {
        **_common(game, seat),
        "lines": lines[skipped:],
        "skipped": skipped,
        "earlier": after > seat.last_seen_sequence,
        "decision": decision,
        "deadline": _deadline_context(seat),
        **moves_context(state, seat.player),
    }
    marks[seat.pk] = log["last"]
    assert seat.user is not None
    return compose("your_turn", context, seat.user.email, reply_to=reply_to(seat))


def seen_everything(game_id: int, user_id: int) -> int:
    """A player closed their last socket on the game: they watched it live until now, so a
    later "your turn" summary starts here (no mail was even queued while they watched: see
    ``effects.your_turn_seats``). The seats updated (one UPDATE).

    A game still in the lobby has no state row, so nothing to have seen: the subquery would be
    NULL, and SQLite's ``MAX`` (what ``Greatest`` is there) of anything and NULL is NULL, which
    the NOT NULL column refuses. Only seats of a started game are updated.
    """
    version = GameSnapshot.objects.filter(pk=game_id).values("version")[:1]
    return Seat.objects.filter(
        game_id=game_id, user_id=user_id, game__snapshot__isnull=False
    ).update(last_seen_sequence=Greatest("last_seen_sequence", Subquery(version)))


def _mark_seen(seat: Seat, sequence: int) -> None:
    # An UPDATE of the one column: the seat's timeouts/state may be changing at the same moment.
    Seat.objects.filter(pk=seat.pk, last_seen_sequence__lt=sequence).update(
        last_seen_sequence=sequence
    )


def reply_to(seat: Seat) -> str:
    """The signed reply address of ``seat``'s current turn (``games.mail.core.address``): a reply
    to it is applied as that player's moves (``games.mail.intake``) while this turn lasts."""
    return reply_address.build(
        reply_key(),
        settings.MAIL_REPLY_DOMAIN,
        reply_address.ReplyAddress(seat.game_id, seat.position, seat.turns),
    )


def reply_key() -> bytes:
    return reply_address.derive_key(settings.SECRET_KEY)


def moves_context(state: GameState, player: str) -> dict[str, Any]:
    """The player's legal moves in the mail notation (``risk.rules.notation``), at most
    ``MOVES_LINES`` of them (the number left out is said)."""
    moves = legal_moves_text(state, player)
    return {
        "moves": moves[:MOVES_LINES],
        "more_moves": max(0, len(moves) - MOVES_LINES),
        "rules_url": f"{settings.SITE_URL.rstrip('/')}/rules",
    }


def decision_text(kind: str) -> str:
    """What a decision asks of the player, in words ("place your reinforcements")."""
    texts: dict[str, str] = {
        DecisionKind.ARRANGE: "set up your armies",
        "setup": "place your starting armies",  # not a DecisionKind: no Decision has it now
        DecisionKind.REINFORCE: "place your reinforcements",
        DecisionKind.CAMPAIGN: "attack or end your campaign",
        DecisionKind.END: "move armies and end your turn",
        DecisionKind.MOBILIZE: "mobilize your defence",
        DecisionKind.JOIN_DEFENCE: "decide whether to join the defence",
        DecisionKind.CHALLENGE: "challenge the alliance or let it pass",
        DecisionKind.ANSWER: "answer the challenge",
        DecisionKind.POKER: "play your poker hand",
        DecisionKind.BATTLE_ROLLING: "roll, or call off your attack",
        DecisionKind.BATTLE_WON: "move into the territory you took",
        DecisionKind.BATTLE_PRIZES: "decide about the ships you captured",
    }
    return texts.get(kind, kind.replace("battle:", "battle: ").replace("_", " "))


# --- the deadline reminder --------------------------------------------------------------------


def reminder(deadline: Deadline) -> int:
    """Tell the player of ``deadline`` that time is running out, by the channel they chose
    (a push or the mail); 0 or 1."""
    seat = deadline.seat
    user = seat.user
    if user is None:
        return 0
    game = deadline.game
    context = {**_common(game, seat), "deadline": _deadline_context(seat, deadline)}
    notice = Notice(
        user=user,
        kind=Kind.DEADLINE,
        title=f"{_left(deadline)} left in {game}",
        text=f"Your deadline is {_when(deadline.due_at)}; then the bot plays for you.",
        url=f"/games/{game.pk}",
        tag=f"game-{game.pk}-deadline",
        mail=lambda: _message("reminder", context, user.email),
    )
    return sum(done.ok for done in deliver([notice]))


# --- you were attacked ------------------------------------------------------------------------


def attacked(game_id: int, attacks: Iterable[Mapping[str, Any]]) -> int:
    """Tell each defender of ``attacks`` (events ``attack``/``naval_attack`` as the log holds
    them: public, everyone saw them) who is a person and not watching the game that they were
    attacked; one notice per defender, naming the first attack. The number told."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return 0
    first: dict[str, Mapping[str, Any]] = {}
    for attack in attacks:
        first.setdefault(str(attack.get("defender")), attack)
    seats = game.seats.filter(player__in=list(first), user__isnull=False).select_related(
        "user__profile"
    )
    names = display_names(game)
    notices = []
    for seat in seats:
        if seat.state == Seat.State.LEFT or presence.presence_is_connected(game.pk, seat.user_id):
            continue
        attack = first[seat.player]
        attacker = names.get(str(attack.get("attacker")), str(attack.get("attacker")))
        what = "ship" if attack.get("type") == "naval_attack" else "territory"
        text = f"{attacker} attacked your {what} {attack.get('target')}."
        url = f"/games/{game.pk}"
        context = {**_common(game, seat), "text": text}
        notices.append(
            Notice(
                user=seat.user,
                kind=Kind.ATTACKED,
                title=f"Attacked in {game}",
                text=text,
                url=url,
                tag=f"game-{game.pk}-attacked",
                mail=partial(_message, "attacked", context, seat.user.email),
            )
        )
    return sum(done.ok for done in deliver(notices))


# --- game over --------------------------------------------------------------------------------


def game_over(game_id: int) -> int:
    """Mail every person who held a seat the result; the number of mails sent."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return 0
    names = display_names(game)
    result = game.result or {}
    winner = result.get("winner")
    ranking = [names.get(p, p) for p in result.get("ranking") or []]
    messages = []
    for seat in game.seats.select_related("user__profile"):
        if seat.user is None or not _wants(seat.user, "email_game_over"):
            continue
        context = {
            **_common(game, seat),
            "winner": names.get(winner, winner) if winner else None,
            "you_won": winner is not None and winner == seat.player,
            "ranking": ranking,
            "ended_by_admin": result.get("ended_by") == "admin",
            "reason": result.get("reason", ""),
        }
        messages.append((seat, 0, _message("game_over", context, seat.user.email)))
    return sum(ok for _, _, ok in _send_all(messages))


# --- the summary ------------------------------------------------------------------------------


def display_names(game: Game) -> dict[str, str]:
    """Rules-state names (usernames, ``bot:<n>``) -> what players call each other."""
    names = {}
    for seat in game.seats.select_related("user__profile"):
        profile = getattr(seat.user, "profile", None) if seat.user is not None else None
        names[seat.player] = (profile.display_name if profile else "") or seat.player
    return names


def summary_lines(entries: Iterable[Mapping[str, Any]], names: Mapping[str, str]) -> list[str]:
    """Readable lines for log entries as ``shown.log_for`` returns them (already filtered)."""

    def name(value: Any) -> str:
        return names.get(value, str(value)) if value is not None else "nobody"

    lines: list[str] = []
    battle: dict[str, Any] | None = None
    timed_out: str | None = None
    for entry in entries:
        actor = entry.get("actor", "")
        if entry.get("source") == "timeout" and timed_out != actor:
            lines.append(f"{name(actor)} ran out of time: the bot played for them")
        timed_out = actor if entry.get("source") == "timeout" else None
        told = len(lines)
        for event in entry.get("events") or []:
            kind = event.get("type")
            if kind in ("attack", "naval_attack"):
                sources = event.get("flanks") or event.get("ships") or []
                battle = {
                    "attacker": name(event.get("attacker")),
                    "defender": name(event.get("defender")),
                    "target": event.get("target"),
                    "from": ", ".join(sorted({str(s[0]) for s in sources})) or "the sea",
                    "lost": 0,
                    "killed": 0,
                    "outcome": "",
                }
            elif kind == "roll" and battle is not None:
                battle["lost"] += int(event.get("attacker_losses") or 0)
                battle["killed"] += int(event.get("defender_losses") or 0)
            elif kind == "conquered" and battle is not None:
                battle["outcome"] = f"took it, moving in {event.get('armies')}"
            elif kind == "battle_lost" and battle is not None:
                battle["outcome"] = "the attack failed"
            elif kind == "retreat" and battle is not None:
                battle["outcome"] = "called off the attack"
            elif kind == "battle_over" and battle is not None:
                lines.append(_battle_line(battle, bool(event.get("success"))))
                battle = None
            elif (summary := _summary_of(kind)) is not None:
                lines.append(_event_line(kind, summary, event, name))
        action = entry.get("action") or {}
        if len(lines) == told and battle is None and action.get("type") not in QUIET_ACTIONS:
            lines.append(f"{name(actor)}: {str(action.get('type', 'action')).replace('_', ' ')}")
    return lines


def _battle_line(battle: Mapping[str, Any], success: bool) -> str:
    outcome = battle["outcome"] or ("won" if success else "the attack failed")
    return (
        f"{battle['attacker']} attacked {battle['target']} ({battle['defender']}) from "
        f"{battle['from']}: lost {battle['lost']}, defender lost {battle['killed']}; {outcome}"
    )


def _summary_of(kind: Any) -> str | None:
    """The digest's line of an event type (``games.protocol.events``), None for one without."""
    definition = EVENTS.get(str(kind))
    return definition.summary if definition is not None else None


def _event_line(kind: str, summary: str, event: Mapping[str, Any], name: Any) -> str:
    try:
        return render(summary, event, lambda key, value: name(value) if key in _PEOPLE else value)
    except (Unrendered, TypeError, ValueError):  # an event of an older shape: say what it was
        return kind.replace("_", " ")


#: Event fields that name a seat (shown by display name).
_PEOPLE = frozenset({"seat", "player", "by", "owner", "ally", "winner", "attacker", "defender"})


# --- shared -----------------------------------------------------------------------------------


def game_url(game: Game) -> str:
    return f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}"


def _common(game: Game, seat: Seat) -> dict[str, Any]:
    return {
        "game": game,
        "game_name": str(game),
        "url": game_url(game),
        "name": person_name(seat),
        "preferences_url": f"{settings.SITE_URL.rstrip('/')}/settings",
    }


def person_name(seat: Seat) -> str:
    """What the player of ``seat`` is called in mail (their display name, else the seat)."""
    profile = getattr(seat.user, "profile", None)
    return (profile.display_name if profile else "") or seat.player


def _deadline_context(seat: Seat, deadline: Deadline | None = None) -> dict[str, Any] | None:
    if deadline is None:
        deadline = Deadline.objects.filter(seat=seat, status=Deadline.Status.OPEN).first()
    if deadline is None:
        return None
    return {"due_at": deadline.due_at, "when": _when(deadline.due_at), "left": _left(deadline)}


def _when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _left(deadline: Deadline) -> str:
    now = timezone.now()
    seconds = round((deadline.due_at - now).total_seconds())
    if seconds < 60:  # timeuntil says "0 minutes"; a 1-minute live game is reminded at 12 s
        seconds = max(seconds, 0)
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    # To the nearest minute: "2 days", not "1 day, 23 hours" a moment after the deadline opened.
    rounded = now + timedelta(minutes=round(seconds / 60))
    # timeuntil joins with non-breaking spaces, which plain-text mail shows as odd bytes.
    return timeuntil(rounded, now, depth=2).replace("\xa0", " ")


def _wants(user: Any, flag: str) -> bool:
    """A person with an address who has not opted out of this kind of mail."""
    if not user.email or not user.is_active:
        return False
    profile = Profile.objects.filter(user=user).first()
    return profile is None or bool(getattr(profile, flag))


def _message(kind: str, context: Mapping[str, Any], to: str) -> EmailMessage:
    return compose(kind, context, to)


def compose(
    kind: str,
    context: Mapping[str, Any],
    to: str,
    *,
    reply_to: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> EmailMessage:
    """The mail ``kind`` (templates ``games/email/<kind>.txt`` and ``<kind>_subject.txt``)."""
    subject = render_to_string(f"games/email/{kind}_subject.txt", context)
    body = render_to_string(f"games/email/{kind}.txt", context)
    subject = " ".join(subject.split())  # a header is one line
    return EmailMessage(
        subject, body, settings.DEFAULT_FROM_EMAIL, [to],
        reply_to=[reply_to] if reply_to else None, headers=dict(headers or {}),
    )  # fmt: skip


def _send_all(
    messages: list[tuple[Seat, int, EmailMessage]],
) -> Iterable[tuple[Seat, int, bool]]:
    """Send each message on one connection; a refused address does not stop the others."""
    if not messages:
        return []
    results = []
    with get_connection() as connection:
        for seat, mark, message in messages:
            message.connection = connection
            try:
                results.append((seat, mark, message.send() == 1))
            except Exception:  # SMTP refusals come in many classes; log, and mail the rest
                logger.exception("mail to seat %s of game %s failed", seat.pk, seat.game_id)
                results.append((seat, mark, False))
    return results
