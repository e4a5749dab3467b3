"""The bot clients of ``bench/load.py``: six seats per game, over websockets and HTTP.

Not run on its own: ``bench/load.py`` starts one or more processes on ``run_clients`` (each an
asyncio event loop playing a share of the games) and turns what they record into figures.

Each seat keeps one websocket to ``/ws/games/<id>/`` (``?token=``) and the latest view, rebuilt
from the patches it was pushed (a state asked for when one does not apply). Seats at even
positions submit their actions over HTTP (``POST .../actions``, aiohttp on keep-alive
connections), seats at odd positions over their socket (``{"type": "action"}`` and the ``ack``).
A seat acts when the latest view lists it in ``pending``, with a cheap policy that builds a legal
action from ``view.legal_actions`` alone (``choose``). A 409 ``stale_version`` is counted apart
and retried once the newer view is in (re-read over HTTP if it does not come).
Everything is recorded with wall-clock timestamps; the parent keeps what falls in the measured
window.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's risk package
from risk.rules import apply_patch

#: Seconds to wait for an HTTP response or a socket ack before counting a timeout.
REQUEST_TIMEOUT = 30.0
#: Seconds a seat waits for the push of a version it knows exists before re-reading over HTTP.
WATCHDOG = 10.0
#: Chance that a seat in its campaign attacks (a normal attack, rolled until decided).
ATTACK_RATE = 0.25
#: Seconds between the heartbeats a socket sends (the consumer's presence expects one a minute).
HEARTBEAT = 50.0
#: Seconds without a new version after which each seat of the game asks for the state again.
QUIET = 20.0
#: A running game whose version has not moved for this many seconds at the end has stalled.
STALL = 60.0
#: Sockets opened at once while connecting.
CONNECT_AT_ONCE = 32


# --- the policy --------------------------------------------------------------------------------


class NoPolicy(LookupError):
    """The view offers nothing this policy knows how to build."""


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action from the seat's ``view.legal_actions``, built from the spec options alone.

    Set-up spread as ``sampler._arrange`` spreads it; all reinforcements on one territory; a
    turn-in only when the campaign is refused without one; the campaign ended soon (an attack
    now and then); no ally declared, no challenge, stand pat at poker; the defender mobilizes
    nothing but the wild dice it must place.
    """
    specs = {s["type"]: s.get("options") or {} for s in view["legal_actions"]}
    if "arrange" in specs:
        return _arrange(specs["arrange"], rng)
    if "mobilize" in specs:
        o = specs["mobilize"]
        return {
            "type": "mobilize",
            "reveal": [],
            "wild_territories": [o["territories"][0]] * o["wild_dice"],
        }
    if "join_defence" in specs:
        return {"type": "join_defence", "ships": []}
    if "challenge" in specs:
        return {"type": "challenge", "contest": False}
    if "answer" in specs:
        return {"type": "answer", "demur": True}
    if "poker" in specs:
        return _poker(view, specs["poker"]["moves"])
    if "roll" in specs:
        return {"type": "roll", "add": 0, "until_decided": True}
    if "move_in" in specs:
        o = specs["move_in"]
        return {"type": "move_in", "armies": o.get("min", 0)}
    if "prize" in specs:
        return {"type": "prize", "ship": specs["prize"]["ships"][0], "by": None}
    if "place" in specs:
        o = specs["place"]
        return {"type": "place", "territory": rng.choice(o["territories"]), "armies": o["max"]}
    if "place_ship" in specs:
        return {"type": "place_ship", "station": specs["place_ship"]["stations"][0]}
    if "turn_in" in specs and "end_campaign" not in specs:  # required: 5 or more cards
        o = specs["turn_in"]
        return {"type": "turn_in", "cards": o["sets"][0], "reward": "armies"}
    if "place_factory" in specs:
        return {"type": "place_factory", "territory": specs["place_factory"]["territories"][0]}
    if "discard" in specs:
        return {"type": "discard", "cards": _own_poker_cards(view)[: specs["discard"]["count"]]}
    if "attack" in specs and rng.random() < ATTACK_RATE:
        attack = _attack(view, specs["attack"]["targets"], rng)
        if attack is not None:
            return attack
    if "end_campaign" in specs:
        return {"type": "end_campaign"}
    if "end_turn" in specs:
        return {"type": "end_turn", "ally": None}
    raise NoPolicy(f"no policy for {sorted(specs)}")


def _arrange(o: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    territories = list(o["territories"])
    armies = [1] * len(territories)
    for _ in range(o["armies"] - len(territories)):
        armies[rng.randrange(len(territories))] += 1
    stations = o["ship_stations"]
    return {
        "type": "arrange",
        "arrangement": [[t, n] for t, n in zip(territories, armies, strict=True)],
        "factory": rng.choice(territories),
        "ship_station": stations[0] if stations else None,
    }


def _attack(
    view: dict[str, Any], targets: dict[str, list[str]], rng: random.Random
) -> dict[str, Any] | None:
    """A normal attack from an own territory holding 3 armies or more, else None."""
    land = view["territories"]
    options = [
        (target, source)
        for target, sources in targets.items()
        for source in sources
        if source in land and land[source]["armies"] >= 3
    ]
    if not options:
        return None
    target, source = rng.choice(options)
    armies = min(3, land[source]["armies"] - 1)
    return {"type": "attack", "target": target, "mode": "normal", "flanks": [[source, armies]]}


def _own_poker_cards(view: dict[str, Any]) -> list[str]:
    me = view.get("you")
    return next((list(s.get("poker_hand", [])) for s in view["seats"] if s["id"] == me), [])


def _poker(view: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    for move in ("check", "call", "show", "fold", "muck"):
        if move in moves:
            return {"type": "poker", "move": move}
    if "draw" in moves:
        return {"type": "poker", "move": "draw", "cards": [], "from_stash": []}
    if "choose" in moves:
        hand = (view.get("contest") or {}).get("hand") or {}
        mine = next((p for p in hand.get("players", []) if "stash" in p), {"stash": []})
        return {"type": "poker", "move": "choose", "cards": list(mine["stash"])[:5]}
    raise NoPolicy(f"no poker policy for {moves}")


# --- what a client process records -------------------------------------------------------------


@dataclass
class Record:
    """Samples with wall-clock times; the parent keeps those inside the measured window."""

    actions: list[tuple[float, float, str]] = field(default_factory=list)  # (done, ms, via)
    pushes: list[tuple[float, float]] = field(default_factory=list)  # (received, ms)
    stale: list[float] = field(default_factory=list)  # when a 409 stale_version came back
    #: When a seat gave up waiting WATCHDOG seconds for the push of a version it knew of and
    #: re-read the game over HTTP (slow, not lost: a lost push shows as a gap).
    slow_pushes: list[float] = field(default_factory=list)
    #: When a seat of a game that had not moved for QUIET seconds asked for the state again.
    state_requests: list[float] = field(default_factory=list)
    errors: list[tuple[float, str, str]] = field(default_factory=list)  # (when, kind, detail)
    lag: list[tuple[float, float]] = field(default_factory=list)  # (when, loop lag ms)
    inflight: list[tuple[float, int]] = field(default_factory=list)  # (when, submissions open)
    #: (when, game, seat, sequence) of each push a live socket never received (a gap between
    #: two it did receive; "when" is the arrival of the next one after the gap)
    lost_pushes: list[tuple[float, int, int, int]] = field(default_factory=list)
    late_replies: int = 0  # socket answers that came after their request had timed out
    stalled_games: list[int] = field(default_factory=list)  # running, no progress at the end
    stall_details: list[str] = field(default_factory=list)  # the seats of a few of them
    finished_games: int = 0
    sockets: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        self.errors.append((time.time(), kind, detail[:300]))


@dataclass
class Run:
    """What one client process shares between its seats."""

    bases: list[str]
    record: Record
    stop: asyncio.Event
    http: aiohttp.ClientSession
    on_set_up: Any  # called with a game id once that game is past its set-up
    ordered_setup: bool = True  # the six set-up decisions taken in seat order, not at once
    think: float = 0.0  # seconds a seat pauses before each action
    set_up: set[int] = field(default_factory=set)
    #: game -> (highest version seen, when, status), to find games that stopped moving
    progress: dict[int, tuple[int, float, str]] = field(default_factory=dict)
    inflight: int = 0


class Seat:
    """One player's client: a socket for pushes (and acks), HTTP or the socket for actions."""

    def __init__(self, run: Run, game: int, position: int, username: str, token: str) -> None:
        self.run, self.game, self.position = run, game, position
        self.username, self.token = username, token
        self.base = run.bases[(game + position) % len(run.bases)]
        self.via = "http" if position % 2 == 0 else "socket"
        self.rng = random.Random(f"{game}:{position}")
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.status = ""
        self.set_up = False  # whether this game is past its set-up (the arrange decisions)
        self.need = 0  # act only on a view at least this new (after an ack, a 409, an error)
        self.changed = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: push sequence -> arrival time on the current connection (from the version of the
        #: state received on connecting: the consumer relays only newer updates)
        self.seen: dict[int, float] = {}
        self.tasks: list[asyncio.Task[None]] = []

    # -- the socket ----------------------------------------------------------------------------

    async def connect(self) -> None:
        ws_base = self.base.replace("http://", "ws://", 1)
        self.ws = await connect(
            f"{ws_base}/ws/games/{self.game}/?token={self.token}",
            origin=self.base,  # type: ignore[arg-type]
            compression=None,
            max_size=None,
            open_timeout=REQUEST_TIMEOUT,
            ping_interval=None,
        )
        self.run.record.sockets += 1
        first = json.loads(await asyncio.wait_for(self.ws.recv(), REQUEST_TIMEOUT))
        if first.get("type") != "state":
            raise RuntimeError(f"expected the state message first, got {first.get('type')!r}")
        self.seen = {first["game"]["version"]: time.time()}  # the state stands for its version
        self._take_game(first["game"])

    def _take_game(self, game: dict[str, Any]) -> None:
        if game["version"] >= self.version:
            self._take(game["version"], game["view"], game["status"])

    def _take(self, version: int, view: dict[str, Any], status: str) -> None:
        self.version, self.view, self.status = version, view, status
        self.changed.set()
        progress = self.run.progress.get(self.game)
        if progress is None or version > progress[0]:
            self.run.progress[self.game] = (version, time.time(), status)
        if not self.set_up and (view.get("turn") is not None or status != "running"):
            self.set_up = True
            if self.game not in self.run.set_up:
                self.run.set_up.add(self.game)
                self.run.on_set_up(self.game)

    async def read(self) -> None:
        """Pushes and acks until the run stops; a dropped socket is an error, then reconnected."""
        record = self.run.record
        while not self.run.stop.is_set():
            assert self.ws is not None
            try:
                async for raw in self.ws:
                    if self._receive(json.loads(raw), time.time()):
                        await self.ws.send(json.dumps({"type": "state"}))
            except ConnectionClosed as exc:
                if self.run.stop.is_set():
                    return
                record.error("dropped_socket", f"game {self.game} seat {self.position}: {exc}")
            if self.run.stop.is_set():
                return
            for future in self.acks.values():
                if not future.done():
                    future.set_result({"type": "error", "error": "action_lost_with_socket"})
            self.acks.clear()
            self.gaps()  # pushes lost on the live socket; not those missed while it is down
            self.seen.clear()
            for attempt in range(5):
                await asyncio.sleep(0.5 * 2**attempt)
                try:
                    await self.connect()
                    break
                except Exception as exc:
                    record.error("reconnect_failed", f"game {self.game} seat {self.position}: "
                                 f"{exc!r}")  # fmt: skip
            else:
                self.ws = None
                return

    def _receive(self, message: dict[str, Any], received: float) -> bool:
        """Take in one message; True if the state must be asked for (a patch that does not
        apply to the view held: a version was missed)."""
        kind = message.get("type")
        if kind == "update":
            self.run.record.pushes.append((received, (received - message["committed_at"]) * 1000))
            self.seen.setdefault(message["sequence"], received)
            if message["version"] > self.version:
                base = message.get("base_version")
                if base is None:  # the start of a game: the whole view
                    self._take(message["version"], message["view"], message["status"])
                elif base == self.version and self.view is not None:
                    view = apply_patch(self.view, message["patch"])
                    self._take(message["version"], view, message["status"])
                else:  # a version missed: as the browser does, ask for the state
                    return True
        elif kind in ("ack", "error") and message.get("request_id") is not None:
            future = self.acks.pop(message["request_id"], None)
            if future is None:  # the answer to a request already given up on (a timeout)
                self.run.record.late_replies += 1
            elif not future.done():
                future.set_result(message)
        elif kind == "error":
            self.run.record.error("socket_error", json.dumps(message))
        elif kind == "state":
            self._take_game(message["game"])
        return False

    async def heartbeat(self) -> None:
        while not self.run.stop.is_set():
            await asyncio.sleep(HEARTBEAT)
            with contextlib.suppress(ConnectionClosed, AttributeError):
                await self.ws.send('{"type": "ping"}')  # type: ignore[union-attr]

    # -- acting --------------------------------------------------------------------------------

    def _may_act(self) -> bool:
        view = self.view
        if view is None or self.status != "running" or self.version < self.need:
            return False
        mine = [d for d in view["pending"] if d["player"] == self.username]
        if not mine:
            return False
        if self.run.ordered_setup and mine[0]["kind"] == "arrange":
            # Set-up in seat order: the first seat (in the view's order) still to arrange goes.
            order = {seat["id"]: i for i, seat in enumerate(view["seats"])}
            arranging = [d for d in view["pending"] if d["kind"] == "arrange"]
            return min(arranging, key=lambda d: order.get(d["seat"], 0))["player"] == self.username
        return True

    async def play(self) -> None:
        """``_play``, with any exception of the client itself recorded rather than lost."""
        try:
            await self._play()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.run.record.error("client_bug", f"game {self.game} seat {self.position}: {exc!r}")

    def _game_quiet(self) -> bool:
        progress = self.run.progress.get(self.game)
        return progress is not None and progress[1] < time.time() - QUIET

    async def _play(self) -> None:
        run, record = self.run, self.run.record
        while not run.stop.is_set():
            if self.status == "finished":
                record.finished_games += self.position == 0
                return
            if not self._may_act():
                self.changed.clear()
                waiting_for_push = self.version < self.need or self.ws is None
                try:
                    await asyncio.wait_for(self.changed.wait(), WATCHDOG)
                except TimeoutError:
                    if run.stop.is_set():
                        return
                    if waiting_for_push:
                        record.slow_pushes.append(time.time())  # lost ones show as gaps
                        await self.reread()
                    elif self._game_quiet() and self.ws is not None:
                        # Nothing has moved for a while: if a push to this seat was lost, the
                        # game waits for it forever. Ask for the state (a gap stays counted).
                        record.state_requests.append(time.time())
                        with contextlib.suppress(ConnectionClosed):
                            await self.ws.send('{"type": "state"}')
                continue
            version, view = self.version, self.view
            assert view is not None
            if run.think:  # a player's pause before acting (--think)
                await asyncio.sleep(run.think)
                if self.version != version or not self._may_act():
                    continue
            try:
                action = choose(view, self.rng)
            except (NoPolicy, KeyError, IndexError, TypeError) as exc:
                record.error("policy", f"{exc!r} on {view['legal_actions']}")
                self.need = version + 1
                continue
            body = {
                "action": action,
                "expected_version": version,
                "idempotency_key": uuid.uuid4().hex,
            }
            started = time.perf_counter()
            run.inflight += 1
            try:
                ok, answer = await (self._http(body) if self.via == "http" else self._socket(body))
            finally:
                run.inflight -= 1
            if run.stop.is_set():
                return
            elapsed = (time.perf_counter() - started) * 1000
            if ok:
                record.actions.append((time.time(), elapsed, self.via))
                self.need = answer["version"]
            elif answer.get("error") == "stale_version":
                record.stale.append(time.time())
                self.need = max(version + 1, int(answer.get("version") or 0))
            else:
                record.error(
                    str(answer.get("error", "unknown")),
                    f"{self.via} {action['type']}: {json.dumps(answer)}",
                )
                self.need = version + 1

    async def _http(self, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        url = f"{self.base}/api/games/{self.game}/actions"
        headers = {"Authorization": f"Token {self.token}"}
        try:
            async with self.run.http.post(url, json=body, headers=headers) as response:
                text = await response.text()
                try:
                    answer = json.loads(text)
                except ValueError:
                    answer = {"error": f"http_{response.status}", "message": text[:200]}
                if response.status == 200:
                    return True, answer
                if not isinstance(answer, dict):
                    answer = {"error": f"http_{response.status}"}
                answer.setdefault("error", f"http_{response.status}")
                return False, answer
        except TimeoutError:
            return False, {"error": "timeout", "message": f"no HTTP answer in {REQUEST_TIMEOUT}s"}
        except aiohttp.ClientError as exc:
            return False, {"error": "http_failure", "message": repr(exc)}

    async def _socket(self, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        request_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.acks[request_id] = future
        try:
            assert self.ws is not None
            await self.ws.send(json.dumps({"type": "action", "request_id": request_id, **body}))
            answer = await asyncio.wait_for(future, REQUEST_TIMEOUT)
        except TimeoutError:
            return False, {"error": "timeout", "message": f"no ack in {REQUEST_TIMEOUT}s"}
        except ConnectionClosed:
            return False, {"error": "dropped_socket"}
        finally:
            self.acks.pop(request_id, None)
        return answer.get("type") == "ack", answer

    async def reread(self) -> None:
        url = f"{self.base}/api/games/{self.game}"
        headers = {"Authorization": f"Token {self.token}"}
        try:
            async with self.run.http.get(url, headers=headers) as response:
                if response.status == 200:
                    self._take_game(await response.json())
                    if self.version < self.need:  # the server is behind what it acked?
                        self.need = self.version
                    return
                self.run.record.error(f"reread_http_{response.status}", await response.text())
        except (TimeoutError, aiohttp.ClientError) as exc:
            self.run.record.error("reread_failed", repr(exc))

    def describe(self) -> str:
        """This seat's client state, for a stalled game's report."""
        mine = [d["kind"] for d in (self.view or {}).get("pending", [])
                if d["player"] == self.username]  # fmt: skip
        socket = "none" if self.ws is None else self.ws.state.name.lower()
        return (f"game {self.game} seat {self.position} ({self.via}): version {self.version}, "
                f"acts from {self.need}, pending for it {mine}, socket {socket}, "
                f"{len(self.acks)} acks awaited, pushes seen {len(self.seen)}")  # fmt: skip

    def gaps(self) -> None:
        """Record the versions between the first and the last push of this connection that
        never reached it."""
        if not self.seen:
            return
        arrived = sorted(self.seen.items())
        for (seq, _), (following, when) in itertools.pairwise(arrived):
            for missing in range(seq + 1, following):
                self.run.record.lost_pushes.append((when, self.game, self.position, missing))


# --- one client process ------------------------------------------------------------------------


async def _monitor(run: Run) -> None:
    """Event-loop lag (a late wake-up means this client, not the server, adds latency) and the
    number of submissions in flight, every 50 ms."""
    loop = asyncio.get_running_loop()
    while not run.stop.is_set():
        planned = loop.time() + 0.05
        await asyncio.sleep(0.05)
        now = time.time()
        run.record.lag.append((now, max(0.0, (loop.time() - planned) * 1000)))
        run.record.inflight.append((now, run.inflight))


async def _play(
    games: list[dict[str, Any]],
    bases: list[str],
    ready: Any,
    on_set_up: Any,
    until: Any,
    ordered_setup: bool,
    think: float,
) -> Record:
    record = Record()
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        run = Run(bases, record, asyncio.Event(), http, on_set_up, ordered_setup, think)
        seats = [
            Seat(run, g["id"], s["position"], s["username"], s["token"])
            for g in games
            for s in g["seats"]
        ]
        gate = asyncio.Semaphore(CONNECT_AT_ONCE)

        async def open_one(seat: Seat) -> None:
            async with gate:
                try:
                    await seat.connect()
                except (OSError, InvalidStatus, RuntimeError, TimeoutError) as exc:
                    record.error(
                        "connect_failed", f"game {seat.game} seat {seat.position}: {exc!r}"
                    )

        await asyncio.gather(*(open_one(s) for s in seats))
        connected = [s for s in seats if s.ws is not None]
        ready()
        monitor = asyncio.create_task(_monitor(run))
        for seat in connected:
            seat.tasks = [
                asyncio.create_task(seat.read()),
                asyncio.create_task(seat.play()),
                asyncio.create_task(seat.heartbeat()),
            ]
        while True:  # the parent names the end of the run once every process is connected
            end = until()
            if end and time.time() >= end:
                break
            await asyncio.sleep(0.1 if not end else min(0.1, max(0.0, end - time.time())))
        run.stop.set()
        for seat in connected:
            for task in seat.tasks:
                task.cancel()
        await asyncio.gather(*(t for s in connected for t in s.tasks), return_exceptions=True)
        monitor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await monitor
        await asyncio.gather(
            *(s.ws.close() for s in connected if s.ws is not None), return_exceptions=True
        )
        for seat in connected:
            seat.gaps()
        quiet_since = time.time() - STALL
        record.stalled_games = [game for game, (_, when, status) in run.progress.items()
                                if status == "running" and when < quiet_since]  # fmt: skip
        stalled = set(record.stalled_games)
        record.stall_details = [s.describe() for s in connected if s.game in stalled][:12]
    return record


def run_clients(
    games: list[dict[str, Any]],
    bases: list[str],
    queue: Any,
    end: Any,
    ordered_setup: bool,
    think: float,
) -> None:
    """A client process: play ``games`` until the parent sets ``end`` (a wall-clock time).

    Puts ``("ready", n)`` on ``queue`` once its sockets are open, ``("set_up", game id)`` when a
    game is past its set-up and ``("record", Record)`` at the end. ``end`` is a shared double,
    0 until the parent knows when the measured window closes.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    record = asyncio.run(
        _play(
            games,
            bases,
            ready=lambda: queue.put(("ready", len(games))),
            on_set_up=lambda game: queue.put(("set_up", game)),
            until=lambda: end.value,
            ordered_setup=ordered_setup,
            think=think,
        )
    )
    queue.put(("record", record))
