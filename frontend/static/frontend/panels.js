// The game page's read-only panels, drawn from what the page holds (state.js): the status line,
// the turn and who the game waits for (with countdowns), the seats, the territories and ships
// tables, the battle, the event log and the game's facts. page = {gameId, inviteQuery, state}.
// Everything goes in as text (textContent), never as markup.
import { el, setText, timeControlText } from "./common.js";
import { eventText, remaining } from "./text.js";

const EVENTS_SHOWN = 60;

// Each countdown on the page ("[data-deadline]"), once a second.
export function tickCountdowns() {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    node.textContent = remaining(node.dataset.deadline);
  }
}

export function renderStatus(page, connection) {
  const { gameId, state } = page;
  let line = `Game ${gameId}`;
  if (state.game) line += ` — ${state.status}, version ${state.version}`;
  const you = state.game && state.game.you ? `you are ${state.game.you.player}` : "watching";
  if (state.game) line += ` — ${you}`;
  line += ` — ${connection}`;
  setText("status-line", line, connection === "live" ? "status-line ok" : "status-line bad");
}

export function renderTurn(page) {
  const { gameId, inviteQuery, state } = page;
  const turn = state.view && state.view.turn;
  setText("turn-line", turn
    ? `Round ${state.view.round}, turn ${state.view.turn_number}: ${turn.seat}${turn.controller && turn.controller !== turn.seat ? ` (played by ${turn.controller})` : ""}, phase ${turn.phase}.`
    : state.view && state.view.contest ? `Between turns: ${state.view.contest.declarer} declared ${state.view.contest.ally} an ally, and the contest (${state.view.contest.stage}) decides it.`
      : state.status === "open" ? "The game has not started: seats are being taken in the lobby." : "No turn in progress.");
  const items = state.pendingList().map((p) => {
    const li = el("li", {}, `${p.player} for ${p.seat}: ${p.kind}`);
    if (p.deadline) {
      li.append(" — due ", el("time", { dateTime: p.deadline }, new Date(p.deadline).toLocaleString()), " (",
        el("span", { dataset: { deadline: p.deadline } }, remaining(p.deadline)), ")");
    }
    if (state.view && state.view.you && p.seat === state.view.you) li.className = "mine";
    return li;
  });
  if (!items.length) items.push(el("li", { className: "muted" }, "nobody"));
  document.getElementById("pending-list").replaceChildren(...items);
  const result = document.getElementById("result-line");
  if (state.view && state.view.over) {
    result.hidden = false;
    result.replaceChildren(`Game over: ${state.view.winner ? `${state.view.winner} wins` : "no winner"}. Ranking: ${(state.view.ranking || []).join(", ")}. `,
      el("a", { href: `/api/games/${gameId}/replay${inviteQuery ? `?${inviteQuery}` : ""}` }, "Replay log with seeds (JSON)"));
  } else {
    result.hidden = true;
  }
}

export function renderSeats(state) {
  const body = document.getElementById("seats-body");
  if (!state.view) { // the lobby: seats from the game facts
    body.replaceChildren(...((state.game && state.game.seats) || []).map((s) => el("tr", {},
      el("td", {}, el("span", { className: "swatch", title: s.colour || "" }), " ", s.colour || ""),
      el("td", {}, `#${s.position + 1}`), el("td", {}, `${s.name || s.player}${s.bot ? " (bot)" : ""}`),
      el("td", {}, s.state), el("td", {}, "–"), el("td", {}, "–"), el("td", {}, "–"))));
    for (const node of body.querySelectorAll(".swatch")) node.style.backgroundColor = node.title;
    return;
  }
  body.replaceChildren(...state.view.seats.map((s) => {
    const swatch = el("span", { className: "swatch", title: s.colour });
    swatch.style.backgroundColor = s.colour;
    const seat = state.lobbySeat(s.player);
    const who = `${s.player || "–"}${seat && seat.name && seat.name !== s.player ? ` (${seat.name})` : ""}${s.kind !== "player" ? ` [${s.kind}]` : ""}`;
    const seatState = [s.alive ? "alive" : "out", s.set_up ? null : "setting up", seat ? seat.state : null].filter(Boolean).join(", ");
    const row = el("tr", { className: s.id === state.view.you ? "mine" : "" },
      el("td", {}, swatch, " ", s.colour), el("th", { scope: "row" }, s.id), el("td", {}, who),
      el("td", {}, seatState), el("td", { className: "num" }, s.risk_cards), el("td", { className: "num" }, s.poker_cards),
      el("td", { className: "num" }, s.pot));
    return row; // the hands (#hands) are drawn as cards by forms_cards.js (renderCards)
  }));
}

export function renderTables(state) {
  const territories = state.view ? Object.entries(state.view.territories).sort(([a], [b]) => a.localeCompare(b)) : [];
  document.getElementById("territories-body").replaceChildren(...territories.map(([name, t]) => el("tr", {},
    el("th", { scope: "row" }, name), el("td", {}, t.owner ?? "–"), el("td", { className: "num" }, t.armies),
    el("td", {}, t.factory ? "factory" : ""),
    el("td", {}, Object.entries(t.captured || {}).map(([k, v]) => `${k}: ${v}`).join(", ")))));
  const ships = state.view ? Object.values(state.view.ships).sort((a, b) => String(a.id).localeCompare(String(b.id))) : [];
  const shipRows = ships.map((s) => el("tr", {},
    el("th", { scope: "row" }, s.id), el("td", {}, s.owner), el("td", {}, s.station),
    el("td", { className: "num" }, s.armies), el("td", {}, s.cruising ? "yes" : "no"),
    el("td", { className: "num" }, s.moves), el("td", { className: "num" }, s.cruises),
    el("td", {}, s.out_of_action ? "yes" : "no")));
  if (!shipRows.length) shipRows.push(el("tr", {}, el("td", { colSpan: 8, className: "muted" }, "No ships.")));
  document.getElementById("ships-body").replaceChildren(...shipRows);
  setText("decks-line", state.view
    ? `Risk deck: ${state.view.risk_deck.draw} to draw, ${state.view.risk_deck.discard} discarded. Poker deck: ${state.view.poker_deck.draw} to draw, ${state.view.poker_deck.discard} discarded.`
    : "");
}

export function renderBattle(state) {
  const battle = state.view && state.view.battle;
  document.getElementById("battle-section").hidden = !battle;
  if (battle) {
    setText("battle-line", `${battle.attacker} attacks ${battle.target} (${battle.defender}), ${battle.mode}, stage ${battle.stage}.`);
    setText("battle-json", JSON.stringify(battle, null, 2));
  }
  const contest = state.view && state.view.contest;
  document.getElementById("contest-section").hidden = !contest;
  // its words and the poker table are drawn by forms_cards.js (renderCards)
}

export function renderEvents(state) {
  const lines = [];
  for (const entry of state.log) {
    const who = entry.actor ? `${entry.actor}: ` : "";
    if (entry.action && entry.action.type) lines.push({ seq: entry.sequence, text: `${who}${entry.action.type}`, kind: "action" });
    for (const event of entry.events || []) lines.push({ seq: entry.sequence, text: eventText(event), kind: "event" });
  }
  const shown = lines.slice(-EVENTS_SHOWN).reverse();
  const items = shown.map((l) => el("li", { className: l.kind, value: l.seq }, el("span", { className: "seq" }, `#${l.seq}`), " ", l.text));
  if (!items.length) items.push(el("li", { className: "muted" }, "Nothing has happened yet."));
  document.getElementById("events-list").replaceChildren(...items);
}

export function renderFacts(state) {
  if (!state.game) return;
  const facts = [
    ["Name", state.game.name || "–"], ["Status", state.status], ["Creator", state.game.creator],
    ["Seats", `${state.game.seats.filter((s) => s.position < state.game.seat_count).length}/${state.game.seat_count}`],
    ["Time control", timeControlText(state.game)], ["Public", state.game.public ? "yes" : "no"],
    ["Options", JSON.stringify(state.game.options)], ["Seed commitment", state.game.seed_commitment],
  ];
  if (state.game.invite_token) facts.push(["Invite token", state.game.invite_token]);
  document.getElementById("game-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  setText("game-name", state.game.name ? `“${state.game.name}”` : "");
}
