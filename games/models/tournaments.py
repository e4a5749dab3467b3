"""Tournaments: the event, its entrants, rounds, tables and the staff log.

Re-exported by ``games.models``. The rules of each format live in ``games.competition``; the
service layer (``games.tournaments``) loads these rows, calls it and saves the answer.
A table is one pairing: a 1 v 1 game or room (two seats, the first-named first), a bye (one
seat, no game) or a multiplayer Fast Risk table (3-6 seats).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.competition.points import DEFAULT_PLACE_POINTS


def default_place_points() -> list[float]:
    return list(DEFAULT_PLACE_POINTS)


class Tournament(models.Model):
    """One event, created and run by staff; everything it plays is a Game or a Room."""

    class Play(models.TextChoices):
        FAST_RISK = "fast_risk"  # Nautical-but-Nice Fast Risk games on this server
        ROOM = "room"  # correspondence rooms (A&A, WiF, France 1944)

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"
        KNOCKOUT = "knockout"
        TABLES = "tables"  # multiplayer Fast Risk tables of 3-6

    class Status(models.TextChoices):
        REGISTRATION = "registration"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=80, unique=True)
    description = models.TextField(blank=True, max_length=4000)
    play = models.CharField(max_length=10, choices=Play.choices)
    format = models.CharField(max_length=12, choices=Format.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    # Fast Risk games.
    options = models.JSONField(default=dict, blank=True, help_text="risk.rules.state.Options.")
    time_control = models.CharField(max_length=15, default="correspondence")
    time_per_decision = models.DurationField(null=True, blank=True)
    ai_level = models.CharField(max_length=10, default="hard")
    # Correspondence rooms.
    room_system = models.CharField(max_length=20, blank=True)
    room_rules = models.CharField(max_length=20, blank=True)
    room_edition = models.CharField(max_length=40, blank=True)
    room_sides = models.JSONField(
        default=list, blank=True, help_text="The two side names; the first-named plays the first."
    )
    days_per_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(
        default=True, help_text="Its games and rooms are created rated (bot stand-ins: unrated)."
    )
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    min_entrants = models.PositiveSmallIntegerField(default=2)
    max_entrants = models.PositiveSmallIntegerField(default=64)
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss and tables: chosen; others: fixed at the start."
    )
    table_min = models.PositiveSmallIntegerField(default=3)
    table_max = models.PositiveSmallIntegerField(default=6)
    place_points = models.JSONField(
        default=default_place_points, help_text="Tables: points for 1st, 2nd, ... place."
    )
    late_entry_rounds = models.PositiveSmallIntegerField(
        default=0,
        help_text="Swiss and tables: the last round a late entrant may start in (0 or 1: none).",
    )
    auto_pair = models.BooleanField(
        default=True, help_text="Pair the next round as soon as the last one is complete."
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="championships",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    table_min__gte=3, table_max__lte=6, table_min__lte=models.F("table_max")
                ),
                name="games_tournament_table_sizes",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentEntrant(models.Model):
    """A registered player; ``seed`` (from 1) is fixed at the start by rating."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        WITHDRAWN = "withdrawn"  # by themselves
        REMOVED = "removed"  # by staff

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="The rating seeded on.")
    bot_stands_in = models.BooleanField(
        default=False, help_text="Fast Risk: a bot plays this entrant's seats (games unrated)."
    )
    first_round = models.PositiveSmallIntegerField(default=1, help_text="Late entries: later.")
    entered_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    left_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("tournament", "seed", "entered_at", "pk")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "user"), name="games_entrant_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.user_id}"

    @property
    def active(self) -> bool:
        return self.status == self.Status.ACTIVE


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    paired_at = models.DateTimeField(auto_now_add=True)
    paired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", help_text="None: paired by the server when the last round ended.",
    )  # fmt: skip
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "number"), name="games_round_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class TournamentTable(models.Model):
    """One pairing of a round: its game or room, or none for a bye or a forfeit."""

    class Outcome(models.TextChoices):
        PENDING = ""  # being played
        PLAYED = "played"  # the game or room's own result
        BYE = "bye"
        FORFEIT = "forfeit"  # a withdrawn or removed player's game
        ENTERED = "entered"  # entered by staff (adjudicated, or a game ended without a result)

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="Board or table number, from 1.")
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournament_table",
    )  # fmt: skip
    room = models.OneToOneField(
        "games.Room", on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournament_table",
    )  # fmt: skip
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default="", blank=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "number")
        constraints = [
            models.UniqueConstraint(fields=("round", "number"), name="games_table_number"),
            models.CheckConstraint(
                condition=Q(game__isnull=True) | Q(room__isnull=True), name="games_table_one_play"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    @property
    def done(self) -> bool:
        return self.outcome != self.Outcome.PENDING


class TableSeat(models.Model):
    """One entrant at one table; ``place`` and ``points`` once the table is done."""

    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(TournamentEntrant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0: first-named; the game's seat.")
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 best; ties.")
    territories = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Fast Risk: territories held at the end (tie-break)."
    )
    points = models.FloatField(
        null=True, blank=True, help_text="1 v 1: 1, 0.5, 0; tables: place points."
    )
    left = models.BooleanField(
        default=False, help_text="Withdrew or was removed while the table played: placed last."
    )

    class Meta:
        ordering = ("table", "position")
        constraints = [
            models.UniqueConstraint(fields=("table", "position"), name="games_tableseat_position"),
            models.UniqueConstraint(fields=("table", "entrant"), name="games_tableseat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.position}"


class TournamentAction(models.Model):
    """The staff log: every staff action on a tournament, and the server's own (actor None)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournament_actions",
    )  # fmt: skip
    action = models.CharField(max_length=30)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("tournament", "at", "pk")

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.action}"
