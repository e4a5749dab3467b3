"""Live games' rows: games, their state snapshots, seats, the append-only action log,
deadlines and chat.

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

from games.models.accounts import BOT_PREFIX
from risk.ai import LEVELS as AI_LEVELS

#: The kinds of game the lobby offers (one today).
NAUTICAL_RISK = "nautical-risk"
MIN_SEATS, MAX_SEATS = 2, 6


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


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
    # The help text names the ratings' old module (now games.ratings.rate): the text is part of
    # the migrations' state, and a new wording would need a migration.
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

        Kept on the state row so that an action updates one row, not two. Read from
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
    announced, with the game's result and board, ``games.ratings.rerank``).

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
    ``overdue`` while the server's bot answers for the player (``games.play.driver``), and
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
