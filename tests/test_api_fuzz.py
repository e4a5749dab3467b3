"""Schemathesis against the served OpenAPI schema.

Every operation of ``/api/schema/`` gets a bounded number of generated requests, schema-valid
and schema-violating, sent in process through Django's WSGI handler with a real user's API
token (``Authorization: Token ...``). Each answer is checked:

- no 5xx (``not_a_server_error``);
- the status code is documented, the content type and the body match the schema, documented
  headers are there (``WWW-Authenticate`` on a 401, ``Retry-After`` on a 429 or 503);
- a request the schema refuses is refused (``negative_data_rejection``): the schema never
  promises a constraint the server does not hold;
- a request the schema accepts is accepted (``positive_data_acceptance``), except on the
  operations in ``RULES_BEYOND_THE_SCHEMA``, whose refusals depend on rules between fields or
  on stored state that OpenAPI cannot state.

Hypothesis is derandomized (the same requests on every run, so CI is reproducible) and has no
deadline (the first request of an operation may compile or load things).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from combat.services import aa_battle_create
from games.models import Tournament, TournamentTable
from games.rooms.setup import room_create
from games.tournaments import setup as tournament_setup
from games.tournaments.settings import TournamentSettings
from tests.games.helpers import start_game

#: Generated requests per operation (and per generation mode); bounded so the file stays quick.
#: FUZZ_EXAMPLES=500 runs a deeper search by hand.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))

#: A CSRF secret sent as both the cookie and the X-CSRFToken header, as a browser does:
#: register and login check CSRF for everyone, and without it they would only ever answer 403.
CSRF_SECRET = "fuzz" * 8

#: Operations where a schema-valid request may rightly be refused, and why.
RULES_BEYOND_THE_SCHEMA = {
    # Credentials: made-up ones are wrong (400 invalid_credentials), a made-up password too
    # common or like the username (400 weak_password), a name already taken.
    "auth_login": "credentials",
    "auth_token_create": "credentials",
    "auth_register": "credentials",
    # Rules between fields: a round-limit game needs round_limit, a live game minutes, a
    # correspondence game days.
    "games_create": "cross-field rules",
    # The action is the rules engine's to judge, against the game's state; a hint needs a
    # decision of the caller's pending and hints on (403 hints_off, 409 not_your_decision).
    "games_actions": "game rules",
    "games_hint": "game state",
    # The resolvers: units per edition, a battle too large to solve (400 too_large), what a mode
    # allows (flanks only when flanking), odds below 1-4, modifiers that need an option.
    "aa_odds": "resolver rules",
    "aa_battle_create": "resolver rules",
    "aa_take": "resolver rules",
    "aa_retreat": "resolver rules",
    "aa_swing": "resolver rules",
    "aa_waves": "resolver rules",
    "aa_cheapest": "resolver rules",
    "aa_order_check": "resolver rules",
    "risk_odds": "resolver rules",
    "wif_land": "resolver rules",
    "france_1944": "resolver rules",
    # Rooms: rules and edition only for A&A, the creator's side among the sides, a staff
    # referee; joining a free side of an open room; what each kind of post needs, who may post
    # it and the journal's state (rooms_post).
    "rooms_create": "cross-field rules",
    "rooms_join": "room state",
    "rooms_post": "journal rules",
    # A push subscription's endpoint must be https on a known push service, and its keys of
    # the lengths P-256 and the auth secret have (base64url that decodes to 65 and 16 bytes).
    "notifications_devices_create": "push services and key lengths",
    # Tournaments need no entry: the fuzzing user is not staff, so every staff action is 403
    # staff_only before its body is read, and entering or withdrawing refuses only by the
    # event's state (409 registration_closed, not_entered), both of which the check allows.
}

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]

CONFIG = schemathesis.Config.from_dict(
    {
        # No made-up query parameters: OpenAPI 3.0 cannot say "no others", and the server
        # ignores a parameter it does not know, as HTTP APIs do.
        "generation": {"allow-extra-parameters": False},
        # A calculation that runs out of its time budget is a documented 503 (with Retry-After;
        # combat.api.limits), not a crash; where it is not documented, status_code_conformance
        # still fails it.
        "checks": {"not_a_server_error": {"expected-statuses": ["2xx", "3xx", "4xx", "503"]}},
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)


@pytest.fixture
def wsgi_db(db) -> Iterator[None]:
    """The test's database, open across requests sent through the WSGI handler.

    Django's test client keeps the test's connection; the handler would close it after each
    request (``close_old_connections``), and the in-memory test database with it.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_setup(wsgi_db, settings) -> dict[str, Any]:
    """A signed-up user with a token, a running game they sit in and a stored battle.

    Throttles are lifted: the fuzz sends far more requests than a person would, and a 429 on
    every later request would hide what the operation answers. Passwords hash with MD5 so the
    credential endpoints do not spend seconds per example (the validators still run).
    """
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            scope: "1000000/min"
            for scope in (
                "login",
                "register",
                "actions",
                "calculator",
                "hint",
                "rooms",
                "tournaments",
            )
        },
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.WARBOARD_TASKS_INLINE = True
    # The calculators' work limit cut to a tenth: the fuzz checks the answers' shapes (a 200's
    # odds, or the documented 400/503 when a battle is too large), not the solver, and its big
    # generated battles spent up to 0.8 s each (37 s of one operation's 40 examples).
    settings.COMBAT_SECONDS = 0.08
    settings.COMBAT_MAX_STATES = 2_000_000
    user = get_user_model().objects.create_user("fuzzer", password="x" * 12)
    game = start_game(user, 2)
    battle = aa_battle_create(
        request_data={"attacker": {"infantry": 1}, "defender": {"infantry": 1}},
        requester=user,
        client_seed="",
    ).battle
    room = room_create(
        creator=user,
        name="fuzz",
        system="wif",
        sides=["Axis", "Allies"],
        side="Axis",
        rated=False,  # its creator referees it and plays: a rated room's referee plays none
    )
    tournament = _running_tournament()
    return {
        "token": Token.objects.create(user=user).key,
        "game_id": game.pk,
        "room_id": room.pk,
        "tournament_id": tournament.pk,
        "table_id": TournamentTable.objects.get(round__tournament=tournament).pk,
        "battle_id": str(battle.pk),
        "requests": 0,
    }


def _running_tournament() -> Tournament:
    """A room round robin of two staff-run players under way: one table, its room playing."""
    referee = get_user_model().objects.create_user("referee", password="x" * 12, is_staff=True)
    players = [get_user_model().objects.create_user(n, password="x" * 12) for n in ("ann", "ben")]
    tournament = tournament_setup.tournament_create(
        actor=referee,
        settings=TournamentSettings(name="Fuzz Cup", play="room", format="round_robin",
                                    room_system="axis_allies", room_rules="chess",
                                    room_edition="classic"),
    )  # fmt: skip
    for player in players:
        tournament_setup.register(tournament_id=tournament.pk, user=player)
    return tournament_setup.tournament_start(actor=referee, tournament_id=tournament.pk)


@schema.parametrize()
@hypothesis_settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_its_schema_says(case, fuzz_setup) -> None:
    """Every other request a path id names the game or battle that exists, so operations get
    past their 404 and into their real checks (alternating, not drawn: the run stays the same)."""
    fuzz_setup["requests"] += 1
    if fuzz_setup["requests"] % 2:
        for name in ("game_id", "battle_id", "room_id", "tournament_id", "table_id"):
            if case.path_parameters and name in case.path_parameters:
                case.path_parameters[name] = fuzz_setup[name]
    checks = list(CHECKS)
    if case.operation.definition.raw["operationId"] not in RULES_BEYOND_THE_SCHEMA:
        checks.append(positive_data_acceptance)
    case.call_and_validate(
        headers={"Authorization": f"Token {fuzz_setup['token']}", "X-CSRFToken": CSRF_SECRET},
        cookies={"csrftoken": CSRF_SECRET},
        checks=checks,
    )


def _operations() -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("operation", _operations(), ids=lambda op: op.label)
def test_a_bad_token_answers_401_as_documented(operation, wsgi_db) -> None:
    """Everywhere, anonymous use allowed or not: a token that is no one's is refused, not
    treated as no token, in the error shape and with the challenge the schema documents."""
    ids = {
        "game_id": 1,
        "battle_id": "00000000-0000-0000-0000-000000000001",
        "room_id": 1,
        "tournament_id": 1,
        "table_id": 1,
        "username": "alice",
        "name": "classic",
        "version": 1,
    }
    case = operation.Case(
        path_parameters={p.name: ids[p.name] for p in operation.path_parameters} or None,
        headers={"Authorization": "Token no-such-token"},
    )
    response = case.call_and_validate(checks=CHECKS[:5])

    assert response.status_code == 401
    assert response.headers["www-authenticate"] == ["Token"]
    assert response.json() == {
        "error": "authentication_failed",
        "message": "Invalid token.",
        "field": None,
        "allowed": None,
    }
