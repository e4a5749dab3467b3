"""The admin is no oracle on secret fields: no URL lookup, search or ordering of any
changelist (games and combat) depends on a running game's seeds, board state or log dice, on an
open battle's seed, or on a password hash; only the declared filters are accepted.

Before the fix, ``?server_seed__startswith=0`` answered "1 game" and ``?server_seed__startswith=z``
"0 games": the seed came out one character at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from combat.models import AABattle
from games.models import ActionLog, Game
from games.rooms.setup import room_create
from games.web.admin_secrets import SECRET_FIELDS, SecretSafeAdmin
from tests.games import test_admin as admin_tests

admin_client = admin_tests.admin_client
game = admin_tests.game
commits = admin_tests.commits
frozen = admin_tests.frozen
_nobody_connected = admin_tests._nobody_connected

STRING_LOOKUPS = (
    "exact",
    "iexact",
    "contains",
    "icontains",
    "startswith",
    "istartswith",
    "endswith",
    "iendswith",
    "gt",
    "gte",
    "lt",
    "lte",
    "in",
    "range",
    "regex",
    "iregex",
    "isnull",
)
#: Lookups of a JSON field itself (its keys get the string lookups through a key transform).
JSON_LOOKUPS = ("exact", "isnull", "contains", "contained_by", "has_key", "has_keys", "icontains")


def values_for(lookup: str, secret: str) -> tuple[str, str]:
    """A value the secret matches under ``lookup`` and one it does not: a leak would answer
    them differently."""
    miss = "zz-not-it"
    return {
        "exact": (secret, miss),
        "iexact": (secret.upper(), miss),
        "contains": (secret[1:6], miss),
        "icontains": (secret[1:6].upper(), miss),
        "startswith": (secret[:3], miss),
        "istartswith": (secret[:3].upper(), miss),
        "endswith": (secret[-3:], miss),
        "iendswith": (secret[-3:].upper(), miss),
        "gt": ("", "~"),
        "gte": (secret, "~"),
        "lt": ("~", ""),
        "lte": (secret, ""),
        "in": (f"{secret},{miss}", miss),
        "range": (f",{secret}~", f"{miss},{miss}~"),
        "regex": (f"^{re.escape(secret[:3])}", f"^{miss}"),
        "iregex": (f"^{re.escape(secret[:3].upper())}", f"^{miss}"),
        "isnull": ("False", "True"),
        "contained_by": ("{}", "[]"),
        "has_key": ("seed", miss),
        "has_keys": ("seed", miss),
    }[lookup]


# (admin changelist, path to a secret, how to read the secret's text, is the path a JSON field)
Secret = Callable[[dict[str, Any]], str]
SECRET_PATHS: list[tuple[str, str, Secret, bool]] = [
    ("games_game", "server_seed", lambda w: w["server_seed"], False),
    ("games_game", "seats__client_seed", lambda w: w["client_seed"], False),
    ("games_game", "snapshot__state", lambda w: w["state_seed"], True),
    ("games_game", "log__context", lambda w: w["context"], False),
    ("games_game", "log__rolls", lambda w: w["rolls"], True),
    ("games_game", "creator__password", lambda w: w["password"], False),
    ("games_seat", "client_seed", lambda w: w["client_seed"], False),
    ("games_seat", "game__server_seed", lambda w: w["server_seed"], False),
    ("games_seat", "game__snapshot__state", lambda w: w["state_seed"], True),
    ("games_seat", "user__password", lambda w: w["password"], False),
    ("games_deadline", "game__server_seed", lambda w: w["server_seed"], False),
    ("games_deadline", "seat__client_seed", lambda w: w["client_seed"], False),
    ("games_deadline", "game__log__context", lambda w: w["context"], False),
    ("games_gamesnapshot", "state", lambda w: w["state_seed"], True),
    ("games_gamesnapshot", "game__server_seed", lambda w: w["server_seed"], False),
    ("games_gamesnapshot", "game__seats__client_seed", lambda w: w["client_seed"], False),
    ("games_room", "server_seed", lambda w: w["room_seed"], False),
    ("games_room", "creator__password", lambda w: w["password"], False),
    ("games_roomentry", "room__server_seed", lambda w: w["room_seed"], False),
    # Where each card is: alice's hand (the pieces' rows).
    ("games_card", "card", lambda w: w["card"], False),
    ("games_game", "cards__card", lambda w: w["card"], False),
    ("games_seat", "cards__card", lambda w: w["card"], False),
    ("games_territoryholding", "game__cards__card", lambda w: w["card"], False),
    ("games_ship", "seat__cards__card", lambda w: w["card"], False),
    ("combat_aabattle", "seed", lambda w: w["battle_seed"], False),
    ("combat_aabattle", "requester__password", lambda w: w["password"], False),
    # Django's UserAdmin refuses password lookups itself, and spanning relations undeclared.
    ("auth_user", "password", lambda w: w["password"], False),
    ("auth_user", "created_games__server_seed", lambda w: w["server_seed"], False),
    ("auth_user", "aa_battles__seed", lambda w: w["battle_seed"], False),
]


def lookups_of(path: str, is_json: bool) -> list[str]:
    """Every lookup on ``path``; a JSON field's ``seed`` key (``state__seed__startswith``) or
    first roll's ``value`` (``rolls__0__value__gt``) gets the string lookups too."""
    if not is_json:
        return [f"{path}__{lookup}" for lookup in STRING_LOOKUPS] + [path]
    key = "seed" if path.endswith("state") else "0__value"
    return (
        [f"{path}__{lookup}" for lookup in JSON_LOOKUPS]
        + [f"{path}__{key}__{lookup}" for lookup in STRING_LOOKUPS]
        + [f"{path}__{key}"]
    )


@pytest.fixture
def world(game, alice) -> dict[str, Any]:
    """A running game and an open battle, both alice's, and their secrets as text."""
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    log = list(ActionLog.objects.filter(game=game))
    entry = next(e for e in log if e.context)
    battle = AABattle.objects.create(
        requester=alice,
        request={"attacker": {"infantry": 3}, "defender": {"infantry": 1}},
        seed="c0ffee" + "5eed" * 12,
        commitment="0" * 64,
        context="aa-battle:test",
        close_token_hash="1" * 64,
    )
    room = room_create(creator=alice, name="secret", system="wif", sides=["Axis", "Allies"])
    return {
        "game": game,
        "battle": battle,
        "room_seed": room.server_seed,
        "server_seed": game.server_seed,
        "client_seed": game.seats.get(player="alice").client_seed,
        "state_seed": str(game.snapshot.state["seed"]),
        "context": entry.context,
        # The first logged roll's value (set-up rolls none: then a die face, refused the same).
        "rolls": str(next((e.rolls[0]["value"] for e in log if e.rolls), 3)),
        "password": alice.password,
        "battle_seed": battle.seed,
        "card": game.cards.filter(holder="alice", kind="risk").order_by("position")[0].card,
    }


def refused(response) -> bool:
    """Django's answer to a lookup the admin does not allow (``DisallowedModelAdminLookup``, a
    ``SuspiciousOperation``): its plain 400 page, the same whatever was asked."""
    return response.status_code == 400 and response.content == REFUSED


#: Django's ``bad_request`` page (``DEBUG`` off, no 400.html template in the project).
REFUSED = (
    b'\n<!doctype html>\n<html lang="en">\n<head>\n  <title>Bad Request (400)</title>\n'
    b"</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n"
)


def changelist(name: str, **params: str) -> str:
    return reverse(f"admin:{name}_changelist") + ("?" + urlencode(params) if params else "")


def test_the_seed_was_an_oracle_before_and_is_a_400_now(admin_client, world):
    """The issue's attack: each prefix of the seed answered differently from a wrong one."""
    seed = world["server_seed"]
    for prefix in (seed[:1], seed[:10], seed):
        response = admin_client.get(changelist("games_game", server_seed__startswith=prefix))
        assert refused(response), (prefix, response.status_code)
    assert refused(admin_client.get(changelist("games_game", server_seed__startswith="z")))


@pytest.mark.parametrize(
    ("name", "path", "secret", "is_json"),
    SECRET_PATHS,
    ids=[f"{name}:{path}" for name, path, _, _ in SECRET_PATHS],
)
def test_every_lookup_on_every_secret_is_refused_whatever_the_value(
    admin_client, world, name, path, secret, is_json
):
    text = secret(world)
    assert text  # a real secret, so a matching value really matches
    for lookup in lookups_of(path, is_json):
        last = lookup.rsplit("__", 1)[-1]
        hit, miss = values_for(last if last in {*STRING_LOOKUPS, *JSON_LOOKUPS} else "exact", text)
        for value in (hit, miss):
            response = admin_client.get(changelist(name, **{lookup: value}))
            assert refused(response), (lookup, value, response.status_code)


def listing(response) -> list[str]:
    """The rows a changelist shows (their checkbox values) and its result count."""
    html = response.content.decode()
    rows = re.findall(r'<tr>.*?href="/admin/\w+/\w+/([^/]+)/change/', html, flags=re.S)
    counts = re.findall(r'class="paginator">([^<]*)', html)
    return [*rows, *(unescape(count.strip()) for count in counts)]


#: The secrets whose text is a search term worth trying: a die face ("3") is no secret as a
#: search term, it finds rows by their public fields (ids, bot seats' names), and neither is a
#: card's territory name where the board's rows are listed (their territories are public).
SEARCHED = [
    secret for secret in SECRET_PATHS
    if not secret[1].endswith("rolls")
    and secret[0] not in ("games_territoryholding", "games_ship")
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "path", "secret", "is_json"),
    SEARCHED,
    ids=[f"{name}:{path}" for name, path, _, _ in SEARCHED],
)
def test_searching_for_a_secret_finds_what_a_wrong_guess_finds(
    admin_client, world, name, path, secret, is_json
):
    text = secret(world)
    miss = "zz" + "q" * (len(text) - 2)
    for guess in (text, text[1:9]):
        found = admin_client.get(changelist(name, q=guess))
        wrong = admin_client.get(changelist(name, q=miss[: len(guess)]))
        assert found.status_code == wrong.status_code == 200
        assert listing(found) == listing(wrong), guess
        assert listing(found)[-1].startswith("0 "), guess  # and no row is found


def admin_model(name: str):
    app, model = name.split("_", 1)
    return next(m for m in admin.site._registry if m._meta.label_lower == f"{app}.{model}")


@pytest.mark.parametrize("name", sorted({name for name, *_ in SECRET_PATHS}))
def test_no_ordering_depends_on_a_secret(admin_client, world, alice, bob, commits, name):
    """Every ``?o=`` column (and crafted ones naming a field) lists the rows in the same order
    after the secrets are rewritten to reverse their order."""
    other = admin_tests.started(commits, bob, others=[alice], client_seed="bobs-client-seed")
    AABattle.objects.create(
        requester=bob, request={}, seed="0" * 64, commitment="2" * 64, context="c"
    )
    model_admin = admin.site._registry[admin_model(name)]
    orders = [str(i) for i in range(len(model_admin.list_display) + 1)]
    orders += [f"-{o}" for o in orders] + ["server_seed", "seed", "state", "1.server_seed"]

    def pages() -> list[list[str]]:
        return [listing(admin_client.get(changelist(name, o=o))) for o in orders]

    before = pages()
    seeds = {g.pk: g.server_seed for g in (world["game"], other)}
    Game.objects.filter(pk=world["game"].pk).update(server_seed=seeds[other.pk][::-1])
    Game.objects.filter(pk=other.pk).update(server_seed=seeds[world["game"].pk][::-1])
    for battle in AABattle.objects.all():
        AABattle.objects.filter(pk=battle.pk).update(seed="f" * 64 if battle.seed[0] == "0" else "")
    assert pages() == before


def test_the_declared_filters_still_work(admin_client, world):
    game_pk = str(world["game"].pk)
    for name, params in [
        ("games_game", {"status__exact": "running"}),
        ("games_game", {"public__exact": "1", "kind__exact": world["game"].kind}),
        ("games_game", {"time_control__exact": "live"}),
        ("games_seat", {"game__status__exact": "running", "state__exact": "active"}),
        ("games_deadline", {"status__exact": "open", "game__time_control__exact": "live"}),
        ("games_deadline", {"due_at__year": "2030", "due_at__month": "3"}),
        ("auth_user", {"is_staff__exact": "0", "is_active__exact": "1"}),
    ]:
        response = admin_client.get(changelist(name, **params))
        assert response.status_code == 200, params
        assert listing(response), params
    games = admin_client.get(changelist("games_game", status__exact="running"))
    assert listing(games) == [game_pk, "1 game"]
    battles = admin_client.get(changelist("combat_aabattle", closed_at__isnull="True"))
    assert listing(battles) == [str(world["battle"].pk), "1 A&A battle"]
    closed = admin_client.get(changelist("combat_aabattle", closed_at__isnull="False"))
    assert listing(closed) == ["0 A&A battles"]


@pytest.mark.parametrize(
    "params",
    [
        {"name__startswith": "x"},  # a public field, but no declared filter
        {"status__startswith": "r"},  # a declared filter's field, an undeclared lookup
        {"id__gt": "0"},
        {"no_such_field": "1"},
        {"creator__username": "alice"},
    ],
)
def test_a_lookup_no_filter_declares_is_refused(admin_client, world, params):
    assert refused(admin_client.get(changelist("games_game", **params)))


def test_the_change_pages_show_no_seed_until_it_is_public(admin_client, world):
    battle = world["battle"]
    url = reverse("admin:combat_aabattle_change", args=[battle.pk])
    for page in (url, changelist("combat_aabattle")):
        html = admin_client.get(page).content.decode()
        assert battle.seed not in html, page
    assert "secret until the battle is closed" in admin_client.get(url).content.decode()
    game_page = admin_client.get(reverse("admin:games_game_change", args=[world["game"].pk]))
    html = game_page.content.decode()
    assert world["server_seed"] not in html and world["state_seed"] not in html
    assert "secret until the game is over" in html

    AABattle.objects.filter(pk=battle.pk).update(closed_at=world["game"].started_at)
    assert battle.seed in admin_client.get(url).content.decode()


def test_a_battle_cannot_be_closed_or_edited_from_the_admin(admin_client, world):
    """Closing reveals the seed: that is the requester's to do, through the API."""
    battle = world["battle"]
    url = reverse("admin:combat_aabattle_change", args=[battle.pk])
    response = admin_client.post(url, {"closed_at_0": "2030-03-01", "closed_at_1": "12:00:00"})
    assert response.status_code == 403
    battle.refresh_from_db()
    assert battle.closed_at is None


# --- the declarations ---------------------------------------------------------------------------


def test_every_admin_of_a_model_with_secrets_is_secret_safe():
    safe = {
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if isinstance(model_admin, SecretSafeAdmin)
    }
    assert safe == {
        "games.Game",
        "games.GameSnapshot",
        "games.Seat",
        "games.Deadline",
        "games.InboundMail",  # no secret of its own, but every games admin is secret-safe
        "combat.AABattle",
        "games.Room",
        "games.RoomEntry",
        "games.Tournament",  # no secret of its own either
        "games.TournamentAction",
        "games.Rating",  # read-only, as is the history
        "games.RatingChange",
        "games.TerritoryHolding",  # the pieces: the board's rows are public,
        "games.Ship",
        "games.Card",  # the cards' are not (``test_pieces_hidden``)
    }
    # Django's own user admin refuses every lookup on the password (UserAdmin.lookup_allowed);
    # the other models with secrets have no admin.
    assert set(SECRET_FIELDS) - safe == {"auth.User", "games.ActionLog"}
    assert all(
        model._meta.label in safe
        for model in admin.site._registry
        if model._meta.app_label in {"games", "combat"}
    )


def test_the_system_check_passes_for_the_real_admins():
    errors = [e for m in admin.site._registry.values() for e in m.check()]
    assert [e for e in errors if e.id == "warboard.E001"] == []


class LeakyGameAdmin(SecretSafeAdmin, admin.ModelAdmin):
    list_display = ("id", "server_seed")
    list_filter = ("server_seed", "seats__client_seed")
    search_fields = ("name", "snapshot__state")
    fields = ("name", "server_seed")


def test_the_system_check_names_every_secret_an_admin_declares():
    messages = sorted(e.msg for e in LeakyGameAdmin(Game, admin.site).check())
    assert messages == [
        "fields names 'server_seed', which touches the secret field games.Game.server_seed.",
        "list_display names 'server_seed', which touches the secret field games.Game.server_seed.",
        "list_filter names 'seats__client_seed', which touches the secret field "
        "games.Seat.client_seed.",
        "list_filter names 'server_seed', which touches the secret field games.Game.server_seed.",
        "search_fields names 'snapshot__state', which touches the secret field "
        "games.GameSnapshot.state.",
    ]


def test_a_secret_column_is_never_an_ordering_even_if_declared(admin_client, world):
    """``?o=2`` on a secret column (column 0 is the checkbox): Django would order by it whatever
    ``sortable_by`` says."""
    request = RequestFactory().get("/", {"o": "2"})
    request.user = get_user_model().objects.get(username="root")
    leaky = LeakyGameAdmin(Game, admin.site)
    assert leaky.get_sortable_by(request) == ["id"]
    queryset = Game.objects.all()
    changelist_ = leaky.get_changelist_instance(request)
    assert "server_seed" not in changelist_.get_ordering(request, queryset)
    plain = type("Plain", (admin.ModelAdmin,), {"list_display": ("id", "server_seed")})
    assert "server_seed" in plain(Game, admin.site).get_changelist_instance(request).get_ordering(
        request, queryset
    )
