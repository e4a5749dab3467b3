"""Correspondence rooms' rows: the room, its sides and its journal."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models.play import new_invite_token

#: Sides of a room: A&A has 2-5 powers, WiF up to 8 major powers.
MIN_SIDES, MAX_SIDES = 2, 8


class Room(models.Model):
    """A game played on the players' own boards, with a referee, a clock and a journal.

    The server keeps the record (``RoomEntry``), the turn order and the clock, and rolls every
    battle with the room's own verifiable dice: roll ``n`` of the room is
    ``combat.dice.derive_roll(server_seed, "room:<id>", n, sides)``, numbered 1, 2, 3... across
    the whole room (``roll_count`` is the last number used). ``seed_commitment`` is published at
    creation; ``server_seed`` is revealed when the room ends (``games.rooms.core``).
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
    # 40: the longest edition key is global-1940-2e-path-to-victory (30 characters).
    edition = models.CharField(
        max_length=40,
        blank=True,
        help_text="A&A: an edition of combat/axis_allies/data (revised, 1942-2e, ...).",
    )
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
