// The game page's read-only panels, drawn from what the page holds (state.js): the status line,
// the turn and who the game waits for (with countdowns), the seats, the territories and ships
// tables, the battle, the event log and the game's facts. page = {gameId, inviteQuery, state}.
// Everything goes in as text (textContent), never as markup.
import { el, setText, timeControlText } from "./common.js";
import { eventText, optionsText, pendingText, phaseText, remaining, words } from "./text.js";

const EVENTS_SHOWN = 60;

// Each countdown on the page ("[data-deadline]"), once a second.
export function tickCountdowns() {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    node.textContent = remaining(node.dataset.deadline);
  }
}

export function renderStatus(page, connection) {
  const { gameId, state } = page;
  // the game's status in words; its version (an internal counter) is never shown
  const STATUS = { open: "waiting for players", running: "in play", finished: "over", paused: "paused", abandoned: "abandoned" };
  let line = `Game ${gameId}`;
  if (state.game) line += ` — ${STATUS[state.status] || words(state.status)}`;
  const you = state.game && state.game.you ? `you are ${state.game.you.player}` : "watching";
  if (state.game) line += ` — ${you}`;
  line += ` — ${connection}`;
  setText("status-line", line, connection === "live" ? "status-line ok" : "status-line bad");
}

export function renderTurn(page) {
  const { gameId, inviteQuery, state } = page;
  const turn = state.view && state.view.turn;
  setText("turn-line", turn
    ? `Round ${state.view.round}, turn ${state.view.turn_number}: ${turn.seat}${turn.controller && turn.controller !== turn.seat ? ` (played by ${words(turn.controller)})` : ""}, ${phaseText(turn.phase)}.`
    : state.view && state.view.contest ? `Between turns: ${state.view.contest.declarer} declared ${state.view.contest.ally} an ally, and the contest (${words(state.view.contest.stage)}) decides it.`
      : state.status === "open" ? "The game has not started: seats are being taken in the lobby." : "No turn in progress.");
  const items = state.pendingList().map((p) => {
    const li = el("li", {}, `${p.player} for ${p.seat}: ${pendingText(p.kind)}`);
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
    const who = `${s.player || "–"}${seat && seat.name && seat.name !== s.player ? ` (${seat.name})` : ""}${s.kind !== "player" ? ` (${words(s.kind)} army)` : ""}`;
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

// The battle in words: who attacks what, the armies left on each side, and the last roll's dice
// (attacker red, defender blue, as on the replay page). The dice come from the log's latest
// "roll" event for this battle.
export function renderBattle(state) {
  const battle = state.view && state.view.battle;
  document.getElementById("battle-section").hidden = !battle;
  if (battle) {
    const naval = battle.kind === "naval";
    const target = naval ? `ship ${battle.target}` : battle.target;
    setText("battle-line", `${battle.attacker} attacks ${target} (${battle.defender}): ${words(battle.mode)} attack, ${battleStage(battle.stage)}.`);
    const flanks = battle.flanks || [];
    const attacking = flanks.filter((f) => !f.out).reduce((n, f) => n + (f.standing || 0), 0);
    const from = flanks.map((f) => `${f.ship ? `ship ${f.source}` : f.source} ${f.standing}`).join(", ");
    const held = naval ? (state.view.ships[battle.target] || {}).armies : (state.view.territories[battle.target] || {}).armies;
    document.getElementById("battle-sides").replaceChildren(
      el("dt", {}, `${battle.attacker} (attacking)`), el("dd", {}, `${attacking} ${attacking === 1 ? "army" : "armies"} left${from ? ` (from ${from})` : ""}`),
      el("dt", {}, `${battle.defender} (defending)`), el("dd", {}, held === undefined ? "–" : `${held} ${held === 1 ? "army" : "armies"} left`));
    const roll = lastRoll(state);
    const dice = document.getElementById("battle-dice");
    if (!roll) dice.replaceChildren(el("p", { className: "muted" }, "No dice rolled yet."));
    else {
      const die = (side, n) => el("span", { className: `die ${side}`, "aria-label": `${side} rolled ${n}` }, n);
      dice.replaceChildren(el("div", { className: "roll" },
        el("p", { className: "roll-title" }, "Last roll"),
        el("p", {}, el("span", { className: "roll-who" }, "Attacker"), ...(roll.attacker || []).map((n) => die("attacker", n))),
        el("p", {}, el("span", { className: "roll-who" }, "Defender"), ...(roll.defender || []).map((n) => die("defender", n))),
        el("p", {}, `Attacker loses ${roll.attacker_losses}, defender loses ${roll.defender_losses}.`)));
    }
  }
  const contest = state.view && state.view.contest;
  document.getElementById("contest-section").hidden = !contest;
  // its words and the poker table are drawn by forms_cards.js (renderCards)
}

const STAGES = { rolling: "rolling the dice", mobilize: "the defender mobilizes", join: "ships may join the defence",
  won: "won: moving in", prizes: "taking prizes" };
function battleStage(stage) {
  return STAGES[stage] || words(stage);
}

// The newest "roll" event in the log (the battle on the board is the latest one).
function lastRoll(state) {
  for (let i = state.log.length - 1; i >= 0; i -= 1) {
    const events = state.log[i].events || [];
    for (let j = events.length - 1; j >= 0; j -= 1) if (events[j] && events[j].type === "roll") return events[j];
    if (events.some((e) => e && e.type === "attack")) return null; // the battle began after the last roll
  }
  return null;
}

export function renderEvents(state) {
  const lines = [];
  for (const entry of state.log) {
    const who = entry.actor ? `${entry.actor}: ` : "";
    if (entry.action && entry.action.type) lines.push({ seq: entry.sequence, text: `${who}${words(entry.action.type)}`, kind: "action" });
    for (const event of entry.events || []) lines.push({ seq: entry.sequence, text: eventText(event), kind: "event" });
  }
  const shown = lines.slice(-EVENTS_SHOWN).reverse();
  // each line keeps its log sequence as the item's value (the replay and the tests find it
  // there), but the number is not shown: it means nothing to a player
  const items = shown.map((l) => el("li", { className: l.kind, value: l.seq }, l.text));
  if (!items.length) items.push(el("li", { className: "muted" }, "Nothing has happened yet."));
  document.getElementById("events-list").replaceChildren(...items);
}

export function renderFacts(state) {
  if (!state.game) return;
  const facts = [
    ["Name", state.game.name || "–"], ["Status", state.status], ["Creator", state.game.creator],
    ["Seats", `${state.game.seats.filter((s) => s.position < state.game.seat_count).length}/${state.game.seat_count}`],
    ["Time control", timeControlText(state.game)], ["Public", state.game.public ? "yes" : "no"],
    ["Rules", optionsText(state.game.options)], ["Bots' pace", state.game.ai_delay_ms ? `a move every ${(state.game.ai_delay_ms / 1000).toFixed(1)} s` : "as fast as they think"],
    ["Seed commitment", state.game.seed_commitment],
  ];
  if (state.game.invite_token) facts.push(["Invite token", state.game.invite_token]);
  document.getElementById("game-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  setText("game-name", state.game.name ? `“${state.game.name}”` : "");
}
