// /games: the lobby. Lists games (GET /api/games: waiting on me, my games, open games, running
// games, finished games), filtered by the buttons above them (?show=), live over /ws/lobby/;
// creates one, joins, fills with bots at an AI level, starts or cancels (the creator); watches a
// running game or joins it by taking over an allied army (a 'join' action); replays a finished one.
import { api, el, errorText, me, randomKey, setText, timeControlText } from "./common.js";

let profile = null;

function seatsText(game) {
  const taken = game.seats.filter((s) => s.position < game.seat_count);
  const names = taken.map((s) => `${s.name || s.player}${s.bot ? " (bot)" : ""}`);
  return `${taken.length}/${game.seat_count}${names.length ? ": " + names.join(", ") : ""}`;
}

function actionButton(label, onClick) {
  const button = el("button", { type: "button" }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    await onClick();
    button.disabled = false;
  });
  return button;
}

// The AI levels (the server's risk.ai.LEVELS); the game's one level plays its bots, allied
// armies and timed-out players.
const AI_LEVELS = ["easy", "normal", "hard"];
// The AI level picked in an open game's row (game id -> level), until its bots are added.
const pickedLevels = new Map();

const DONE = { cancel: "cancelled", bots: "bots added", join: "joined", leave: "left", start: "started" };

async function lobbyCall(game, what, body) {
  const res = await api("POST", `/api/games/${game.id}/${what}`, body || (what === "join" ? {} : undefined));
  if (res.ok) {
    setText("lobby-status", `Game ${game.id}: ${DONE[what] || what + " done"}.`, "ok");
    if (what === "start") location.assign(`/games/${game.id}`);
    else load();
  } else {
    setText("lobby-status", `Game ${game.id}: ${what} refused — ${errorText(res.data, res.status)}`, "bad");
  }
}

// "Take over <ally>": the 'join' action through the HTTP action API, then the game's page.
async function takeOver(game, ally) {
  const body = { action: { type: "join", ally }, expected_version: game.version, idempotency_key: randomKey() };
  const res = await api("POST", `/api/games/${game.id}/actions`, body);
  if (res.ok) {
    location.assign(`/games/${game.id}`);
  } else {
    setText("lobby-status", `Game ${game.id}: taking over ${ally} refused — ${errorText(res.data, res.status)}`, "bad");
    load();
  }
}

// One game's row. allies: the allied armies the caller may take over (joinable=true).
function row(game, allies) {
  const me = profile ? profile.username : null;
  const mine = me !== null && game.seats.some((s) => s.player === me && s.position < game.seat_count);
  const free = game.seats.filter((s) => s.position < game.seat_count).length < game.seat_count;
  const creator = me !== null && game.creator === me;
  const buttons = [];
  if (game.status === "open") {
    buttons.push(el("a", { href: `/games/${game.id}` }, "Open"));
    if (profile) {
      if (!mine && free) buttons.push(actionButton("Join", () => lobbyCall(game, "join")));
      if (mine && !creator) buttons.push(actionButton("Leave", () => lobbyCall(game, "leave")));
      if (creator && free) {
        // The lists are drawn again on every lobby update: the level picked stays picked.
        const picked = pickedLevels.get(game.id) || game.ai_level;
        const level = el("select", { "aria-label": `AI level of game ${game.id}'s bots` },
          ...AI_LEVELS.map((l) => el("option", { value: l, selected: l === picked }, `${l} AI`)));
        level.addEventListener("change", () => pickedLevels.set(game.id, level.value));
        buttons.push(level, actionButton("Fill with bots", () => lobbyCall(game, "bots", { ai_level: level.value })));
      }
      if (creator && !free) buttons.push(actionButton("Start", () => lobbyCall(game, "start")));
      if (creator) buttons.push(actionButton("Cancel game", () => lobbyCall(game, "cancel")));
    }
  } else if (game.status === "finished") {
    buttons.push(el("a", { href: `/games/${game.id}/replay` }, "Replay"));
    buttons.push(el("a", { href: `/games/${game.id}` }, "Final board"));
  } else {
    buttons.push(el("a", { href: `/games/${game.id}` }, mine ? "Play" : "Watch"));
    if (profile && game.status === "running") {
      for (const ally of allies || []) buttons.push(actionButton(`Take over ${ally}`, () => takeOver(game, ally)));
    }
  }
  const title = `#${game.id}${game.name ? " " + game.name : ""}${game.public ? "" : " (private)"}`;
  // Each cell names its column (data-label): on a phone a row is a card of labelled lines
  // (site.css), not a table wider than the screen.
  return el("tr", { dataset: { game: String(game.id) } },
    el("td", {}, el("a", { href: `/games/${game.id}` }, title)),
    el("td", { dataset: { label: "Status" } }, game.status + (game.result && game.result.winner ? `, won by ${game.result.winner}` : "")),
    el("td", { dataset: { label: "Seats" } }, seatsText(game)),
    el("td", { dataset: { label: "Time control" } }, timeControlText(game)),
    el("td", { dataset: { label: "Creator" } }, game.creator),
    el("td", { className: "buttons" }, buttons));
}

// The lists: [tbody id, empty-note id, query, only when signed in].
const LISTS = [
  ["waiting-body", "waiting-empty", "waiting=me", true],
  ["mine-body", "mine-empty", "mine=true", true],
  ["games-body", "games-empty", "status=open", false],
  ["running-body", "running-empty", "status=running", false],
  ["finished-body", "finished-empty", "status=finished", false],
];

// The filter buttons: which lists each shows (the sections' data-list).
const FILTERS = {
  all: ["waiting", "mine", "open", "running", "finished"],
  mine: ["waiting", "mine"],
  open: ["open"],
  running: ["running"],
  finished: ["finished"],
};
const asked = new URLSearchParams(location.search).get("show");
let filter = Object.hasOwn(FILTERS, asked || "") ? asked : "all";

// Each list's section shown when the filter takes it in (and, for a person's own lists, when
// signed in); the pressed button marked.
function applyFilter() {
  for (const section of document.querySelectorAll("section.lobby-list")) {
    const own = section.dataset.list === "waiting" || section.dataset.list === "mine";
    section.hidden = !FILTERS[filter].includes(section.dataset.list) || (own && !profile);
  }
  for (const button of document.querySelectorAll("#lobby-filter button")) {
    button.setAttribute("aria-pressed", String(button.dataset.show === filter));
  }
}

for (const button of document.querySelectorAll("#lobby-filter button")) {
  button.addEventListener("click", () => {
    filter = button.dataset.show;
    const url = new URL(location.href);
    if (filter === "all") url.searchParams.delete("show"); else url.searchParams.set("show", filter);
    history.replaceState(null, "", url);
    applyFilter();
  });
}

async function fetchList(query) {
  const res = await api("GET", `/api/games?${query}`);
  if (!res.ok) throw new Error(errorText(res.data, res.status));
  return res.data.games;
}

// Every list read again (a few small GETs); a second call while one runs waits and reruns,
// so a burst of lobby pushes costs at most two reloads.
let loading = null;
let reload = false;
async function load() {
  if (loading) { reload = true; return loading; }
  loading = (async () => {
    do {
      reload = false;
      try {
        const wanted = LISTS.filter(([, , , signedIn]) => profile || !signedIn);
        const [lists, joinable] = await Promise.all([
          Promise.all(wanted.map(([, , query]) => fetchList(query))),
          profile ? fetchList("joinable=true") : Promise.resolve([]),
        ]);
        const allies = new Map(joinable.map((g) => [g.id, g.allies || []]));
        let open = 0;
        wanted.forEach(([body, empty], i) => {
          const games = lists[i];
          document.getElementById(body).replaceChildren(...games.map((g) => row(g, allies.get(g.id))));
          document.getElementById(empty).hidden = games.length > 0;
          if (body === "games-body") open = games.length;
        });
        applyFilter();
        setText("lobby-status", `${open} open game${open === 1 ? "" : "s"}${profile ? "" : " — sign in to create or join one"}.`, "");
      } catch (err) {
        setText("lobby-status", `Could not load the games: ${err.message}`, "bad");
      }
    } while (reload);
    loading = null;
  })();
  return loading;
}

// The live lobby: /ws/lobby/ names the public games that changed; the lists are read again
// (through the API, with this caller's own visibility). Reconnects with backoff, and reads
// the lists again on reconnecting, since pushes sent while it was down are gone.
let socket = null;
let retries = 0;
function connectLive() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => {
    if (retries > 0) load();
    retries = 0;
    setText("lobby-live", "Live updates: on.", "muted");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "lobby") load();
  });
  socket.addEventListener("close", () => {
    socket = null;
    const delay = Math.min(30000, 1000 * 2 ** retries) * (0.75 + Math.random() / 2);
    retries += 1;
    setText("lobby-live", `Live updates: disconnected, retrying in ${Math.round(delay / 1000)} s.`, "muted");
    setTimeout(connectLive, delay);
  });
}

// The published maps (GET /api/maps): each one's newest version, with the players it is for.
// The seat count follows the chosen map's range.
let maps = [];

function fitSeats() {
  const chosen = maps.find((m) => m.name === document.getElementById("create-map").value);
  if (!chosen) return;
  const seats = document.getElementById("create-seats");
  seats.min = String(chosen.min_seats);
  seats.max = String(chosen.max_seats);
  seats.value = String(Math.min(chosen.max_seats, Math.max(chosen.min_seats, Number(seats.value) || chosen.min_seats)));
}

async function loadMaps() {
  const res = await api("GET", "/api/maps");
  if (!res.ok || !res.data.maps.length) return;
  maps = res.data.maps;
  const select = document.getElementById("create-map");
  const before = select.value;
  select.replaceChildren(...maps.map((m) => el("option", { value: m.name, selected: m.name === before },
    `${m.title} (${m.name}, ${m.min_seats}-${m.max_seats} players, ${m.territories} territories)`)));
  fitSeats();
}

document.getElementById("create-map").addEventListener("change", fitSeats);

document.getElementById("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!profile) {
    setText("create-result", "Sign in first.", "bad");
    return;
  }
  const f = event.target.elements;
  const options = { map: f.map.value, win: f.win.value };
  if (f.win.value === "round-limit") options.round_limit = Number(f.round_limit.value);
  // The host options against the flanking loophole (risk/RULES.md C10, C11): sent only when
  // they differ from the rules' own reading, which a game without them plays by.
  if (f.min_commitment.value !== "2") options.min_commitment = Number(f.min_commitment.value);
  if (f.defender_dice.value !== "commitment") options.defender_dice = f.defender_dice.value;
  options.pirate_turns = f.pirate_turns.value === "" ? null : Number(f.pirate_turns.value);
  const body = {
    name: f.name.value.trim(),
    seats: Number(f.seats.value),
    options,
    public: f.public.checked,
    time_control: f.time_control.value,
    ai_level: f.ai_level.value,
  };
  if (body.time_control === "live") body.minutes = Number(f.minutes.value);
  if (body.time_control === "correspondence") body.days = Number(f.days.value);
  // the pause between the bots' moves, on the server for everyone; left out: the server's own
  if (f.ai_delay_ms.value !== "") body.ai_delay_ms = Number(f.ai_delay_ms.value);
  const res = await api("POST", "/api/games", body);
  if (!res.ok) {
    setText("create-result", `Not created: ${errorText(res.data, res.status)}`, "bad");
    return;
  }
  const game = res.data;
  const result = document.getElementById("create-result");
  result.className = "ok";
  result.replaceChildren(`Created game #${game.id}`,
    game.public ? "" : ` (private; invite token ${game.invite_token})`, ". ",
    el("a", { href: `/games/${game.id}` }, "Open it"));
  load();
});

document.getElementById("private-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = event.target.elements;
  const id = Number(f.game.value);
  const res = await api("POST", `/api/games/${id}/join`, { invite: f.invite.value.trim() });
  if (res.ok) {
    location.assign(`/games/${id}`);
  } else {
    setText("private-result", `Not joined: ${errorText(res.data, res.status)}`, "bad");
  }
});

me().then((p) => {
  profile = p;
  load();
  connectLive();
});
loadMaps();
