"""The game server's rows: profiles, games, their state snapshots, seats, the append-only
action log, deadlines.

A running game's rules state is one row, ``GameSnapshot``: the engine's ``to_dict`` as JSON
(JSONB on PostgreSQL), written in the same transaction as the log entry it follows. The log stays
the source of truth (``verify_game`` replays it and compares with the snapshot); the snapshot
is what the next action starts from. The other rows hold what the server adds around the
state: who sits where, the clock, the log every roll can be re-derived from, and the secret
seed. Nothing here knows a rule: services call the pure engine and save what it returns.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from risk.ai import LEVELS as AI_LEVELS

#: The kinds of game the lobby offers (one today).
NAUTICAL_RISK = "nautical-risk"
MIN_SEATS, MAX_SEATS = 2, 6
#: A bot's player id: ``bot:<position>``. Django usernames cannot hold ':', so no clash.
BOT_PREFIX = "bot:"
#: Name prefixes the rules engine and the server give their own seats and actors (allied armies
#: "ally-<n>", their AIs "ai:<seat>", bots "bot:<n>"): no person may be called so.
RESERVED_PREFIXES = ("ally-", "ai:", BOT_PREFIX)


def is_reserved_name(username: str) -> bool:
    return username.lower().startswith(RESERVED_PREFIXES)


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Profile(models.Model):
    """What a player sets about themselves: the name others see and which emails they get."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=60, blank=True)
    email_your_turn = models.BooleanField(default=True, help_text='"Your turn" emails.')
    email_reminder = models.BooleanField(default=True, help_text="Deadline reminders.")
    email_game_over = models.BooleanField(default=True, help_text="Game-over results.")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Game(models.Model):
    """One game: lobby settings, status, clock and the seed commitment (its log's version is
    on the state row, ``GameSnapshot``, the one row an action updates)."""

    class Status(models.TextChoices):
        OPEN = "open"  # in the lobby, taking seats
        RUNNING = "running"
        PAUSED = "paused"  # by an admin: no actions, clocks stopped
        FINISHED = "finished"

    class TimeControl(models.TextChoices):
        LIVE = "live"  # minutes per decision
        CORRESPONDENCE = "correspondence"  # days per decision
        UNTIMED = "untimed"

    kind = models.CharField(max_length=30, default=NAUTICAL_RISK, choices=[(NAUTICAL_RISK,) * 2])
    name = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    seat_count = models.PositiveSmallIntegerField(help_text="2-6 seats.")
    options = models.JSONField(default=dict, help_text="risk.rules.state.Options as a dict.")
    public = models.BooleanField(default=True, help_text="Listed in the lobby; else invite only.")
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    time_control = models.CharField(
        max_length=15, choices=TimeControl.choices, default=TimeControl.UNTIMED
    )
    time_per_decision = models.DurationField(
        null=True, blank=True, help_text="Minutes (live) or days (correspondence); none untimed."
    )
    max_timeouts = models.PositiveSmallIntegerField(
        default=3, help_text="Consecutive timeouts after which a seat counts as having left."
    )
    ai_level = models.CharField(
        max_length=10,
        choices=[(level, level) for level in AI_LEVELS],
        default="hard",
        help_text="risk.ai.StrategicBot's level for the bot seats, allied armies and timeouts.",
    )
    ai_delay_ms = models.PositiveIntegerField(
        default=0,
        help_text="Milliseconds between the AI's moves, so people can follow them (0: at once).",
    )
    hints = models.BooleanField(
        default=True, help_text="Players may ask the AI for a hint (GET /api/games/{id}/hint)."
    )
    rated = models.BooleanField(
        default=True,
        help_text="Asked for at creation; at the start it stays true only if every seat is a "
        "person (games.services.ratings). Never changed afterwards.",
    )
    server_seed = models.CharField(max_length=64, help_text="Secret until the game is over.")
    seed_commitment = models.CharField(max_length=64, help_text="SHA-256 of server_seed (hex).")
    result = models.JSONField(default=dict, blank=True, help_text="Winner and ranking.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_SEATS, seat_count__lte=MAX_SEATS),
                name="games_game_seat_count",
            ),
            models.CheckConstraint(
                condition=Q(time_control="untimed", time_per_decision__isnull=True)
                | (~Q(time_control="untimed") & Q(time_per_decision__isnull=False)),
                name="games_game_clock_iff_timed",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"Game {self.pk}"

    @property
    def timed(self) -> bool:
        return self.time_control != self.TimeControl.UNTIMED

    @property
    def version(self) -> int:
        """Entries in the action log: the state row's version, 0 in the lobby.

        Kept on the state row so that an action updates one row, not two (issue 14). Read from
        the snapshot joined in (``select_related("snapshot")``, with ``defer("snapshot__state")``
        where the state itself is not wanted); otherwise this costs one SELECT.
        """
        if Game.snapshot.is_cached(self):
            try:
                return self.snapshot.version
            except GameSnapshot.DoesNotExist:
                return 0
        found = GameSnapshot.objects.filter(pk=self.pk).values_list("version", flat=True).first()
        return found or 0


class GameSnapshot(models.Model):
    """A started game's rules state: ``risk.rules.state.to_dict`` of it, as of log entry
    ``version``. Read whole and written whole (one SELECT, one UPDATE an action); stored states
    of an older ``schema_version`` load through ``risk.rules.upcast``. Holds the engine's seed
    and every hidden card: only services read it, and views go through ``view_for``."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="snapshot"
    )
    version = models.PositiveIntegerField(help_text="The last log entry this state includes.")
    schema_version = models.PositiveSmallIntegerField(
        help_text="risk.rules.state.SCHEMA_VERSION the state was written with."
    )
    state = models.JSONField(help_text="risk.rules.state.to_dict of the game's state.")
    server_turn = models.BooleanField(
        default=False,
        help_text="The game waits on the server (a bot, an allied army's AI, a player out of "
        "time): the sweep re-queues the driver of a game left so for long (its task lost).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Game {self.game_id} at {self.version}"


class Seat(models.Model):
    """A place at the table: a person or a bot. ``player`` is its name in the rules state."""

    class State(models.TextChoices):
        ACTIVE = "active"
        AWAY = "away"  # timed out at least once; the bot took the decision
        LEFT = "left"  # left (or timed out too often): the army is an allied army now

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    player = models.CharField(max_length=150, help_text="Username, or bot:<position>.")
    colour = models.CharField(max_length=20, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    client_seed = models.CharField(
        max_length=64, blank=True, help_text="Mixed into the game's seed at the start."
    )
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Consecutive timeouts.")
    last_seen_sequence = models.PositiveIntegerField(
        default=0, help_text='The log entry up to which the player has been told ("your turn").'
    )
    turns = models.PositiveIntegerField(
        default=0,
        help_text="Times the game started waiting for this player (the turn in mail replies).",
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "position")
        constraints = [
            models.UniqueConstraint(fields=("game", "position"), name="games_seat_position"),
            models.UniqueConstraint(fields=("game", "player"), name="games_seat_player"),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | Q(player__startswith=BOT_PREFIX),
                name="games_seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position} {self.player}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


class ActionLog(models.Model):
    """One applied action, never changed: who, what, what happened, and the rolls it used (the
    one exception: ``manage.py rerate --rerank`` corrects the ranking its ``game_over`` event
    announced, with the game's result and board, ``games.services.rerank``).

    ``rolls`` are the ``SeededDice`` log of the action (``context`` + counters), so anyone can
    re-derive them from the revealed seed; ``response`` is the body the submitter received, so a
    repeated ``idempotency_key`` returns it unchanged.
    """

    class Source(models.TextChoices):
        PLAYER = "player"
        BOT = "bot"  # a bot seat or an allied army's AI
        TIMEOUT = "timeout"  # the bot deciding for a player whose deadline passed
        SERVER = "server"  # a lobby or admin step (a seat left, replaced)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    sequence = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True)
    actor = models.CharField(max_length=150, help_text="Who acted in the rules state.")
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    action = models.JSONField()
    events = models.JSONField(default=list)
    context = models.CharField(max_length=80, help_text="The dice context of this action.")
    rolls = models.JSONField(default=list, help_text="[{counter, sides, value}, ...]")
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    response = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "sequence")
        constraints = [
            models.UniqueConstraint(fields=("game", "sequence"), name="games_log_sequence"),
            models.UniqueConstraint(
                fields=("game", "user", "idempotency_key"),
                condition=Q(idempotency_key__isnull=False),
                name="games_log_idempotency",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.sequence} {self.action.get('type')}"


class Deadline(models.Model):
    """How long a player may take over a pending decision of a timed game.

    One open row per (game, player) while that player holds the game up; it closes when they
    are no longer waited for. Expiry is claimed by an UPDATE that must change exactly one row,
    so the per-deadline task and the periodic sweep never both act on it. A claimed row is
    ``overdue`` while the server's bot answers for the player (``games.services.driver``), and
    ``expired`` once the game no longer waits on them.
    """

    class Status(models.TextChoices):
        OPEN = "open"
        DONE = "done"  # the player acted in time
        OVERDUE = "overdue"  # claimed: the bot answers for the player while they are waited for
        EXPIRED = "expired"  # the bot decided for the player (or they came back late)
        CANCELLED = "cancelled"  # the game ended, paused or the seat left

    #: The statuses of a row still covering the player's current wait.
    CURRENT = (Status.OPEN, Status.OVERDUE)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deadlines")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="deadlines")
    kind = models.CharField(max_length=30, help_text="The decision's kind when it opened.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    remind_at = models.DateTimeField()
    due_at = models.DateTimeField()
    reminded_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("due_at",)
        constraints = [
            models.UniqueConstraint(
                fields=("game", "seat"),
                condition=Q(status__in=["open", "overdue"]),
                name="games_deadline_one_current_per_seat",
            ),
        ]
        indexes = [models.Index(fields=("status", "due_at"), name="games_deadline_due")]

    def __str__(self) -> str:
        return f"{self.seat} {self.kind} due {self.due_at:%Y-%m-%d %H:%M}"


class ChatMessage(models.Model):
    """One line of a game's chat (plain text, never markup): who wrote it and from which seat.

    ``seat`` is the author's seat id in the rules state when they wrote it (their colour on the
    page), kept as text so the line still names it after the seat changes hands."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    seat = models.CharField(max_length=150, blank=True, help_text="The author's seat id, or ''.")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "id")
        indexes = [models.Index(fields=("game", "id"), name="games_chat_game_id")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.author_id}: {self.text[:40]}"


class InboundMail(models.Model):
    """A mail received at a reply address, once: its Message-ID is unique, so the same mail
    delivered again (a provider's retry, a replay) is recognised and never applied twice.

    Written before the mail's lines are applied (``reading``, the claim: of two deliveries at
    once only one reads and answers), and completed with the outcome after them. A mail that
    is not read (over a limit, or failing) is recorded as ``parked`` with the reason."""

    class Outcome(models.TextChoices):
        APPLIED = "applied"  # every line applied (or none given)
        PARTLY = "partly"  # some lines applied, then one refused
        REFUSED = "refused"  # nothing applied: the address, the sender, the turn or line 1
        #: Claimed by the delivery reading it (its lines not all applied yet): a second
        #: delivery of the same mail at that moment reads nothing and sends no answer.
        READING = "reading"
        #: Not read: over a size or shape limit (``games.mail.limits``), or its processing
        #: failed; ``reason`` says which. Nothing of it was applied after that point.
        PARKED = "parked"

    message_id = models.CharField(max_length=998, help_text="As in the mail's header.")
    #: sha256 of ``message_id``: the unique key (a Message-ID may exceed an index's width).
    key = models.CharField(max_length=64, unique=True)
    sender = models.CharField(max_length=254)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True)
    #: For a reply to a room's mail (``room+...`` address): the room it was posted to.
    room = models.ForeignKey("Room", on_delete=models.SET_NULL, null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    applied = models.PositiveSmallIntegerField(default=0, help_text="Lines applied.")
    reason = models.CharField(max_length=500, blank=True, help_text="The refusal, if any.")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-received_at",)

    def __str__(self) -> str:
        return f"{self.message_id[:60]} from {self.sender}: {self.outcome}"


# --- correspondence rooms (issue 18, section 1) ------------------------------------------------

#: Sides of a room: A&A has 2-5 powers, WiF up to 8 major powers.
MIN_SIDES, MAX_SIDES = 2, 8


class Room(models.Model):
    """A game played on the players' own boards, with a referee, a clock and a journal.

    The server keeps the record (``RoomEntry``), the turn order and the clock, and rolls every
    battle with the room's own verifiable dice: roll ``n`` of the room is
    ``combat.dice.derive_roll(server_seed, "room:<id>", n, sides)``, numbered 1, 2, 3... across
    the whole room (``roll_count`` is the last number used). ``seed_commitment`` is published at
    creation; ``server_seed`` is revealed when the room ends (``games.correspondence``).
    """

    class System(models.TextChoices):
        AXIS_ALLIES = "axis_allies"
        WIF = "wif"
        FRANCE_1944 = "france_1944"

    class Status(models.TextChoices):
        OPEN = "open"  # sides still free
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=80)
    system = models.CharField(max_length=20, choices=System.choices)
    rules = models.CharField(
        max_length=20, blank=True, help_text="A&A: dice, lowluck or chess; '' for the others."
    )
    edition = models.CharField(max_length=20, blank=True, help_text="A&A: classic or revised.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_rooms"
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="refereed_rooms"
    )
    public = models.BooleanField(
        default=True, help_text="Readable by anyone signed in; else by its sides and referee."
    )
    invite_token = models.CharField(
        max_length=32,
        default=new_invite_token,
        unique=True,
        help_text="A private room is joined (and read before joining) with it.",
    )
    days_per_turn = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Days a side has for its turn; none: untimed."
    )
    rated = models.BooleanField(
        default=False,
        help_text="Fixed at creation: only a room of 2 sides may be rated (Glicko-2).",
    )
    remind_hours = models.PositiveSmallIntegerField(
        default=24, help_text="Hours before the deadline the reminder mail goes out."
    )
    grace_days = models.PositiveSmallIntegerField(
        default=1, help_text="Days after the deadline before the turn is declared timed out."
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=14, help_text="Vacation days each side starts with."
    )
    server_seed = models.CharField(max_length=64, help_text="Secret until the room ends.")
    seed_commitment = models.CharField(max_length=64, help_text="SHA-256 of server_seed (hex).")
    roll_count = models.PositiveIntegerField(default=0, help_text="The last roll number used.")
    entry_count = models.PositiveIntegerField(default=0, help_text="The last journal number.")
    turn_position = models.PositiveSmallIntegerField(default=0, help_text="The side to move.")
    turn_number = models.PositiveIntegerField(default=0, help_text="0 until the room starts.")
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_paused_seconds = models.PositiveIntegerField(
        default=0, help_text="Vacation time of the side to move, ended within this turn."
    )
    turn_reminded_at = models.DateTimeField(null=True, blank=True)
    turn_timed_out_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True, help_text="Winners and the text.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return self.name or f"Room {self.pk}"

    @property
    def dice_context(self) -> str:
        return f"room:{self.pk}"


class RoomSide(models.Model):
    """One participant of a room: a power ("Germany") played by a person, in turn order."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="sides")
    position = models.PositiveSmallIntegerField(help_text="Turn order, from 0.")
    name = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="room_sides",
    )
    vacation_days_left = models.PositiveSmallIntegerField(default=0)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_ends_at = models.DateTimeField(null=True, blank=True)
    agreed_result = models.JSONField(
        null=True, blank=True, help_text="The result this side agreed to, if any."
    )
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("room", "position")
        constraints = [
            models.UniqueConstraint(fields=("room", "position"), name="games_roomside_position"),
            models.UniqueConstraint(fields=("room", "name"), name="games_roomside_name"),
            models.UniqueConstraint(
                fields=("room", "user"),
                condition=Q(user__isnull=False),
                name="games_roomside_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}/{self.position} {self.name}"


class JournalEdited(Exception):
    """Something tried to change or delete a journal entry: entries are only ever inserted."""


class RoomEntryQuerySet(models.QuerySet):
    """No bulk update or delete of journal entries (a room's deletion still cascades)."""

    def update(self, **kwargs: object) -> int:
        raise JournalEdited("journal entries are never edited: post a referee ruling instead")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise JournalEdited("journal entries are never deleted")


class RoomEntry(models.Model):
    """One journal entry, never edited: corrections are later referee entries.

    Numbered 1..n per room (the number is allocated under the room's row lock). ``side`` is
    the author's side name as written then ("Germany", "referee", "server"), kept as text.
    ``save`` inserts only and the manager has no update or delete, so no code path of the
    server can rewrite the record.
    """

    class Kind(models.TextChoices):
        NOTE = "note"
        BATTLE_REQUEST = "battle_request"
        BATTLE_RESULT = "battle_result"
        RULING = "ruling"
        CHALLENGE = "challenge"
        SYSTEM = "system"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="room_entries",
    )
    side = models.CharField(max_length=40, help_text="The author's side, 'referee' or 'server'.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    refers_to = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replies"
    )

    objects = RoomEntryQuerySet.as_manager()

    class Meta:
        ordering = ("room", "number")
        constraints = [
            models.UniqueConstraint(fields=("room", "number"), name="games_roomentry_number"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.number} {self.kind}"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self._state.adding:
            raise JournalEdited("journal entries are never edited: post a referee ruling instead")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise JournalEdited("journal entries are never deleted")


class Rating(models.Model):
    """A player's current rating of one kind (games.services.ratings keeps it).

    Glicko-2 kinds: ``rating``/``deviation`` on the Glicko scale (1500/350) and ``volatility``.
    OpenSkill (``fast_risk_multi``): ``rating`` is mu, ``deviation`` sigma, volatility unused.
    """

    class Kind(models.TextChoices):
        FAST_RISK_2P = "fast_risk_2p"
        FAST_RISK_MULTI = "fast_risk_multi"
        AXIS_ALLIES = "axis_allies"
        WIF = "wif"
        FRANCE_1944 = "france_1944"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    rating = models.FloatField(help_text="Glicko rating, or OpenSkill mu.")
    deviation = models.FloatField(help_text="Glicko RD, or OpenSkill sigma.")
    volatility = models.FloatField(default=0.0, help_text="Glicko-2 only.")
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(help_text="When the last rated game of this kind ended.")

    class Meta:
        ordering = ("kind", "-rating")
        constraints = [
            models.UniqueConstraint(fields=("user", "kind"), name="games_rating_user_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """One rated result's effect on one player: the history behind the profile's chart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=20, choices=Rating.Kind.choices)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_changes"
    )
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_changes"
    )
    rating_before = models.FloatField()
    deviation_before = models.FloatField(help_text="After the growth over inactivity.")
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField(default=0.0)
    at = models.DateTimeField(help_text="When the game or room ended.")

    class Meta:
        ordering = ("at", "pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=False, room__isnull=True)
                | Q(game__isnull=True, room__isnull=False),
                name="games_ratingchange_game_xor_room",
            ),
            models.UniqueConstraint(fields=("user", "game"), name="games_ratingchange_game"),
            models.UniqueConstraint(fields=("user", "room"), name="games_ratingchange_room"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating_before:.0f}->{self.rating_after:.0f}"


# The tournament models live in their own module; imported here so Django registers them with
# the app and callers import every model from ``games.models``.
from games.tournament_models import (  # noqa: E402, F401
    TableSeat,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentRound,
    TournamentTable,
)
