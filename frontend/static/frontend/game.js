// /games/<id>: one game, live. The first state comes from GET /api/games/<id>, then the socket
// /ws/games/<id>/ pushes "state", "update" and "notice" messages; actions go over the socket.
// This module wires the page's parts: state.js (what the page holds), socket.js (the
// connection), panels.js (the read-only panels), board.js (the map), forms.js (the actions),
// forms_cards.js (the hands and the contest), text.js (the English) and viewer.js (what this
// device remembers: the guide, the pace, the sound; the tab's title and icon). Other modules of
// the page (chat.js) import `game` from here, and hear "warboard:game-message" /
// "warboard:game-render".
import { META } from "./actions.js";
import { boardUrl, create as createBoard } from "./board.js";
import { api, errorText, randomKey, setText } from "./common.js";
import { renderCards } from "./forms_cards.js";
import { createActionsPanel } from "./forms.js";
import { renderBattle, renderEvents, renderFacts, renderSeats, renderStatus, renderTables, renderTurn, tickCountdowns } from "./panels.js";
import { GameSocket } from "./socket.js";
import { GameState } from "./state.js";
import { actionResultText, hintText, loadCatalog, noticeText } from "./text.js";
import { Pacer, beep, boardHelp, guideStep, setTurnSignal, settings } from "./viewer.js";

const gameId = Number(document.body.dataset.gameId);
// A private game is read with its invite token (/games/<id>?invite=<token>): passed on to the
// API, the socket and a 'join' action; without it (and without a seat) the game is "no such game".
const invite = new URLSearchParams(location.search).get("invite") || "";
const inviteQuery = invite ? `invite=${encodeURIComponent(invite)}` : "";

const state = new GameState();
const requests = new Map(); // request_id -> the action sent
let board = null; // board.js's board once the shapes are loaded
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new GameSocket(`${scheme}://${location.host}/ws/games/${gameId}/${inviteQuery ? `?${inviteQuery}` : ""}`, {
  onMessage,
  onConnection: (text, live) => {
    if (text === "closed" && !state.game) return; // keep the line saying why (no such game)
    renderStatus(page, text);
    if (state.game || live) actions.render();
  },
  onNoSuchGame: () => noSuchGame(),
});
const page = {
  gameId, inviteQuery, state,
  get board() { return board; },
  get connection() { return socket.text; },
  sendAction,
};
const actions = createActionsPanel(page);

// --- rendering ------------------------------------------------------------------------------

// Is the game waiting for this viewer (a decision of theirs, not a leave or concede)?
function myMove() {
  return Boolean(state.view && !state.view.over && (state.view.legal_actions || []).some((a) => !META.has(a.type)));
}

function render() {
  document.getElementById("game-body").hidden = false;
  const mine = myMove();
  const v = state.view;
  const turnKey = v ? `${v.round}:${v.turn_number}:${v.contest ? "contest" : ""}` : null;
  setTurnSignal(mine, `Game ${gameId}${state.game && state.game.name ? ` “${state.game.name}”` : ""} - Warboard`, turnKey);
  document.getElementById("your-turn").hidden = !mine;
  renderGuide();
  renderHintButton(mine);
  renderStatus(page, socket.text);
  renderTurn(page);
  renderSeats(state);
  renderBattle(state);
  renderEvents(state);
  renderTables(state);
  if (board && state.view) board.paint(state.view);
  renderFacts(state);
  actions.render();
  renderCards(state.view);
  document.dispatchEvent(new CustomEvent("warboard:game-render", { detail: state.snapshot() }));
}

function noSuchGame(message) {
  socket.stop();
  document.getElementById("game-body").hidden = true;
  setText("status-line", message || `No such game: there is no game ${gameId}.`, "status-line bad");
}

// The board is drawn once the game is known: its options name the map and the version.
let shapesAsked = false;
async function loadShapes() {
  if (shapesAsked || !state.game) return;
  shapesAsked = true;
  const url = boardUrl(state.game.options);
  document.getElementById("board").dataset.shapesUrl = url; // forms_cards.js reads the card symbols there
  const res = await api("GET", url);
  if (!res.ok) { setText("board-note", "The board could not be drawn; the tables below show everything."); return; }
  setText("board-note", boardHelp());
  board = createBoard(document.getElementById("board"), res.data, {
    onPick: (name) => actions.onTerritoryPick(name),
    onShipPick: (id) => actions.onShipPick(id),
    onStationPick: (key) => actions.onStationPick(key),
    controls: { zoomIn: document.getElementById("zoom-in"), zoomOut: document.getElementById("zoom-out"), reset: document.getElementById("zoom-reset") },
  });
  if (state.view) board.paint(state.view);
  if (state.view) actions.renderForm();
}

// --- state coming in ------------------------------------------------------------------------

function applyState(detail) {
  pacer.clear(); // the whole state is the present: nothing queued is news any more
  const fresh = state.applyState(detail);
  render();
  loadShapes();
  if (fresh) loadLog();
}

function applyUpdate(message, quiet = false) {
  const { render: changed, askState } = state.receiveUpdate(message);
  if (askState) socket.send({ type: "state" });
  if (changed && !quiet) render();
  return changed;
}

// Updates shown one by one at a watchable pace when this viewer asked for it (settings.pace),
// else at once; "Skip to now" shows every queued one at once (the log keeps them all).
// (window.__paceMs: a slower pace for the browser tests, so a loaded machine's bot moves,
// each slower than 0.7 s to come, still queue up behind the one shown.)
const pacer = new Pacer({
  pace: Number(window.__paceMs) || undefined,
  show: (message) => applyUpdate(message),
  showAll: (messages) => { if (messages.map((m) => applyUpdate(m, true)).some(Boolean)) render(); },
  onQueue: (count) => {
    document.getElementById("fast-forward").hidden = count === 0;
    setText("pace-note", count ? `${count} move${count === 1 ? "" : "s"} still to show.` : "");
  },
});

async function loadLog() {
  const after = Math.max(0, state.version - 20);
  const res = await api("GET", `/api/games/${gameId}/events?after=${after}${inviteQuery ? `&${inviteQuery}` : ""}`);
  if (!res.ok) return;
  state.addEntries(res.data.entries);
  renderEvents(state);
  renderBattle(state); // the last roll's dice come from the log
}

function showNotice(message) {
  setText("notice-text", noticeText(message));
  document.getElementById("notice").hidden = false;
}

function showActionResult(message) {
  const result = document.getElementById("action-result");
  const { ok, text } = actionResultText(message, errorText);
  result.className = ok ? "ok" : "bad";
  result.textContent = text;
  // the version the action made, for scripts and tests: the words never show it
  if (ok) result.dataset.version = String(message.version);
  if (message.error === "stale_version") socket.send({ type: "state" });
}

// --- the socket -----------------------------------------------------------------------------

function onMessage(message) {
  // other modules of the page (chat.js) listen for the messages they handle
  document.dispatchEvent(new CustomEvent("warboard:game-message", { detail: message }));
  // chat.js sends with request ids "chat:…" and shows their answers itself
  if (typeof message.request_id === "string" && message.request_id.startsWith("chat:")) return;
  const mine = message.request_id !== undefined && requests.has(message.request_id);
  if (mine && (message.type === "ack" || message.type === "error")) {
    requests.delete(message.request_id);
    showActionResult(message);
    return;
  }
  switch (message.type) {
    case "state": socket.healthy(); applyState(message.game); break;
    case "update": pacer.push(message); break;
    case "notice": showNotice(message); break;
    case "pong": break;
    case "error":
      if (message.status === 404) noSuchGame();
      else if (message.status === 401) { socket.stop(); setText("status-line", `Refused: ${errorText(message)}`, "status-line bad"); }
      else showActionResult(message);
      break;
    default: break;
  }
}

function sendAction(action) {
  const result = document.getElementById("action-result");
  const requestId = randomKey();
  const message = { type: "action", action, expected_version: state.version, idempotency_key: randomKey(), request_id: requestId };
  if (invite) message.invite = invite;
  if (!socket.send(message)) {
    result.className = "bad";
    result.textContent = "Not connected: wait for the connection to come back.";
    return;
  }
  requests.set(requestId, action);
  result.className = "";
  delete result.dataset.version;
  result.textContent = "Sending…";
  document.getElementById("hint-line").hidden = true;
}

// --- the panel's helpers: the hint, the first-game guide, the bottom sheet ---------------------

function renderHintButton(mine) {
  const offered = Boolean(state.game && state.game.you && state.game.hints && mine);
  document.getElementById("hint-button").hidden = !offered;
  if (!offered) document.getElementById("hint-line").hidden = true;
}

document.getElementById("hint-button").addEventListener("click", async () => {
  const line = document.getElementById("hint-line");
  line.hidden = false;
  line.textContent = "Asking the AI…";
  const res = await api("GET", `/api/games/${gameId}/hint${inviteQuery ? `?${inviteQuery}` : ""}`);
  line.textContent = res.ok
    ? `Hint: ${hintText(res.data.action)}${(res.data.reasons || []).length ? ` ${res.data.reasons.join(" ")}` : ""}`
    : `No hint: ${(res.data && res.data.message) || "the AI could not be asked now."}`;
});

function renderGuide() {
  const seated = Boolean(state.game && state.game.you && state.view && !state.view.over);
  const guide = document.getElementById("guide");
  guide.hidden = !seated || settings.guideDone();
  const now = guideStep((state.view && state.view.legal_actions) || []);
  for (const li of document.querySelectorAll("#guide-steps li")) {
    li.classList.toggle("now", li.dataset.step === now);
    if (li.dataset.step === now) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
}

document.getElementById("guide-close").addEventListener("click", () => {
  settings.setGuideDone(true);
  renderGuide();
  document.getElementById("actions-title").focus();
});
document.getElementById("guide-open").addEventListener("click", () => {
  settings.setGuideDone(false);
  renderGuide();
  document.getElementById("guide").scrollIntoView({ block: "nearest" });
});

const sheetToggle = document.getElementById("sheet-toggle");
sheetToggle.addEventListener("click", () => {
  const open = sheetToggle.getAttribute("aria-expanded") !== "true";
  sheetToggle.setAttribute("aria-expanded", String(open));
  sheetToggle.textContent = open ? "Hide" : "Show";
  document.getElementById("panel-body").hidden = !open;
});

const paceBox = document.getElementById("pace-watch");
paceBox.checked = settings.paced();
paceBox.addEventListener("change", () => {
  settings.setPaced(paceBox.checked);
  pacer.paced = paceBox.checked;
  if (!paceBox.checked) pacer.flush();
});
pacer.paced = settings.paced();
document.getElementById("fast-forward").addEventListener("click", () => pacer.flush());

const soundBox = document.getElementById("turn-sound");
soundBox.checked = settings.sound();
soundBox.addEventListener("change", () => {
  settings.setSound(soundBox.checked);
  if (soundBox.checked) beep(); // the sound it will make (and the audio unlocked by this click)
});

document.getElementById("action-send").addEventListener("click", () => {
  const result = document.getElementById("action-result");
  let action;
  try {
    action = JSON.parse(document.getElementById("action-json").value);
  } catch (err) {
    result.className = "bad";
    result.textContent = `Not valid JSON: ${err.message}`;
    return;
  }
  sendAction(action);
});

document.getElementById("notice-close").addEventListener("click", () => {
  document.getElementById("notice").hidden = true;
});

// For the page's other modules (chat.js) and the browser tests: send on the game's socket, read
// what the page holds.
export const game = {
  id: gameId, invite,
  send: (message) => socket.send(message),
  state: () => ({ ...state.snapshot(), connection: socket.text, queued: pacer.count }),
  board: () => board,
};

setInterval(tickCountdowns, 1000);

// The first state over HTTP: a 404 says "no such game" without a socket round trip.
if (!Number.isInteger(gameId) || gameId < 1) {
  noSuchGame("No such game.");
} else {
  // the events' sentences come from the protocol's catalog: loaded with the first state
  Promise.all([api("GET", `/api/games/${gameId}${inviteQuery ? `?${inviteQuery}` : ""}`), loadCatalog()]).then(([res]) => {
    if (res.status === 404) { noSuchGame(); return; }
    if (res.ok && state.game === null) applyState(res.data);
    else if (!res.ok) setText("status-line", `Could not load the game: ${errorText(res.data, res.status)}`, "status-line bad");
    socket.connect();
  });
}
