// The game page's chat: the log of lines, and for seated players a labelled input.
// Lines arrive over the game's socket (game.js dispatches every socket message as
// "warboard:game-message") and are sent with game.send (game.js). The history comes from
// GET /api/games/{id}/chat on load and again after each (re)connect: game.js gets a "state"
// message after connecting, and the lines after the last one held are fetched then, so no line
// is lost while the socket was down. Lines are kept in id order and each id shown once, however
// the push and the fetch interleave. Every text goes in with textContent (el).
import { api, el, errorText, randomKey } from "./common.js";
import { game } from "./game.js";

// The chat section is on the page: follow the game's socket.
function startChat() {
  const gameId = document.body.dataset.gameId;
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  const note = document.getElementById("chat-note");
  const result = document.getElementById("chat-result");
  const REQUEST_PREFIX = "chat:"; // game.js leaves answers to these request ids to this module
  const shown = new Set();
  let last = 0; // the highest line id held: the next fetch asks for the lines after it
  let fetching = null;
  let again = false;
  let colours = {}; // seat id -> colour, from the view

  function invite() {
    return game.invite || null;
  }

  function timeText(iso) {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  // One line: time, the author (with their seat's colour swatch when they have a seat), text.
  function lineNode(line) {
    const who = el("span", { className: "chat-author" });
    if (line.seat) {
      const swatch = el("span", { className: "chat-swatch", title: line.seat, "aria-hidden": "true" });
      if (colours[line.seat]) swatch.style.backgroundColor = colours[line.seat];
      who.append(swatch);
    }
    who.append(line.seat && line.seat !== line.author ? `${line.author} (${line.seat})` : line.author);
    const time = el("time", { className: "chat-time", dateTime: line.at }, timeText(line.at));
    return el("li", { dataset: { id: String(line.id) } }, time, " ", who, ": ",
      el("span", { className: "chat-text" }, line.text));
  }

  function add(line) {
    if (!line || typeof line.id !== "number" || shown.has(line.id)) return;
    shown.add(line.id);
    last = Math.max(last, line.id);
    const node = lineNode(line);
    const later = Array.from(log.children).find((li) => Number(li.dataset.id) > line.id);
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    log.insertBefore(node, later || null);
    if (atBottom) log.scrollTop = log.scrollHeight;
    document.getElementById("chat-empty").hidden = true;
  }

  // The lines after the last one held, page by page (100 a page); one fetch at a time, and one
  // more if asked for while it ran (a reconnect during a fetch).
  async function fetchHistory() {
    if (fetching) { again = true; return fetching; }
    fetching = (async () => {
      do {
        again = false;
        for (;;) {
          const query = new URLSearchParams({ after: String(last) });
          if (invite()) query.set("invite", invite());
          const res = await api("GET", `/api/games/${gameId}/chat?${query}`);
          if (!res.ok) {
            result.className = "bad";
            result.textContent = `Could not load the chat: ${errorText(res.data, res.status)}`;
            break;
          }
          res.data.messages.forEach(add);
          if (res.data.messages.length < 100) break;
        }
      } while (again);
      fetching = null;
    })();
    return fetching;
  }

  // Who may write: a signed-in player holding a seat they have not left; others read only.
  function renderWriter(game) {
    const seated = Boolean(game && game.you && game.you.state !== "left");
    form.hidden = !seated;
    note.hidden = seated;
    const view = game ? game.view : null;
    colours = {};
    if (view && Array.isArray(view.seats)) view.seats.forEach((s) => { colours[s.id] = s.colour; });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const sent = game.send({ type: "chat", text, request_id: REQUEST_PREFIX + randomKey() });
    result.className = sent ? "" : "bad";
    result.textContent = sent ? "Sending…" : "Not connected: wait for the connection to come back.";
  });

  document.addEventListener("warboard:game-message", (event) => {
    const message = event.detail || {};
    if (message.type === "chat") add(message);
    else if (message.type === "state") { renderWriter(message.game); fetchHistory(); }
    const ours = typeof message.request_id === "string" && message.request_id.startsWith(REQUEST_PREFIX);
    if (!ours) return;
    if (message.type === "ack") {
      input.value = "";
      result.className = "";
      result.textContent = "";
    } else if (message.type === "error") {
      result.className = "bad";
      let text = errorText(message, message.status);
      if (message.retry_after) text += ` — try again in ${message.retry_after} s.`;
      result.textContent = text;
    }
  });

  document.addEventListener("warboard:game-render", (event) => renderWriter(event.detail && event.detail.game));

  fetchHistory();
}

if (document.getElementById("chat-section")) startChat();
