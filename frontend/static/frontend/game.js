// /games/<id>: one game, live. The first state comes from GET /api/games/<id>, then the socket
// /ws/games/<id>/ pushes "state", "update" and "notice" messages; actions go over the socket.
// This module wires the page's parts: state.js (what the page holds), socket.js (the
// connection), panels.js (the read-only panels), board.js (the map), forms.js (the actions),
// forms_cards.js (the hands and the contest) and text.js (the English). Other modules of the page
// (chat.js) import `game` from here, and hear "warboard:game-message" / "warboard:game-render".
import { boardUrl, create as createBoard } from "./board.js";
import { api, errorText, randomKey, setText } from "./common.js";
import { renderCards } from "./forms_cards.js";
import { createActionsPanel } from "./forms.js";
import { renderBattle, renderEvents, renderFacts, renderSeats, renderStatus, renderTables, renderTurn, tickCountdowns } from "./panels.js";
import { GameSocket } from "./socket.js";
import { GameState } from "./state.js";
import { actionResultText, loadCatalog, noticeText } from "./text.js";

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

function render() {
  document.getElementById("game-body").hidden = false;
  document.title = `Game ${gameId}${state.game && state.game.name ? ` “${state.game.name}”` : ""} - Warboard`;
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
  const fresh = state.applyState(detail);
  render();
  loadShapes();
  if (fresh) loadLog();
}

function applyUpdate(message) {
  const { render: changed, askState } = state.receiveUpdate(message);
  if (askState) socket.send({ type: "state" });
  if (changed) render();
}

async function loadLog() {
  const after = Math.max(0, state.version - 20);
  const res = await api("GET", `/api/games/${gameId}/events?after=${after}${inviteQuery ? `&${inviteQuery}` : ""}`);
  if (!res.ok) return;
  state.addEntries(res.data.entries);
  renderEvents(state);
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
    case "update": applyUpdate(message); break;
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
  result.textContent = `Sent ${action && action.type ? action.type : "action"} at version ${state.version}…`;
}

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
  state: () => ({ ...state.snapshot(), connection: socket.text }),
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
