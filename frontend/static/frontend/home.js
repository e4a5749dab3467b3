// /: the landing page. Lists a few running games to watch (GET /api/games?status=running), each
// a link to its page, where a visitor watches as a spectator.
import { api, el, errorText, setText } from "./common.js";

// How many running games the page shows (the lobby lists them all).
const SHOWN = 8;

function seatsText(game) {
  const seated = game.seats.filter((s) => s.position < game.seat_count);
  return seated.map((s) => `${s.name || s.player}${s.bot ? " (bot)" : ""}`).join(", ");
}

async function load() {
  const res = await api("GET", "/api/games?status=running");
  if (!res.ok) {
    setText("watch-status", `Could not load the running games: ${errorText(res.data, res.status)}`, "bad");
    return;
  }
  const games = res.data.games.slice(0, SHOWN);
  const list = document.getElementById("watch-list");
  list.replaceChildren(...games.map((game) => el("li", {},
    el("a", { href: `/games/${game.id}` }, game.name || `Game ${game.id}`),
    ` — ${seatsText(game)}`)));
  const total = res.data.games.length;
  setText("watch-status", total === 0 ? "No game is running right now."
    : `${total} running game${total === 1 ? "" : "s"}${total > SHOWN ? `, the first ${SHOWN} here` : ""}: open one to watch it.`, "");
}

load();
