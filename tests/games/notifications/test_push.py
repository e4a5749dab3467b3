"""Web Push end to end, against a push service on 127.0.0.1 (``push_service.PushService``): each
of the five kinds of notice arrives signed (VAPID) and encrypted (aes128gcm) with its text and
URL, the person's channel choice holds it back, a 410 or 404 deletes the subscription, and the
API refuses bad subscriptions and choices by name."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core import mail

from games.models import Deadline, PushSubscription, TournamentTable
from games.notifications import vapid
from games.notifications.kinds import Kind
from games.play import deadlines, effects
from games.rooms import journal
from games.tournaments import setup as tournaments
from tests.games.conftest import client_for, make_user
from tests.games.notifications.push_service import Browser, PushService
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import started
from tests.games.rooms.test_rooms import seated
from tests.games.tournaments.test_tournaments import chess_event, enter

_nobody_connected = shared._nobody_connected
commits = shared.commits
frozen = shared.frozen

SITE = "https://warboard.example.org"


@pytest.fixture
def service(settings, tmp_path) -> Iterator[PushService]:
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    settings.WEBPUSH_ALLOW_HTTP = True
    settings.VAPID_KEY_FILE = str(tmp_path / "vapid.pem")
    settings.SITE_URL = SITE + "/"
    with PushService() as running:
        yield running
    assert running.errors == []  # every push the server made was signed and encrypted right


def subscribe(user, service: PushService, name: str | None = None) -> Browser:
    """``user``'s browser subscribes through the API, as notifications.js does."""
    browser = Browser()
    body = {
        "endpoint": service.endpoint(name or user.username),
        "keys": {"p256dh": browser.p256dh, "auth": vapid.b64url(browser.auth)},
        "expirationTime": None,
    }
    response = client_for(user).post(
        "/api/notifications/devices", body, format="json", HTTP_USER_AGENT="Test Browser/1"
    )
    assert response.status_code == 201, response.json()
    return browser


def received(service: PushService, user, browser: Browser) -> list[dict]:
    """The decrypted pushes that reached ``user``'s browser."""
    path = f"/push/{user.username}"
    return [browser.decrypt(p.body) for p in service.pushes if p.path == path]


# --- the five kinds ---------------------------------------------------------------------------


def test_your_turn_is_pushed_to_a_subscribed_player_and_mailed_to_the_other(
    alice, bob, commits, frozen, service
):
    browser = subscribe(alice, service)
    game = started(commits, alice, others=[bob])

    assert received(service, alice, browser) == [
        {
            "kind": "your_turn",
            "title": f"Your turn in Game {game.pk}",
            "text": "It is your turn: set up your armies.",
            "url": f"{SITE}/games/{game.pk}",
            "tag": f"game-{game.pk}-turn",
        }
    ]
    push = service.pushes[0]
    assert push.vapid_key == vapid.public_key()  # signed with the key the browser subscribed to
    assert push.claims["aud"] == service.origin
    assert push.headers["topic"] == f"game-{game.pk}-turn"
    # The push replaces alice's mail; bob has no device: his mail as before.
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_the_deadline_reminder_is_pushed_an_hour_before(alice, commits, frozen, service):
    browser = subscribe(alice, service)
    game = started(commits, alice, time_control="correspondence", minutes=None, days=1)
    deadline = Deadline.objects.get(game=game, seat__player="alice", status=Deadline.Status.OPEN)
    assert deadline.due_at - deadline.remind_at == timedelta(hours=1)
    service.pushes.clear()

    frozen.move_to(deadline.remind_at)
    assert deadlines.deadline_remind(deadline.pk) is True

    assert received(service, alice, browser) == [
        {
            "kind": "deadline",
            "title": f"1 hour left in Game {game.pk}",
            "text": f"Your deadline is {deadline.due_at:%Y-%m-%d %H:%M} UTC; then the bot plays "
            "for you.",
            "url": f"{SITE}/games/{game.pk}",
            "tag": f"game-{game.pk}-deadline",
        }
    ]


def test_an_attack_on_a_person_is_pushed_to_them(alice, bob, commits, frozen, service):
    browser = subscribe(bob, service)
    game = started(commits, alice, others=[bob])
    service.pushes.clear()
    seats = list(game.seats.select_related("user"))
    attack = {"type": "attack", "attacker": "alice", "defender": "bob", "target": "Alaska",
              "mode": "normal", "flanks": [["Kamchatka", 3]]}  # fmt: skip
    on_a_bot = {**attack, "defender": "bot:3", "target": "Peru"}
    committed = SimpleNamespace(game=game, events=[{"type": "roll"}, on_a_bot, attack], seats=seats)

    effects.queue_attacked(committed)  # the after-commit step's look at an action's events

    assert received(service, bob, browser) == [
        {
            "kind": "attacked",
            "title": f"Attacked in Game {game.pk}",
            "text": "alice attacked your territory Alaska.",
            "url": f"{SITE}/games/{game.pk}",
            "tag": f"game-{game.pk}-attacked",
        }
    ]
    assert len(service.pushes) == 1  # nobody is told of the attack on the bot


def test_a_room_entry_is_pushed_to_the_people_in_the_room(alice, bob, carol, commits, service):
    browser = subscribe(alice, service)
    room = seated(carol, alice, bob, name="Fall Gelb", system="wif", sides=["Axis", "Allies"])
    journal.request_battle(room_id=room.pk, user=alice, notation="18 vs 6")  # entries 5 and 6
    mail.outbox.clear()
    with commits():
        dispute = journal.challenge(room_id=room.pk, user=bob, entry=6, text="wrong units")

    assert received(service, alice, browser) == [
        {
            "kind": "room_entry",
            "title": "Fall Gelb: challenge",
            "text": f"#{dispute.number} challenge by Allies.",
            "url": f"{SITE}/rooms/{room.pk}",
            "tag": f"room-{room.pk}",
        }
    ]
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]  # the referee has no device


def test_a_paired_round_is_pushed_to_each_player(db, commits, service):
    staff = make_user("referee", is_staff=True)
    ann, dan = make_user("ann"), make_user("dan")
    browser = subscribe(ann, service)
    event = chess_event(staff)
    enter([ann, dan], event)
    with commits():
        tournaments.tournament_start(actor=staff, tournament_id=event.pk)
    room_id = TournamentTable.objects.get(round__tournament=event, round__number=1).room_id

    assert received(service, ann, browser) == [
        {
            "kind": "round_paired",
            "title": "IA&ACF 1995: round 1 is paired",
            "text": "Table 1: you against dan.",
            "url": f"{SITE}/rooms/{room_id}",
            "tag": f"tournament-{event.pk}",
        }
    ]
    assert [m.to for m in mail.outbox if "Round 1" in m.subject] == [["dan@example.org"]]


# --- the person's choice ----------------------------------------------------------------------


@pytest.mark.parametrize("choice", ["email", "none"])
def test_a_choice_of_email_or_none_holds_the_push_back(alice, commits, frozen, service, choice):
    browser = subscribe(alice, service)
    response = client_for(alice).patch(
        "/api/notifications/settings", {"your_turn": choice}, format="json"
    )
    assert response.status_code == 200
    rows = {row["kind"]: row for row in response.json()["kinds"]}
    assert rows["your_turn"]["choice"] == rows["your_turn"]["channel"] == choice
    assert rows["deadline"] == {**rows["deadline"], "choice": "", "channel": "push"}

    started(commits, alice)

    assert received(service, alice, browser) == []
    assert [m.to for m in mail.outbox] == ([["alice@example.org"]] if choice == "email" else [])


def test_push_chosen_reaches_a_person_who_turned_the_mail_off(alice, commits, frozen, service):
    alice.profile.email_your_turn = False
    alice.profile.save()
    browser = subscribe(alice, service)
    client_for(alice).patch("/api/notifications/settings", {"your_turn": "push"}, format="json")
    game = started(commits, alice)
    assert [p["title"] for p in received(service, alice, browser)] == [
        f"Your turn in Game {game.pk}"
    ]
    assert mail.outbox == []


# --- the push service's answers ---------------------------------------------------------------


@pytest.mark.parametrize(("status", "kept"), [(410, False), (404, False), (500, True)])
def test_a_subscription_the_push_service_calls_gone_is_deleted(
    alice, commits, frozen, service, status, kept
):
    subscribe(alice, service)
    service.status["/push/alice"] = status
    started(commits, alice)
    assert len(service.pushes) == 1
    assert PushSubscription.objects.filter(user=alice).exists() is kept


# --- the API ----------------------------------------------------------------------------------


def test_the_settings_say_the_defaults_and_push_once_a_device_subscribes(alice, service):
    body = client_for(alice).get("/api/notifications/settings").json()
    assert body["devices"] == 0 and body["vapid_public_key"] == vapid.public_key()
    assert {r["kind"]: r["channel"] for r in body["kinds"]} == {
        "your_turn": "email", "deadline": "email", "attacked": "none", "room_entry": "email",
        "round_paired": "email",
    }  # fmt: skip
    subscribe(alice, service)
    body = client_for(alice).get("/api/notifications/settings").json()
    assert body["devices"] == 1
    assert {r["channel"] for r in body["kinds"]} == {"push"}
    device = PushSubscription.objects.get(user=alice)
    assert device.user_agent == "Test Browser/1"


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"your_turn": "sms"}, "your_turn", "invalid_choice"),
        ({"your_turn": 1}, "your_turn", "invalid"),
        ({"game_over": "push"}, "game_over", "unknown_field"),
    ],
)
def test_a_bad_choice_is_refused_naming_the_kind(alice, change, field, code):
    response = client_for(alice).patch("/api/notifications/settings", change, format="json")
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["error"]) == (field, code)


@pytest.mark.parametrize(
    ("endpoint", "keys", "field", "code"),
    [
        ("https://push.evil.example/x", None, "endpoint", "invalid_endpoint"),
        ("http://10.0.0.1:6379/x", None, "endpoint", "invalid_endpoint"),
        (None, {"p256dh": "AAAA", "auth": None}, "keys.p256dh", "invalid_key"),
        (None, {"p256dh": None, "auth": "AAAA"}, "keys.auth", "invalid_key"),
    ],
)
def test_a_bad_subscription_is_refused_naming_the_field(
    alice, service, endpoint, keys, field, code
):
    browser = Browser()
    good = {"p256dh": browser.p256dh, "auth": vapid.b64url(browser.auth)}
    keys = {k: (v if v is not None else good[k]) for k, v in (keys or good).items()}
    body = {"endpoint": endpoint or service.endpoint("alice"), "keys": keys}
    response = client_for(alice).post("/api/notifications/devices", body, format="json")
    assert response.status_code == 400, response.json()
    assert (response.json()["field"], response.json()["error"]) == (field, code)
    assert not PushSubscription.objects.exists()


def test_unsubscribe_forgets_the_device_and_only_ones_own(alice, bob, service):
    subscribe(alice, service)
    endpoint = service.endpoint("alice")
    by_bob = client_for(bob).post(
        "/api/notifications/devices/unsubscribe", {"endpoint": endpoint}, format="json"
    )
    assert by_bob.status_code == 200
    assert PushSubscription.objects.filter(user=alice).count() == 1  # not bob's to remove
    response = client_for(alice).post(
        "/api/notifications/devices/unsubscribe", {"endpoint": endpoint}, format="json"
    )
    assert response.status_code == 200 and response.json()["devices"] == 0


def test_the_same_browser_signing_in_as_someone_else_moves_to_them(alice, bob, service):
    subscribe(alice, service, name="shared")
    subscribe(bob, service, name="shared")
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


def test_the_vapid_key_is_made_once_and_kept(settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = str(tmp_path / "var" / "vapid.pem")
    first = vapid.public_key()
    assert (tmp_path / "var" / "vapid.pem").stat().st_mode & 0o777 == 0o600
    vapid._load.cache_clear()  # a new process reads the same file
    assert vapid.public_key() == first
    assert len(vapid.b64url_decode(first)) == 65


def test_kinds_are_the_five_of_the_settings_page():
    assert [str(k) for k in Kind] == [
        "your_turn", "deadline", "attacked", "room_entry", "round_paired",
    ]  # fmt: skip
