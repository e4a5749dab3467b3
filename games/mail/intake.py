"""Moves by email: one service for every way a reply arrives (webhook, IMAP, Maildir).

``receive_mail(raw)`` reads a whole MIME message and, if it answers a "your turn" mail, applies
its lines as that player's actions through the same write path as ``POST
/api/games/{id}/actions`` (``submit.action_submit``), then mails one answer.

Each mail on its own (decided: one mail can never stop the others): ``receive_mail`` does not
raise for anything in the mail. A mail that breaks a rule of ``games.mail.core.limits`` (size,
header size, nesting, parts; checked on the raw bytes before any parser runs) is *parked* unread,
and so is one whose processing fails in any way (a shape of the email package's parser the limits
do not foresee, a bug of ours): an ``InboundMail`` row with outcome ``parked`` and the reason,
the traceback in the log. It raises only when even that row cannot be written (the database is
unreachable): then the caller keeps the mail and tries again later (``fetch_mail`` leaves it in
``new/``, the webhook answers 503 so the provider retries).

The checks, in order, each refusing the whole mail (nothing applied) with an answer saying why:

1. size and shape (``limits.refusal``): over a limit the mail is parked unread, and a registered
   sender is told which limit;
2. replay: a Message-ID already processed (``InboundMail``, unique on it) is not read again; one
   being read by another delivery at this moment is left to it (no answer from this one);
3. the address: one of To/Cc/Delivered-To/X-Original-To/Envelope-To must be a reply address of
   ours (``games.mail.core.address``) with a valid signature; a forged one is refused;
4. the sender (decided): the From address must be the seat's player's account email (compared
   case-insensitively). A mail from anyone else is refused even with a valid address (a reply
   forwarded to a friend does not let the friend play), and the refusal goes to the player, not
   to the stranger. From can be forged; the signed address is the real secret, From a second
   lock against a leaked address;
5. the turn: the game must still be running, the address's turn must be the seat's current one
   (``Seat.turns``) and the game must still wait for the player; a reply after the turn passed
   is refused.

A mail to a room's reply address (``room+...``: on every mail a room sends a side) passes the
same size, replay and signature checks, then goes to ``rooms.by_mail`` (the sender, the posts,
the answer are decided there).

For a game, the mail is claimed before anything is applied (an ``InboundMail`` row with outcome
``reading``, unique on the Message-ID's key, as the rooms' path does): of two deliveries of one
mail at once (two web processes), one claims it, applies its lines and answers with what
happened; the other reads nothing and sends nothing. The row gets the outcome once the lines are
done. If the process dies between the claim and the outcome, a later
delivery of that mail within ``CLAIM_TIMEOUT`` is not read; a later one takes the claim over
and reads the mail again (its lines' idempotency keys keep what was applied from applying
twice), so nothing stays claimed for good.

For a game, the reply's own text (quoted thread and signature cut, ``reading.reply_text``) is
read line by line (``reading.move_lines``: blank lines and ``#`` lines skipped, at most
``reading.MAX_MOVES``): each line is parsed in the notation (``risk.rules.notation``) against the
state as it is at that moment and submitted with ``expected_version`` the version it was parsed
against and an idempotency key from the Message-ID and line number, so a mail delivered twice
(a provider's retry after a crash) applies nothing twice. The first refused line stops the rest.
Each line is its own transaction, as each REST action is: the lines before a refusal stay
applied, and the answer lists them. Decided: a mail plays within the Fast Risk turn it answers;
once a new turn begins (after ``end turn``, or when the set-up ends), its remaining lines are not
applied, since they were written before the player saw the other players move (``_TurnWatch``).

Who gets answers (decided, against backscatter): the seat's player once the address is verified;
before that (forged address, replay, too big) only a registered active user whose email is the
sender, never an unknown address. Mail that is not addressed to a reply address at all is
ignored (logged, no answer). Answers are not throttled by the actions' rate limit: a mail carries
at most ``MAX_MOVES`` lines and needs a valid signed address for a turn still going on.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.mail.core import address as reply_address
from games.mail.core import limits, reading
from games.models import ActionLog, Game, InboundMail, Seat
from games.play import clock, notify, submit
from games.play.reads.fetch import game_state
from games.rooms import by_mail
from games.web.exceptions import ApplicationError
from risk.rules import InvalidAction
from risk.rules.notation import parse_action as parse_move

logger = logging.getLogger(__name__)

#: Times a line is read again when another action committed between its parse and its write.
STALE_RETRIES = 2


@dataclass(frozen=True)
class InboundResult:
    """What became of one mail: for the entry points' logs and for tests."""

    #: ``applied`` (every line, maybe none), ``partly`` (some, then a refusal), ``refused``
    #: (nothing applied), ``ignored`` (not a reply to us, or unreadable: no answer sent),
    #: ``parked`` (not read: over a limit, or its processing failed; ``refusal`` says which).
    outcome: str
    applied: tuple[str, ...] = ()
    refused_line: str | None = None
    refusal: str | None = None
    game_id: int | None = None
    #: Whether an answer mail was sent.
    answered: bool = False
    #: For a reply to a room's mail: the room (its posts are in ``applied``).
    room_id: int | None = None


#: After this long, a game mail's claim (``reading``) is taken to be left by a delivery that
#: stopped, and a new delivery of the mail takes it over (a mail's 40 lines take seconds).
CLAIM_TIMEOUT = timedelta(minutes=10)

#: Why a second delivery of a mail being read at this moment reads nothing.
BEING_READ = "another delivery of this mail is being read at this moment: it answers"


@dataclass
class _Progress:
    """How far ``_receive`` got with a mail: the record's key once known, for parking."""

    key: str | None = None


@dataclass
class _Answer:
    to: str
    name: str
    subject: str
    message_id: str
    context: dict[str, Any] = field(default_factory=dict)
    reply_to: str | None = None


def receive_mail(raw: bytes) -> InboundResult:
    """Read ``raw`` (a whole RFC 5322 message) and act on it as described in the module; a
    failure parks the mail (never raised) unless the record of it cannot be written."""
    progress = _Progress()
    try:
        return _receive(raw, progress)
    except Exception as exc:
        return _park_failed(raw, progress, exc)


def _receive(raw: bytes, progress: _Progress) -> InboundResult:
    reason = limits.refusal(raw)
    if reason is not None:
        return _park_unread(raw, reason)
    try:
        mail = reading.read_mail(raw)
    except (reading.UnreadableMail, ValueError) as exc:
        logger.info("inbound mail ignored: %s", exc)
        return InboundResult("ignored", refusal=str(exc))
    key = progress.key = hashlib.sha256(mail.message_id.encode("utf-8")).hexdigest()
    seen = InboundMail.objects.filter(key=key).values_list("outcome", flat=True).first()
    taken_over = seen == InboundMail.Outcome.READING and _take_over(key)
    if seen == InboundMail.Outcome.READING and not taken_over:
        logger.info("inbound mail %s: %s", mail.message_id, BEING_READ)
        return InboundResult("refused", refusal=BEING_READ)
    if seen is not None and not taken_over:
        return _refuse_stranger(
            mail, f"this mail ({mail.message_id}) was already processed: nothing is applied twice"
        )
    try:
        address = _our_address(mail)
    except reply_address.ForgedAddress as exc:
        return _refuse_stranger(mail, f"{exc}: it is not an address this server gave out")
    if address is None:
        logger.info("inbound mail %s is not addressed to a reply address", mail.message_id)
        return InboundResult("ignored", refusal="not addressed to a reply address")
    if isinstance(address, reply_address.RoomAddress):
        return _to_room(mail, key, address)
    seat = (
        Seat.objects.select_related("game", "user")
        .filter(game_id=address.game, position=address.seat)
        .first()
    )
    if seat is None or seat.user is None:
        return _refuse_stranger(mail, "the game or seat of this reply address no longer exists")
    game, user = seat.game, seat.user
    if not taken_over and not _claim(mail, key, seat):
        logger.info("inbound mail %s: %s", mail.message_id, BEING_READ)
        return InboundResult("refused", refusal=BEING_READ, game_id=game.pk)
    answer = _Answer(
        to=user.email, name=notify.person_name(seat), subject=mail.subject,
        message_id=mail.message_id,
        context={"game_name": str(game), "url": notify.game_url(game)},
    )  # fmt: skip
    if not user.email or user.email.strip().lower() != mail.sender:
        reason = (
            f"a mail from {mail.sender} to your reply address was refused: only mail from "
            "your account's address is played"
        )
        return _finish(mail, key, seat, answer, (), None, reason)
    refusal = _turn_refusal(game, seat, address.turn)
    if refusal is not None:
        return _finish(mail, key, seat, answer, (), None, refusal)
    lines = reading.move_lines(reading.reply_text(mail.text))
    applied, refused_line, reason, not_read = _apply_lines(game, seat, user, lines, key)
    answer.context["not_read"] = not_read
    return _finish(mail, key, seat, answer, applied, refused_line, reason)


def _claim(mail: reading.InboundMail, key: str, seat: Seat) -> bool:
    """Claim the mail for this delivery (its row, outcome ``reading``); ``False`` if another
    delivery of it made the row first."""
    try:
        with transaction.atomic():
            InboundMail.objects.create(
                message_id=mail.message_id, key=key, sender=mail.sender, game=seat.game,
                seat=seat, outcome=InboundMail.Outcome.READING,
            )  # fmt: skip
    except IntegrityError:
        return False
    return True


def _take_over(key: str) -> bool:
    """Take over a game mail's claim left by a delivery that stopped (older than
    ``CLAIM_TIMEOUT``: the process died between the claim and the outcome); ``True`` if this
    delivery now holds it. Safe for a game: its lines carry idempotency keys, so the lines the
    stopped delivery applied are answered as applied, not applied again. Never for a room's
    mail (its posts have no such keys): that claim stays, as the rooms' path decided."""
    stale = timezone.now() - CLAIM_TIMEOUT
    claims = InboundMail.objects.filter(
        key=key, outcome=InboundMail.Outcome.READING, room__isnull=True, received_at__lt=stale
    )
    return claims.update(received_at=timezone.now()) == 1  # one of two at once wins


def _park_unread(raw: bytes, reason: str) -> InboundResult:
    """Park a mail over a limit, unread: its row (from a scan of its first header bytes) and,
    the first time only, an answer to the sender if they are a registered user."""
    head = limits.head_of(raw)
    logger.info("inbound mail %s from %s parked unread: %s", head.message_id, head.sender, reason)
    key = hashlib.sha256(head.message_id.encode("utf-8")).hexdigest()
    _, created = InboundMail.objects.get_or_create(
        key=key,
        defaults={"message_id": head.message_id, "sender": head.sender[:254],
                  "outcome": InboundMail.Outcome.PARKED, "reason": reason[:500]},
    )  # fmt: skip
    if not created:  # the same mail again: recorded and answered the first time
        return InboundResult("parked", refusal=reason)
    mail = reading.InboundMail(head.message_id, head.sender, (), head.subject, "")
    told = _refuse_stranger(mail, reason)
    return InboundResult("parked", refusal=reason, answered=told.answered)


def _park_failed(raw: bytes, progress: _Progress, exc: Exception) -> InboundResult:
    """Park a mail whose processing raised ``exc``: its row says so (the claim, if it was
    made, becomes ``parked``); the traceback goes to the log. Re-raises ``exc`` when the row
    cannot be written either (the database is down): the caller keeps the mail for later."""
    head = limits.head_of(raw)
    reason = f"processing failed ({type(exc).__name__}: {exc})"[:500]
    logger.error("inbound mail %s from %s parked: %s", head.message_id, head.sender, reason,
                 exc_info=exc)  # fmt: skip
    key = progress.key or hashlib.sha256(head.message_id.encode("utf-8")).hexdigest()
    try:
        InboundMail.objects.update_or_create(
            key=key,
            defaults={"outcome": InboundMail.Outcome.PARKED, "reason": reason},
            create_defaults={"message_id": head.message_id, "sender": head.sender[:254],
                             "outcome": InboundMail.Outcome.PARKED, "reason": reason},
        )  # fmt: skip
    except Exception:
        logger.exception("inbound mail %s could not be parked either", head.message_id)
        raise exc from None
    return InboundResult("parked", refusal=reason)


def _to_room(
    mail: reading.InboundMail, key: str, address: reply_address.RoomAddress
) -> InboundResult:
    """A reply to a room's mail: posted to its journal by ``rooms.by_mail``."""
    posted = by_mail.receive(mail, key, address)
    if posted is None:
        return _refuse_stranger(mail, "the room or side of this reply address no longer exists")
    return InboundResult(
        posted.outcome, posted.written, posted.refused_line, posted.refusal,
        answered=posted.answered, room_id=posted.room_id,
    )  # fmt: skip


def _apply_lines(
    game: Game, seat: Seat, user: Any, lines: list[str], key: str
) -> tuple[tuple[str, ...], str | None, str | None, int]:
    """Apply ``lines`` in order until one is refused, a new turn begins or the mail's limit is
    reached: (the lines applied, the line refused, why, how many lines after it were not read).
    """
    applied: list[str] = []
    refused_line: str | None = None
    reason: str | None = None
    turns = _TurnWatch(game.pk, game.version)
    for number, line in enumerate(lines[: reading.MAX_MOVES], start=1):
        if applied and turns.new_turn_began():
            reason = NEW_TURN
        else:
            reason = _apply_line(game, seat, user, line, f"mail:{key[:40]}:{number}")
        if reason is not None:
            refused_line = line
            break
        applied.append(line)
    if reason is None and len(lines) > reading.MAX_MOVES:
        refused_line = lines[reading.MAX_MOVES]
        reason = f"a mail is read up to {reading.MAX_MOVES} moves; send the rest in another"
    not_read = len(lines) - len(applied) - (1 if reason else 0)
    return tuple(applied), refused_line, reason, not_read


def _our_address(
    mail: reading.InboundMail,
) -> reply_address.ReplyAddress | reply_address.RoomAddress | None:
    """The first valid reply address among the recipients; ``ForgedAddress`` when the only
    ones in our shape are forged."""
    forged: reply_address.ForgedAddress | None = None
    for candidate in mail.recipients:
        try:
            found = reply_address.parse(notify.reply_key(), settings.MAIL_REPLY_DOMAIN, candidate)
        except reply_address.ForgedAddress as exc:
            forged = exc
            continue
        if found is not None:
            return found
    if forged is not None:
        raise forged
    return None


def _turn_refusal(game: Game, seat: Seat, turn: int) -> str | None:
    """Why a reply for ``turn`` cannot be played now, or None."""
    if game.status == Game.Status.FINISHED:
        return "the game is over: nothing was applied"
    if game.status != Game.Status.RUNNING:
        return f"the game is {game.status}, not running: nothing was applied"
    if turn != seat.turns or seat.player not in clock.waited_for(game_state(game)):
        return (
            "this mail answers a turn that has passed: nothing was applied "
            "(reply to the newest mail of the game)"
        )
    return None


NEW_TURN = (
    "a new turn began after the line before: this line and the rest were written before it "
    "and are not applied"
)


class _TurnWatch:
    """Whether a Fast Risk turn has begun since the mail was read (a ``turn_started`` event in
    the log since then). The lines of one mail play within the turn the player saw: after an
    ``end turn`` (or the set-up ending), the other players move before the player is asked
    again, and lines written before that are not applied to a game the player has not seen.
    Decisions inside the turn (a defender mobilising against an attack) do not stop the mail:
    ``attack``, ``roll``, ``move in`` can be written in one reply."""

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id = game_id
        self.checked = version

    def new_turn_began(self) -> bool:
        rows = ActionLog.objects.filter(game_id=self.game_id, sequence__gt=self.checked)
        began = False
        for sequence, events in rows.values_list("sequence", "events"):
            self.checked = max(self.checked, sequence)
            began = began or any(e.get("type") == "turn_started" for e in events or [])
        return began


def _apply_line(game: Game, seat: Seat, user: Any, line: str, key: str) -> str | None:
    """Apply one line as ``seat``'s player; the reason it was refused, or None.

    The line is parsed against the state as it is now, and submitted with that state's version:
    a name or a bare ``end`` means what it meant in that state. Should another action commit in
    between (the player on the site at the same moment), the submission is refused as stale and
    the line is read again against the new state, up to ``STALE_RETRIES`` times."""
    if len(line) > reading.MAX_LINE_CHARS:
        return f"a move is at most {reading.MAX_LINE_CHARS} characters long"
    stale = 0
    while True:
        # The state and its version from one row, as they are after the previous line.
        game = Game.objects.select_related("snapshot").get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            return f"the game is {game.status}"
        state = game_state(game)
        try:
            action = parse_move(state, seat.player, line)
        except InvalidAction as exc:  # names the word at fault: "word 2 'Alaskaa': ..."
            return f"{exc.field}: {exc.message}"
        try:
            submit.action_submit(
                game_id=game.pk, user=user, action=action.to_dict(),
                expected_version=game.version, idempotency_key=key,
            )  # fmt: skip
        except ApplicationError as exc:
            stale += 1
            if exc.code != "stale_version" or stale > STALE_RETRIES:
                return exc.message
            continue
        return None


def _finish(
    mail: reading.InboundMail,
    key: str,
    seat: Seat,
    answer: _Answer,
    applied: tuple[str, ...],
    refused_line: str | None,
    refusal: str | None,
) -> InboundResult:
    """Record what became of the claimed mail and answer the player."""
    outcome = "refused" if refusal and not applied else "partly" if refusal else "applied"
    InboundMail.objects.filter(key=key).update(
        outcome=outcome, applied=len(applied), reason=(refusal or "")[:500]
    )
    game = Game.objects.select_related("snapshot").get(pk=seat.game_id)
    seat.refresh_from_db(fields=["turns"])
    state = game_state(game) if game.status != Game.Status.OPEN else None
    waiting = clock.waited_for(state)
    your_turn = game.status == Game.Status.RUNNING and seat.player in waiting
    answer.context.update(
        applied=list(applied), refused_line=refused_line, refusal=refusal,
        game_over=game.status == Game.Status.FINISHED, your_turn=your_turn,
    )  # fmt: skip
    if your_turn and state is not None:
        answer.context["decision"] = notify.decision_text(waiting[seat.player])
        answer.context.update(notify.moves_context(state, seat.player))
        answer.reply_to = notify.reply_to(seat)
    sent = _send(answer)
    return InboundResult(outcome, applied, refused_line, refusal, seat.game_id, answered=sent)


def _refuse_stranger(mail: reading.InboundMail, reason: str) -> InboundResult:
    """Refuse a mail not (yet) tied to a seat: answered only to a registered user's address."""
    logger.info("inbound mail %s from %s refused: %s", mail.message_id, mail.sender, reason)
    user = (
        get_user_model().objects.filter(email__iexact=mail.sender, is_active=True).first()
        if mail.sender
        else None
    )
    if user is None:
        return InboundResult("refused", refusal=reason)
    profile = getattr(user, "profile", None)
    answer = _Answer(
        to=user.email, name=(profile.display_name if profile else "") or user.get_username(),
        subject=mail.subject, message_id=mail.message_id,
        context={"refusal": reason, "applied": []},
    )  # fmt: skip
    return InboundResult("refused", refusal=reason, answered=_send(answer))


def _send(answer: _Answer) -> bool:
    subject = answer.subject
    if subject and not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    context = {**answer.context, "name": answer.name, "subject": subject}
    headers = {}
    if answer.message_id.startswith("<") and answer.message_id.endswith(">"):
        headers = {"In-Reply-To": answer.message_id, "References": answer.message_id}
    message = notify.compose(
        "answer", context, answer.to, reply_to=answer.reply_to, headers=headers
    )
    try:
        return message.send() == 1
    except Exception:  # an SMTP refusal: the moves are applied all the same
        logger.exception("answer mail to %s failed", answer.to)
        return False
