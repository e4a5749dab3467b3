// /games/<id>: one game, live. The first state comes from GET /api/games/<id>, then the socket
// /ws/games/<id>/ pushes "state", "update" and "notice" messages; actions go over the socket.
// Everything shown is inserted as text (textContent), never as markup.
"use strict";

(() => {
  const { api, errorText, el, setText, timeControlText, randomKey } = Warboard;
  const gameId = Number(document.body.dataset.gameId);
  // A private game is read with its invite token (/games/<id>?invite=<token>): passed on to the
  // API, the socket and a 'join' action; without it (and without a seat) the game is "no such game".
  const invite = new URLSearchParams(location.search).get("invite") || "";
  const inviteQuery = invite ? `invite=${encodeURIComponent(invite)}` : "";
  const EVENTS_SHOWN = 60;

  let game = null; // the last "state" body (lobby facts, you, turn, pending with deadlines)
  let view = null; // the seat's (or spectator's) view: state.game.view, then each update's patch
  let version = -1;
  let status = "";
  let log = []; // [{sequence, actor, action, events}] oldest first
  let socket = null;
  let connection = "connecting";
  let retries = 0;
  let retryTimer = null;
  let pingTimer = null;
  let stopped = false; // an unknown game or a refused token: no reconnecting
  const requests = new Map(); // request_id -> the action sent

  // --- readable lines -------------------------------------------------------------------------

  // [events start] pure: each event as a sentence (tests/frontend runs it under Node)
  const list = (v) => (Array.isArray(v) ? v.join(", ") : String(v));
  const plural = (n, word, many) => `${n} ${n === 1 ? word : many || `${word}s`}`;
  const armiesText = (n) => plural(n, "army", "armies");
  const placedText = (placed) => Object.entries(placed || {}).map(([t, n]) => `${n} on ${t}`).join(", ");
  const flankText = (flanks) => (flanks || []).map(([from, n]) => `${from} (${n})`).join(" and ");
  const EVENT_TEXT = {
    turn_started: (e) => `Turn ${e.turn_number}, round ${e.round}: ${e.seat}${e.controller && e.controller !== e.seat ? ` (played by ${e.controller})` : ""} gets ${e.from_pot ? `+ ${e.reinforcements} from the pot` : `${e.reinforcements} reinforcements`}${e.factory_armies ? `, + ${e.factory_armies} at factories` : ""}`,
    arranged: (e) => `${e.seat} arranges their armies, factory in ${e.factory}${e.ship_station ? `, ship at ${e.ship_station}` : ""}`,
    turned_in: (e) => `${e.seat} turns in ${list(e.cards)} for ${e.reward}${e.rolls && e.rolls.length ? ` (rolls ${list(e.rolls)})` : ""}${Object.keys(e.territory_bonus || {}).length ? `; bonus ${placedText(e.territory_bonus)}` : ""}`,
    placed: (e) => `${e.seat} places ${e.armies} on ${e.territory}`,
    ship_launched: (e) => `${e.seat} launches ship ${e.ship} at ${e.station} with ${armiesText(e.armies)}`,
    attack: (e) => `${e.attacker} attacks ${e.target} (${e.defender}) from ${flankText(e.flanks)}${e.mode !== "normal" ? `, ${e.mode}` : ""}`,
    naval_attack: (e) => `${e.attacker} attacks ${e.defender}'s ship ${e.target} with ${flankText(e.ships)}${e.mode !== "normal" ? `, ${e.mode}` : ""}`,
    defence_joined: (e) => `${e.defender} joins the defence with ${e.ships && e.ships.length ? `ship ${list(e.ships)}` : "no ships"}`,
    cut: (e) => `${e.seat} cuts ${e.card ? e.card : "no card"}${e.armies ? `: ${armiesText(e.armies)} placed there` : ", nothing placed"}`,
    mobilized: (e) => `${e.seat} mobilizes${e.revealed && e.revealed.length ? `, revealing ${list(e.revealed)}` : ""}${Object.keys(e.placed || {}).length ? `: ${placedText(e.placed)}` : ""}`,
    revealed: (e) => `${e.seat} reveals ${list(e.cards)}${Object.keys(e.placed || {}).length ? `: ${placedText(e.placed)}` : ""}`,
    roll: (e) => `Dice${e.flank ? ` on flank ${e.flank + 1}` : ""}: attacker ${list(e.attacker)} against defender ${list(e.defender)}; attacker loses ${e.attacker_losses}, defender loses ${e.defender_losses}${e.captured ? `, ${e.captured} captured` : ""}`,
    commandeered: (e) => `${e.by} commandeers ship ${e.ship} (${armiesText(e.armies)} aboard)`,
    battle_won: (e) => `The battle for ${e.target} is won${e.prizes && e.prizes.length ? `; prizes ${list(e.prizes)}` : ""}`,
    battle_lost: (e) => `The attack on ${e.target} fails`,
    retreat: (e) => `The attacker retreats from ${e.target}`,
    conquered: (e) => `${e.by} conquers ${e.territory} from ${e.from} and moves in ${e.armies}`,
    ship_captured: (e) => `Ship ${e.ship} is captured by ${e.by} with ${armiesText(e.armies)}`,
    ship_sunk: (e) => `${e.owner}'s ship ${e.ship} sinks${e.armies ? ` with ${armiesText(e.armies)} aboard` : ""}`,
    battle_over: (e) => `The battle is over: ${e.success ? "the attacker succeeded" : "the attacker failed"}`,
    eliminated: (e) => `${e.seat} is eliminated${e.by ? ` by ${e.by}` : ""}`,
    stranded: (e) => `${e.seat} is stranded at sea`,
    cards_drawn: (e) => `${e.seat} draws ${plural(e.risk, "Risk card")} and ${plural(e.poker, "poker card")}${Array.isArray(e.cards) && e.cards.length ? `: ${e.cards.join(", ")}` : ""}`,
    cruise: (e) => `Ship ${e.ship} starts a cruise: ${plural(e.moves, "move")} (rolls ${list(e.rolls)})`,
    sailed: (e) => `Ship ${e.ship} sails ${e.distance} to ${e.station} (${plural(e.moves, "move")} left)`,
    embarked: (e) => `${armiesText(e.armies)} embark on ship ${e.ship} from ${e.territory}`,
    disembarked: (e) => `${armiesText(e.armies)} land from ship ${e.ship} on ${e.territory}`,
    cruise_ended: (e) => `Ship ${e.ship} ends its cruise`,
    campaign_ended: (e) => `${e.seat} ends the campaign`,
    factory_built: (e) => `${e.seat} builds a factory in ${e.territory}`,
    transferred: (e) => `${e.seat} moves ${e.armies} from ${e.source} to ${e.destination}`,
    discarded: (e) => `${e.seat} discards ${plural(e.count, "poker card")}`,
    turn_ended: (e) => `${e.seat} ends the turn`,
    ally_declared: (e) => `${e.seat} declares ${e.ally} an ally`,
    challenge: (e) => `${e.seat} ${e.contest ? "challenges" : "does not challenge"}`,
    cannot_answer: (e) => `${e.seat} cannot answer the challenge`,
    demurred: (e) => `${e.seat} demurs`,
    no_poker: (e) => `No poker: ${e.reason}`,
    poker_settled: (e) => `Poker settled: the declarer ${e.declarer_won ? "wins" : "loses"}${e.in_suit ? " in suit" : ""}`,
    poker_cards_seized: (e) => `${e.seat} seizes ${plural(e.count, "poker card")} from ${e.from}`,
    ally_played: (e) => `${e.by} plays ${e.seat}'s turn`,
    joined: (e) => `${e.player} takes over ${e.seat}`,
    left: (e) => `${e.player} leaves ${e.seat}`,
    conceded: (e) => `${e.player} concedes ${e.seat}`,
    draw_vote: (e) => `${e.seat} votes ${e.agree ? "for" : "against"} a draw`,
    preferences: (e) => `${e.seat} defends with ${e.defence_dice} dice, reveals cards: ${e.reveal}`,
    game_over: (e) => `Game over (${e.how}): ${e.winner ? `${e.winner} wins` : "no winner"}; ranking ${list(e.ranking || [])}`,
    // the poker hand of an ally contest
    start: (e) => `Poker hand starts: ${list(e.players)}`,
    phase: (e) => `Poker: ${e.phase}`,
    dealt: (e) => `${e.player} is dealt ${plural(e.count, "card")}${e.cards ? `: ${list(e.cards)}` : ""}`,
    chose: (e) => `${e.player} chooses ${plural(e.count, "card")}${e.cards ? `: ${list(e.cards)}` : ""}`,
    draw: (e) => `${e.player} discards ${e.discarded} and draws ${e.from_stash + e.from_deck}`,
    ante: (e) => `${e.player} antes ${e.amount}${e.all_in ? " (all in)" : ""}`,
    bet: (e) => `${e.player} bets ${e.amount}${e.all_in ? " (all in)" : ""}`,
    raise: (e) => `${e.player} raises by ${e.amount}${e.all_in ? " (all in)" : ""}`,
    call: (e) => `${e.player} calls ${e.amount}${e.all_in ? " (all in)" : ""}`,
    check: (e) => `${e.player} checks`,
    fold: (e) => `${e.player} folds`,
    muck: (e) => `${e.player} mucks`,
    show: (e) => `${e.player} shows ${list(e.cards)}: ${e.describe}`,
    pot: (e) => `Pot of ${e.amount} to ${list(e.winners)}`,
    hand_over: (e) => `Poker hand over: ${list(e.winners)} win${e.winners && e.winners.length === 1 ? "s" : ""}`,
  };

  function eventText(event) {
    const format = EVENT_TEXT[event && event.type];
    if (format) {
      try {
        const text = format(event);
        if (!/\b(undefined|null|NaN|true|false)\b|\[object/.test(text)) return text;
      } catch { /* fall through to the plain fields */ }
    }
    if (!event || typeof event !== "object") return String(event);
    const fields = Object.entries(event).filter(([k]) => k !== "type" && k !== "private_to" && k !== "hand")
      .map(([k, v]) => `${k.replace(/_/g, " ")} ${v !== null && typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${String(event.type).replace(/_/g, " ")}${fields.length ? `: ${fields.join(", ")}` : ""}`;
  }
  // [events end]

  // [actions start] pure: an action from its spec and the player's choices (tests/frontend runs it)
  const numberIn = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

  // choice: place {territory, armies}; attack {target, mode, source, armies, source2};
  // roll {add, until_decided}; move_in {armies, source}; turn_in {cards, reward};
  // end_turn {ally}. Returns {action} or {error} (a sentence saying what is missing).
  function buildAction(spec, c) {
    const o = spec.options || {};
    c = c || {};
    switch (spec.type) {
      case "place": {
        if (!(o.territories || []).includes(c.territory)) return { error: "Pick one of your territories on the board." };
        if (!numberIn(c.armies, 1, o.max)) return { error: `Place 1 to ${o.max} armies.` };
        return { action: { type: "place", territory: c.territory, armies: c.armies } };
      }
      case "attack": {
        const sources = (o.targets || {})[c.target];
        if (!sources) return { error: "Pick a territory to attack (outlined in red)." };
        if (!sources.includes(c.source)) return { error: `Pick where to attack ${c.target} from.` };
        const modes = (o.modes || {})[c.target] || ["normal"];
        if (!modes.includes(c.mode)) return { error: `Mode ${c.mode} is not open against ${c.target}.` };
        const room = (o.room || {})[c.source] || {};
        if (c.mode !== "flanking") {
          const [lo, hi] = room[c.mode] || [1, 0];
          if (!numberIn(c.armies, lo, hi)) return { error: `Send ${lo} to ${hi} armies from ${c.source}.` };
          return { action: { type: "attack", target: c.target, mode: c.mode, flanks: [[c.source, c.armies]] } };
        }
        const second = c.source2 ?? c.source;
        if (!sources.includes(second)) return { error: "Pick the second flank's source." };
        const hi = flankMost(o.room, c.source, second);
        if (!numberIn(c.armies, 2, hi)) return { error: hi >= 2 ? `Each flank takes 2 to ${hi} armies.` : "Those sources have no room for two flanks." };
        return { action: { type: "attack", target: c.target, mode: "flanking", flanks: [[c.source, c.armies], [second, c.armies]] } };
      }
      case "roll": {
        const most = o.max_add || 0;
        const add = c.add ?? 0;
        if (!numberIn(add, 0, most)) return { error: `Add 0 to ${most} armies.` };
        return { action: { type: "roll", add, until_decided: Boolean(c.until_decided) } };
      }
      case "move_in": {
        if ("max" in o) {
          if (!numberIn(c.armies, o.min, o.max)) return { error: `Move in ${o.min} to ${o.max} armies.` };
          return { action: { type: "move_in", armies: c.armies } };
        }
        if (!c.source || !c.armies) return { action: { type: "move_in", armies: 0 } };
        const most = (o.extra_from || {})[c.source];
        if (most === undefined) return { error: `${c.source} cannot send more.` };
        if (!numberIn(c.armies, 0, most)) return { error: `Move 0 to ${most} more from ${c.source}.` };
        return { action: { type: "move_in", armies: c.armies, source: c.source } };
      }
      case "turn_in": {
        const chosen = [...(c.cards || [])].sort();
        const set = (o.sets || []).find((s) => s.length === chosen.length && [...s].sort().every((x, i) => x === chosen[i]));
        if (!set) return { error: "Those cards are not a set you can turn in." };
        if (!(o.rewards || []).includes(c.reward)) return { error: "Choose a reward." };
        return { action: { type: "turn_in", cards: set, reward: c.reward } };
      }
      case "end_turn": {
        const action = { type: "end_turn" };
        if (c.ally) {
          if (!(o.allies || []).includes(c.ally)) return { error: `${c.ally} cannot be declared an ally.` };
          action.ally = c.ally;
        }
        return { action };
      }
      default:
        return { action: { type: spec.type, ...c } };
    }
  }

  // The most armies each of two equal flanks may take from these sources (one source: half).
  function flankMost(room, a, b) {
    const most = (s) => (((room || {})[s] || {}).committed || [0, 0])[1];
    return a === b ? Math.floor(most(a) / 2) : Math.min(most(a), most(b));
  }

  // The POST /api/combat/risk/odds body for an attack about to be made.
  function oddsRequest(action, defenders) {
    const body = { defenders, mode: action.mode, max_outcomes: 1 };
    if (action.mode === "flanking") body.flanks = action.flanks.map((f) => f[1]);
    else body.attackers = action.flanks[0][1];
    return body;
  }
  // [actions end]

  // --- time -----------------------------------------------------------------------------------

  function remaining(iso) {
    const ms = Date.parse(iso) - Date.now();
    if (Number.isNaN(ms)) return "";
    if (ms <= 0) return "overdue";
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    const pad = (n) => String(n).padStart(2, "0");
    if (d > 0) return `${d}d ${h}h left`;
    if (h > 0) return `${h}h ${pad(m)}m left`;
    return `${m}m ${pad(s % 60)}s left`;
  }

  function tickCountdowns() {
    for (const node of document.querySelectorAll("[data-deadline]")) {
      node.textContent = remaining(node.dataset.deadline);
    }
  }

  // --- rendering ------------------------------------------------------------------------------

  function renderStatus() {
    let line = `Game ${gameId}`;
    if (game) line += ` — ${status}, version ${version}`;
    const you = game && game.you ? `you are ${game.you.player}` : "watching";
    if (game) line += ` — ${you}`;
    line += ` — ${connection}`;
    setText("status-line", line, connection === "live" ? "status-line ok" : "status-line bad");
  }

  function pendingList() {
    // The view's pending has no deadlines; the last state's does: join them on player + kind.
    const due = new Map(((game && game.pending) || []).map((p) => [`${p.player}|${p.kind}`, p.deadline]));
    return ((view && view.pending) || []).map((p) => ({ ...p, deadline: p.deadline ?? due.get(`${p.player}|${p.kind}`) ?? null }));
  }

  function renderTurn() {
    const turn = view && view.turn;
    setText("turn-line", turn
      ? `Round ${view.round}, turn ${view.turn_number}: ${turn.seat}${turn.controller && turn.controller !== turn.seat ? ` (played by ${turn.controller})` : ""}, phase ${turn.phase}.`
      : status === "open" ? "The game has not started: seats are being taken in the lobby." : "No turn in progress.");
    const items = pendingList().map((p) => {
      const li = el("li", {}, `${p.player} for ${p.seat}: ${p.kind}`);
      if (p.deadline) {
        li.append(" — due ", el("time", { dateTime: p.deadline }, new Date(p.deadline).toLocaleString()), " (",
          el("span", { dataset: { deadline: p.deadline } }, remaining(p.deadline)), ")");
      }
      if (view && view.you && p.seat === view.you) li.className = "mine";
      return li;
    });
    if (!items.length) items.push(el("li", { className: "muted" }, "nobody"));
    document.getElementById("pending-list").replaceChildren(...items);
    const result = document.getElementById("result-line");
    if (view && view.over) {
      result.hidden = false;
      result.replaceChildren(`Game over: ${view.winner ? `${view.winner} wins` : "no winner"}. Ranking: ${(view.ranking || []).join(", ")}. `,
        el("a", { href: `/api/games/${gameId}/replay${inviteQuery ? `?${inviteQuery}` : ""}` }, "Replay log with seeds (JSON)"));
    } else {
      result.hidden = true;
    }
  }

  function lobbySeat(player) {
    return ((game && game.seats) || []).find((s) => s.player === player);
  }

  function renderSeats() {
    const body = document.getElementById("seats-body");
    const hands = document.getElementById("hands");
    hands.replaceChildren();
    if (!view) { // the lobby: seats from the game facts
      body.replaceChildren(...((game && game.seats) || []).map((s) => el("tr", {},
        el("td", {}, el("span", { className: "swatch", title: s.colour || "" }), " ", s.colour || ""),
        el("td", {}, `#${s.position + 1}`), el("td", {}, `${s.name || s.player}${s.bot ? " (bot)" : ""}`),
        el("td", {}, s.state), el("td", {}, "–"), el("td", {}, "–"), el("td", {}, "–"))));
      for (const node of body.querySelectorAll(".swatch")) node.style.backgroundColor = node.title;
      return;
    }
    body.replaceChildren(...view.seats.map((s) => {
      const swatch = el("span", { className: "swatch", title: s.colour });
      swatch.style.backgroundColor = s.colour;
      const seat = lobbySeat(s.player);
      const who = `${s.player || "–"}${seat && seat.name && seat.name !== s.player ? ` (${seat.name})` : ""}${s.kind !== "player" ? ` [${s.kind}]` : ""}`;
      const state = [s.alive ? "alive" : "out", s.set_up ? null : "setting up", seat ? seat.state : null].filter(Boolean).join(", ");
      const row = el("tr", { className: s.id === view.you ? "mine" : "" },
        el("td", {}, swatch, " ", s.colour), el("th", { scope: "row" }, s.id), el("td", {}, who),
        el("td", {}, state), el("td", { className: "num" }, s.risk_cards), el("td", { className: "num" }, s.poker_cards),
        el("td", { className: "num" }, s.pot));
      if (s.risk_hand || s.poker_hand) {
        const mine = s.id === view.you;
        hands.append(el("h3", {}, mine ? "Your hands" : `${s.id}'s Risk cards (you play its turn)`));
        const dl = el("dl");
        if (s.risk_hand) dl.append(el("dt", {}, "Risk cards"), el("dd", {}, s.risk_hand.length ? s.risk_hand.join(", ") : "none"));
        if (s.poker_hand) dl.append(el("dt", {}, "Poker cards"), el("dd", {}, s.poker_hand.length ? s.poker_hand.join(", ") : "none"));
        hands.append(dl);
      }
      return row;
    }));
  }

  function renderBoard() {
    const territories = view ? Object.entries(view.territories).sort(([a], [b]) => a.localeCompare(b)) : [];
    document.getElementById("territories-body").replaceChildren(...territories.map(([name, t]) => el("tr", {},
      el("th", { scope: "row" }, name), el("td", {}, t.owner ?? "–"), el("td", { className: "num" }, t.armies),
      el("td", {}, t.factory ? "factory" : ""),
      el("td", {}, Object.entries(t.captured || {}).map(([k, v]) => `${k}: ${v}`).join(", ")))));
    const ships = view ? Object.values(view.ships).sort((a, b) => String(a.id).localeCompare(String(b.id))) : [];
    const shipRows = ships.map((s) => el("tr", {},
      el("th", { scope: "row" }, s.id), el("td", {}, s.owner), el("td", {}, s.station),
      el("td", { className: "num" }, s.armies), el("td", {}, s.cruising ? "yes" : "no"),
      el("td", { className: "num" }, s.moves), el("td", { className: "num" }, s.cruises),
      el("td", {}, s.out_of_action ? "yes" : "no")));
    if (!shipRows.length) shipRows.push(el("tr", {}, el("td", { colSpan: 8, className: "muted" }, "No ships.")));
    document.getElementById("ships-body").replaceChildren(...shipRows);
    setText("decks-line", view
      ? `Risk deck: ${view.risk_deck.draw} to draw, ${view.risk_deck.discard} discarded. Poker deck: ${view.poker_deck.draw} to draw, ${view.poker_deck.discard} discarded.`
      : "");
  }

  function renderBattle() {
    const battle = view && view.battle;
    document.getElementById("battle-section").hidden = !battle;
    if (battle) {
      setText("battle-line", `${battle.attacker} attacks ${battle.target} (${battle.defender}), ${battle.mode}, stage ${battle.stage}.`);
      setText("battle-json", JSON.stringify(battle, null, 2));
    }
    const contest = view && view.contest;
    document.getElementById("contest-section").hidden = !contest;
    if (contest) {
      setText("contest-line", `${contest.declarer} declared ${contest.ally} an ally; stage ${contest.stage}.`);
      setText("contest-json", JSON.stringify(contest, null, 2));
    }
  }

  function renderEvents() {
    const lines = [];
    for (const entry of log) {
      const who = entry.actor ? `${entry.actor}: ` : "";
      if (entry.action && entry.action.type) lines.push({ seq: entry.sequence, text: `${who}${entry.action.type}`, kind: "action" });
      for (const event of entry.events || []) lines.push({ seq: entry.sequence, text: eventText(event), kind: "event" });
    }
    const shown = lines.slice(-EVENTS_SHOWN).reverse();
    const items = shown.map((l) => el("li", { className: l.kind, value: l.seq }, el("span", { className: "seq" }, `#${l.seq}`), " ", l.text));
    if (!items.length) items.push(el("li", { className: "muted" }, "Nothing has happened yet."));
    document.getElementById("events-list").replaceChildren(...items);
  }

  function renderFacts() {
    if (!game) return;
    const facts = [
      ["Name", game.name || "–"], ["Status", status], ["Creator", game.creator],
      ["Seats", `${game.seats.filter((s) => s.position < game.seat_count).length}/${game.seat_count}`],
      ["Time control", timeControlText(game)], ["Public", game.public ? "yes" : "no"],
      ["Options", JSON.stringify(game.options)], ["Seed commitment", game.seed_commitment],
    ];
    if (game.invite_token) facts.push(["Invite token", game.invite_token]);
    document.getElementById("game-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    setText("game-name", game.name ? `“${game.name}”` : "");
  }


  // --- the board: an SVG drawn from /board/classic.json, painted from the view ----------------

  const SVG_NS = "http://www.w3.org/2000/svg";
  let shapes = null; // the drawn board: {viewBox, territories, links, oceans}
  const board = { svg: null, territories: new Map(), ships: null, box: null, home: null };
  let onTerritoryPick = () => {}; // set by the actions panel

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  const points = (polygon) => polygon.map(([x, y]) => `${x},${y}`).join(" ");

  function buildBoard() {
    const host = document.getElementById("board");
    const [x0, y0, w, h] = shapes.viewBox;
    board.home = { x: x0, y: y0, w, h };
    board.box = { ...board.home };
    const root = svg("svg", { viewBox: shapes.viewBox.join(" "), role: "group", "aria-label": "The board", class: "board-svg" });
    root.append(svg("rect", { x: x0, y: y0, width: w, height: h, class: "sea" }));
    const labels = Object.fromEntries(shapes.territories.map((t) => [t.name, t.label]));
    const oceans = svg("g", { class: "oceans" });
    for (const ocean of shapes.oceans) {
      oceans.append(svg("text", { x: ocean.label[0], y: ocean.label[1], class: "ocean-label" }, `${ocean.name} Ocean`));
      for (const [key, [x, y]] of Object.entries(ocean.stations)) {
        const dot = svg("circle", { cx: x, cy: y, r: 3, class: "station" });
        dot.append(svg("title", {}, key));
        oceans.append(dot);
      }
    }
    const links = svg("g", { class: "links" });
    for (const link of shapes.links) {
      const [ax, ay] = labels[link.a], [bx, by] = labels[link.b];
      if (link.wrap) { // across the east-west edge: two half lines off the board's sides
        const [wx, wy, ex, ey] = ax < bx ? [ax, ay, bx, by] : [bx, by, ax, ay];
        const span = wx - x0 + (x0 + w - ex);
        const yAtEdge = wy + ((ey - wy) * (wx - x0)) / span;
        links.append(svg("line", { x1: wx, y1: wy, x2: x0, y2: yAtEdge, class: "link" }));
        links.append(svg("line", { x1: ex, y1: ey, x2: x0 + w, y2: yAtEdge, class: "link" }));
      } else {
        links.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "link" }));
      }
    }
    const lands = svg("g", { class: "lands" });
    const marks = svg("g", { class: "marks" });
    for (const t of shapes.territories) {
      const shape = svg("polygon", { points: points(t.polygon), class: "land", tabindex: 0, role: "button", "data-name": t.name });
      const pick = () => onTerritoryPick(t.name);
      shape.addEventListener("click", () => { if (!board.dragged) pick(); });
      shape.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
      lands.append(shape);
      const [lx, ly] = t.label;
      const name = svg("text", { x: lx, y: ly - 9, class: "land-name" }, t.name);
      const armies = svg("text", { x: lx, y: ly + 7, class: "armies" }, "");
      const factory = svg("rect", { x: lx + 12, y: ly - 3, width: 9, height: 9, class: "factory" });
      factory.append(svg("title", {}, "factory"));
      marks.append(name, armies, factory);
      board.territories.set(t.name, { shape, armies, factory });
    }
    board.ships = svg("g", { class: "ships" });
    root.append(oceans, links, lands, marks, board.ships);
    host.replaceChildren(root);
    board.svg = root;
    enablePanZoom(root);
  }

  function seatColour(seatId) {
    const seat = view && view.seats.find((s) => s.id === seatId);
    return seat ? seat.colour : null;
  }

  function stationPlace(key) {
    for (const ocean of shapes.oceans) if (ocean.stations[key]) return ocean.stations[key];
    return null;
  }

  function paintBoard() {
    if (!board.svg || !view) return;
    for (const [name, parts] of board.territories) {
      const t = view.territories[name] || {};
      const colour = t.owner ? seatColour(t.owner) : null;
      parts.shape.style.fill = colour || "";
      parts.shape.classList.toggle("owned", Boolean(colour));
      parts.shape.dataset.colour = colour || "";
      parts.armies.textContent = t.armies ?? "";
      parts.factory.style.display = t.factory ? "" : "none";
      parts.shape.setAttribute("aria-label", `${name}, ${t.owner ?? "nobody"}, ${t.armies ?? 0} arm${t.armies === 1 ? "y" : "ies"}${t.factory ? ", factory" : ""}`);
    }
    const ships = Object.values(view.ships || {}).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const atStation = new Map();
    const nodes = [];
    for (const ship of ships) {
      const place = stationPlace(ship.station);
      if (!place) continue;
      const n = atStation.get(ship.station) || 0; // ships on one station side by side
      atStation.set(ship.station, n + 1);
      const [x, y] = [place[0] + n * 16, place[1]];
      const g = svg("g", { class: "ship", transform: `translate(${x} ${y})` });
      const hull = svg("path", { d: "M -9 -3 L 9 -3 L 6 5 L -6 5 Z", class: "hull" });
      hull.style.fill = seatColour(ship.owner) || "#888";
      g.append(hull, svg("text", { x: 0, y: -6, class: "crew" }, ship.armies));
      g.append(svg("title", {}, `Ship ${ship.id} of ${ship.owner} at ${ship.station}, ${ship.armies} aboard${ship.out_of_action ? ", out of action" : ""}`));
      nodes.push(g);
    }
    board.ships.replaceChildren(...nodes);
  }

  // marks: {name: "source" | "target" | "picked" | "choice"}: the panel's highlights
  function markBoard(marks) {
    for (const [name, parts] of board.territories) {
      parts.shape.classList.remove("source", "target", "picked", "choice");
      if (marks && marks[name]) parts.shape.classList.add(marks[name]);
    }
  }

  function setBox(box) {
    const min = board.home.w / 8;
    const w = Math.min(board.home.w, Math.max(min, box.w));
    const h = (w * board.home.h) / board.home.w;
    const x = Math.min(board.home.x + board.home.w - w, Math.max(board.home.x, box.x));
    const y = Math.min(board.home.y + board.home.h - h, Math.max(board.home.y, box.y));
    board.box = { x, y, w, h };
    board.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
  }

  function zoom(factor, cx, cy) {
    const b = board.box;
    const px = cx ?? b.x + b.w / 2, py = cy ?? b.y + b.h / 2;
    setBox({ x: px - (px - b.x) * factor, y: py - (py - b.y) * factor, w: b.w * factor, h: b.h * factor });
  }

  function enablePanZoom(root) {
    const toBoard = (e) => {
      const r = root.getBoundingClientRect();
      return [board.box.x + ((e.clientX - r.left) / r.width) * board.box.w, board.box.y + ((e.clientY - r.top) / r.height) * board.box.h];
    };
    root.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = toBoard(e);
      zoom(e.deltaY < 0 ? 0.8 : 1.25, x, y);
    }, { passive: false });
    let drag = null;
    root.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, box: { ...board.box }, id: e.pointerId };
      board.dragged = false;
    });
    root.addEventListener("pointermove", (e) => {
      if (!drag || drag.id !== e.pointerId) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!board.dragged && Math.hypot(dx, dy) < 5) return;
      if (!board.dragged) root.setPointerCapture(e.pointerId);
      board.dragged = true;
      const r = root.getBoundingClientRect();
      setBox({ ...drag.box, x: drag.box.x - (dx / r.width) * drag.box.w, y: drag.box.y - (dy / r.height) * drag.box.h });
    });
    const end = () => { drag = null; setTimeout(() => { board.dragged = false; }, 0); };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
    document.getElementById("zoom-in").addEventListener("click", () => zoom(0.8));
    document.getElementById("zoom-out").addEventListener("click", () => zoom(1.25));
    document.getElementById("zoom-reset").addEventListener("click", () => setBox(board.home));
  }

  async function loadShapes() {
    const url = document.getElementById("board").dataset.shapesUrl;
    const res = await api("GET", url);
    if (!res.ok) { setText("board-note", "The board could not be drawn; the tables below show everything."); return; }
    shapes = res.data;
    buildBoard();
    paintBoard();
    if (view) renderForm();
  }


  // --- the actions panel: a form per legal action, the board to pick territories ---------------

  const META = new Set(["leave", "concede", "vote_draw", "prefer"]);
  const LABELS = { place: "Place armies", attack: "Attack", roll: "Roll", retreat: "Retreat", move_in: "Move in",
    end_campaign: "End the campaign", end_turn: "End the turn", turn_in: "Turn in cards", leave: "Leave", concede: "Concede" };
  let chosenType = null; // the spec type whose form is open
  let choice = {}; // the form's choices so far
  let specsKey = ""; // the legal actions the form was built for
  let oddsTimer = null;

  function specOf(type) {
    return ((view && view.legal_actions) || []).find((s) => s.type === type) || null;
  }

  function numberField(label, value, lo, hi, onChange) {
    const input = el("input", { type: "number", min: lo, max: hi, step: 1, value });
    input.addEventListener("input", () => onChange(Number.parseInt(input.value, 10)));
    return el("label", {}, `${label} (${lo}–${hi})`, input);
  }

  function selectField(label, values, value, onChange, blank) {
    const select = el("select", {}, ...(blank ? [el("option", { value: "" }, blank)] : []),
      ...values.map((v) => el("option", { value: v, selected: v === value }, v)));
    select.addEventListener("change", () => onChange(select.value || null));
    return el("label", {}, label, select);
  }

  function commit(label) {
    const button = el("button", { type: "button", className: "primary" }, label);
    button.addEventListener("click", () => {
      const built = buildAction(specOf(chosenType) || { type: chosenType }, choice);
      if (built.error) { showFormError(built.error); return; }
      sendAction(built.action);
    });
    return button;
  }

  function showFormError(text) {
    const result = document.getElementById("action-result");
    result.className = "bad";
    result.textContent = text;
  }

  function myHand() {
    const mine = view && view.seats.find((s) => s.id === (view.turn ? view.turn.seat : view.you));
    return (mine && mine.risk_hand) || [];
  }

  function defaultChoice(spec) {
    const o = spec.options || {};
    switch (spec.type) {
      case "place": return { territory: null, armies: o.max };
      case "roll": return { add: 0, until_decided: false };
      case "move_in": return "max" in o ? { armies: o.max } : { armies: 0, source: null };
      case "turn_in": return { cards: [], reward: (o.rewards || [])[0] };
      case "attack": return { target: null, source: null, mode: "normal", armies: null };
      default: return {};
    }
  }

  function pickAttack(name) {
    const o = specOf("attack").options;
    if (o.targets[name]) {
      choice.target = name;
      const sources = o.targets[name];
      if (!sources.includes(choice.source)) choice.source = sources[0];
      if (!(o.modes[name] || []).includes(choice.mode)) choice.mode = "normal";
      fitArmies();
    } else if (choice.target && o.targets[choice.target].includes(name)) {
      choice.source = name;
      fitArmies();
    }
  }

  function fitArmies() { // the most armies the chosen source and mode allow, as a start
    const o = specOf("attack").options;
    if (!choice.source) return;
    if (choice.mode === "flanking") {
      const sources = o.targets[choice.target];
      if (!sources.includes(choice.source2)) choice.source2 = sources.find((s) => s !== choice.source) ?? choice.source;
      choice.armies = flankMost(o.room, choice.source, choice.source2);
    } else {
      choice.armies = ((o.room[choice.source] || {})[choice.mode] || [1, 1])[1];
    }
  }

  function boardMarks(spec) {
    const marks = {};
    if (!spec) return marks;
    const o = spec.options || {};
    if (spec.type === "place") {
      for (const t of o.territories || []) marks[t] = "choice";
      if (choice.territory) marks[choice.territory] = "picked";
    } else if (spec.type === "attack") {
      for (const t of Object.keys(o.targets || {})) marks[t] = "target";
      if (choice.target) {
        for (const s of o.targets[choice.target]) if (view.territories[s]) marks[s] = "choice";
        if (choice.source && view.territories[choice.source]) marks[choice.source] = "source";
        if (choice.mode === "flanking" && choice.source2 && view.territories[choice.source2]) marks[choice.source2] = "source";
        marks[choice.target] = "picked";
      }
    }
    return marks;
  }

  onTerritoryPick = (name) => {
    const spec = specOf(chosenType);
    if (!spec) return;
    if (spec.type === "place" && (spec.options.territories || []).includes(name)) choice.territory = name;
    else if (spec.type === "attack") pickAttack(name);
    else return;
    renderForm();
  };

  function formFor(spec) {
    const o = spec.options || {};
    const parts = [];
    const redraw = (key) => (v) => { choice[key] = v; renderForm(); };
    const keep = (key) => (v) => { choice[key] = v; };
    switch (spec.type) {
      case "place":
        parts.push(selectField("Territory", o.territories || [], choice.territory, redraw("territory"), "— click the board —"),
          numberField("Armies", choice.armies ?? o.max, 1, o.max, keep("armies")), commit("Place"));
        break;
      case "attack": {
        parts.push(selectField("Target", Object.keys(o.targets || {}).sort(), choice.target, (v) => { pickAttack(v); renderForm(); }, "— click a red outline —"));
        if (choice.target) {
          const sources = o.targets[choice.target];
          const defender = view.territories[choice.target];
          parts.push(el("span", {}, `${choice.target}: ${defender ? `${defender.owner}, ${defender.armies} armies` : ""}`));
          parts.push(selectField("From", sources, choice.source, (v) => { choice.source = v; fitArmies(); renderForm(); }));
          parts.push(selectField("Mode", o.modes[choice.target] || ["normal"], choice.mode, (v) => { choice.mode = v; fitArmies(); renderForm(); }));
          if (choice.mode === "flanking") {
            parts.push(selectField("Second flank from", sources, choice.source2, (v) => { choice.source2 = v; fitArmies(); renderForm(); }));
            const hi = flankMost(o.room, choice.source, choice.source2);
            parts.push(numberField("Armies per flank", choice.armies, 2, hi, (v) => { choice.armies = v; askOdds(); }));
          } else {
            const [lo, hi] = (o.room[choice.source] || {})[choice.mode] || [1, 1];
            parts.push(numberField("Armies", choice.armies, lo, hi, (v) => { choice.armies = v; askOdds(); }));
          }
          parts.push(el("span", { id: "attack-odds", className: "odds", role: "status", "aria-live": "polite" }, ""));
          parts.push(commit("Attack"));
        }
        break;
      }
      case "roll": {
        const until = el("input", { type: "checkbox", checked: Boolean(choice.until_decided) });
        until.addEventListener("change", () => { choice.until_decided = until.checked; });
        if (o.max_add) parts.push(numberField("Add armies", choice.add ?? 0, 0, o.max_add, keep("add")));
        parts.push(el("label", {}, "Until decided", until), commit("Roll"));
        break;
      }
      case "move_in":
        if ("max" in o) parts.push(numberField("Armies to move in", choice.armies ?? o.max, o.min, o.max, keep("armies")));
        else {
          const sources = Object.keys(o.extra_from || {}).filter((k) => o.extra_from[k] > 0);
          parts.push(el("span", {}, `${o.moving} move in; more from a neighbour?`));
          if (sources.length) {
            parts.push(selectField("Also from", sources, choice.source, redraw("source"), "nowhere"));
            if (choice.source) parts.push(numberField("More armies", choice.armies ?? 0, 0, o.extra_from[choice.source], keep("armies")));
          }
        }
        parts.push(commit("Move in"));
        break;
      case "turn_in": {
        const hand = myHand();
        const cards = el("div", { className: "card-pick", role: "group", "aria-label": "Your Risk cards" });
        hand.forEach((card) => {
          const box = el("input", { type: "checkbox", checked: choice.cards.includes(card) });
          box.addEventListener("change", () => {
            choice.cards = box.checked ? [...choice.cards, card] : choice.cards.filter((c) => c !== card);
          });
          cards.append(el("label", {}, box, card));
        });
        parts.push(cards, el("span", { className: "muted" }, `Sets: ${(o.sets || []).map((x) => x.join(" + ")).join("; ")}`));
        parts.push(selectField("Reward", o.rewards || [], choice.reward, keep("reward")), commit("Turn in"));
        break;
      }
      case "end_turn":
        if (o.allies && o.allies.length) parts.push(selectField("Declare an ally", o.allies, choice.ally, keep("ally"), "no ally"));
        parts.push(commit("End the turn"));
        break;
      case "retreat": case "end_campaign": case "leave": case "concede":
        parts.push(commit(LABELS[spec.type]));
        break;
      default:
        parts.push(...genericForm(spec));
    }
    return parts;
  }

  // Any other action: the fields of its template, each from the spec's options where they say.
  function genericForm(spec) {
    const o = spec.options || {};
    const start = template(spec);
    delete start.type;
    // fields the template leaves out but the options offer: yes/no lists, and what o.now shows
    const now = o.now && typeof o.now === "object" ? o.now : {};
    for (const [key, value] of Object.entries(o)) {
      if (key in start || !Array.isArray(value) || !value.length) continue;
      if (value.every((x) => typeof x === "boolean")) start[key] = value[0];
      else if (key in now) start[key] = value.includes(now[key]) ? now[key] : value[0];
    }
    if (!Object.keys(choice).length) Object.assign(choice, start);
    const lists = Object.values(o).filter((v) => Array.isArray(v) && v.every((x) => typeof x !== "object"));
    const maps = Object.values(o).filter((v) => v && typeof v === "object" && !Array.isArray(v));
    const parts = [];
    for (const [key, value] of Object.entries(start)) {
      const from = lists.find((l) => l.includes(value)) || (maps.find((m) => value !== null && Object.hasOwn(m, value)) ? Object.keys(maps.find((m) => Object.hasOwn(m, value))) : null);
      if (from && (typeof value === "string" || typeof value === "number")) {
        parts.push(selectField(key, from.map(String), String(choice[key]), (v) => { choice[key] = from.find((x) => String(x) === v) ?? v; }));
      } else if (typeof value === "number") {
        const hi = typeof o.max === "number" ? o.max : 1000;
        parts.push(numberField(key, choice[key], typeof o.min === "number" ? o.min : 0, hi, (v) => { choice[key] = v; }));
      } else if (typeof value === "boolean") {
        const box = el("input", { type: "checkbox", checked: Boolean(choice[key]) });
        box.addEventListener("change", () => { choice[key] = box.checked; });
        parts.push(el("label", {}, key, box));
      } else {
        const input = el("input", { type: "text", value: JSON.stringify(choice[key]), spellcheck: false });
        input.addEventListener("change", () => { try { choice[key] = JSON.parse(input.value); } catch { showFormError(`${key}: not valid JSON`); } });
        parts.push(el("label", {}, `${key} (JSON)`, input));
      }
    }
    parts.push(commit(LABELS[spec.type] || spec.type.replace(/_/g, " ")));
    return parts;
  }

  function askOdds() {
    clearTimeout(oddsTimer);
    const out = document.getElementById("attack-odds");
    if (!out) return;
    const built = buildAction(specOf("attack"), choice);
    const defender = built.action && view.territories[built.action.target];
    if (!built.action || !defender) { out.textContent = built.error || ""; return; }
    out.textContent = "odds…";
    const key = JSON.stringify(built.action);
    oddsTimer = setTimeout(async () => {
      const res = await api("POST", "/api/combat/risk/odds", oddsRequest(built.action, defender.armies));
      const now = document.getElementById("attack-odds");
      if (!now || JSON.stringify(buildAction(specOf("attack"), choice).action) !== key) return;
      now.textContent = res.ok && typeof res.data.attacker_wins === "number"
        ? `Win ${(100 * res.data.attacker_wins).toFixed(1)}% — you lose ${res.data.expected_attacker_losses.toFixed(1)}, they lose ${res.data.expected_defender_losses.toFixed(1)} on average`
        : `No odds: ${errorText(res.data, res.status)}`;
    }, 250);
  }

  function renderForm() {
    const spec = specOf(chosenType);
    const box = document.getElementById("action-form");
    if (!spec) { box.replaceChildren(); markBoard(null); return; }
    box.replaceChildren(el("h3", {}, LABELS[spec.type] || spec.type.replace(/_/g, " ")), ...formFor(spec));
    if (board.svg) markBoard(boardMarks(spec));
    if (spec.type === "attack") askOdds();
    document.getElementById("action-json").value = JSON.stringify(buildAction(spec, choice).action || template(spec), null, 2);
    setText("action-options", JSON.stringify(spec.options || {}, null, 2));
  }

  function chooseAction(type) {
    chosenType = type;
    choice = defaultChoice(specOf(type) || { type });
    for (const b of document.querySelectorAll("#action-buttons button")) b.setAttribute("aria-pressed", String(b.dataset.type === type));
    renderForm();
  }

  // --- the actions panel (templates for the Advanced JSON editor) ----------------------------------------------------------------------

  const first = (v) => (Array.isArray(v) ? v[0] : v && typeof v === "object" ? Object.keys(v)[0] : v);

  function template(spec) {
    const o = spec.options || {};
    const a = { type: spec.type };
    const armiesOn = (t) => (view && view.territories[t] ? view.territories[t].armies : 1);
    switch (spec.type) {
      case "arrange": {
        const ts = o.territories || [];
        const base = Math.floor((o.armies || 0) / Math.max(ts.length, 1));
        let extra = (o.armies || 0) - base * ts.length;
        a.arrangement = ts.map((t) => [t, base + (extra-- > 0 ? 1 : 0)]);
        a.factory = ts[0];
        if (o.ship_stations && o.ship_stations.length) a.ship_station = o.ship_stations[0];
        break;
      }
      case "turn_in": a.cards = first(o.sets); a.reward = first(o.rewards); break;
      case "place": a.territory = first(o.territories); a.armies = o.max; break;
      case "place_ship": a.station = first(o.stations); break;
      case "place_factory": a.territory = first(o.territories); break;
      case "attack": {
        a.target = first(o.targets);
        const source = o.targets ? o.targets[a.target][0] : null;
        a.mode = "normal";
        a.flanks = [[source, Math.max(1, Math.min(3, armiesOn(source) - 1))]];
        break;
      }
      case "naval_attack": {
        const fleet = o.defenders ? o.defenders[first(o.defenders)] : {};
        const ship = first(fleet);
        a.ships = [ship]; a.target = ship ? fleet[ship][0] : null; a.mode = "normal"; a.armies = 0;
        break;
      }
      case "roll": a.add = 0; a.until_decided = false; break;
      case "move_in":
        if ("max" in o) a.armies = o.max;
        else { a.armies = o.moving; a.source = first(o.extra_from) ?? null; }
        break;
      case "mobilize": a.reveal = []; a.wild_territories = []; break;
      case "join_defence": a.ships = []; break;
      case "prize": a.ship = first(o.ships); a.by = first(o.boarders) ?? null; a.armies = 0; break;
      case "cruise": a.ship = first(o.ships); break;
      case "sail": a.ship = o.ship; a.station = first(o.stations); break;
      case "embark": a.ship = o.ship; a.territory = first(o.territories); a.armies = 1; break;
      case "disembark": a.ship = o.ship; a.territory = first(o.territories); a.armies = 1; break;
      case "end_cruise": a.ship = o.ship; break;
      case "transfer": a.source = first(o.sources); a.destination = ""; a.armies = 1; break;
      case "discard": {
        const mine = view && view.seats.find((s) => s.id === view.you);
        a.cards = ((mine && mine.poker_hand) || []).slice(0, o.count || 0);
        break;
      }
      case "end_turn": if (o.allies && o.allies.length) a.ally = null; break;
      case "challenge": a.contest = first(o.contest); break;
      case "answer": a.demur = false; break;
      case "poker": a.move = first(o.moves); a.cards = []; break;
      case "join": a.ally = first(o.allies); break;
      default: break; // retreat, end_campaign, leave and any new type: the type alone
    }
    return a;
  }

  function renderActions() {
    const specs = (view && view.legal_actions) || [];
    const buttons = specs.map((spec) => {
      const o = spec.options || {};
      const label = `${LABELS[spec.type] || spec.type.replace(/_/g, " ")}${o.ship ? ` (${o.ship})` : ""}`;
      const button = el("button", { type: "button", dataset: { type: spec.type } }, label);
      button.setAttribute("aria-pressed", String(spec.type === chosenType));
      button.addEventListener("click", () => chooseAction(spec.type));
      return button;
    });
    document.getElementById("action-buttons").replaceChildren(...buttons);
    const key = JSON.stringify(specs);
    if (key !== specsKey) { // new choices: open the first real action's form again
      specsKey = key;
      const main = specs.find((s) => !META.has(s.type));
      chooseAction(main ? main.type : null);
    }
    let note;
    if (status === "open") note = "The game has not started.";
    else if (!game || !game.you) note = "You are watching. Sign in and take a seat (or join an allied army) to play.";
    else if (view && view.over) note = "The game is over.";
    else if (!specs.length) note = "Nothing for you to do now: the game waits for someone else.";
    else note = "Choose an action; pick territories on the board or in the lists, then confirm.";
    setText("actions-note", note);
    document.getElementById("action-send").disabled = connection !== "live";
  }

  function render() {
    document.getElementById("game-body").hidden = false;
    document.title = `Game ${gameId}${game && game.name ? ` “${game.name}”` : ""} - Warboard`;
    renderStatus();
    renderTurn();
    renderSeats();
    renderBattle();
    renderEvents();
    renderBoard();
    paintBoard();
    renderFacts();
    renderActions();
  }

  function noSuchGame(message) {
    stopped = true;
    document.getElementById("game-body").hidden = true;
    setText("status-line", message || `No such game: there is no game ${gameId}.`, "status-line bad");
  }

  // --- state coming in ------------------------------------------------------------------------

  function applyState(detail) {
    const fresh = game === null;
    game = detail;
    view = detail.view;
    version = detail.version;
    status = detail.status;
    render();
    if (fresh) loadLog();
  }

  // --- JSON Patch (RFC 6902) of a view: the ops risk.rules.view_patch makes ---------------------
  // [applyPatch start]
  function applyPatch(doc, ops) {
    // A new document: doc with ops (add / remove / replace on object keys) applied; throws if
    // an op does not fit, so a half-patched view is never kept.
    let result = structuredClone(doc);
    for (const op of ops) {
      const keys = op.path === "" ? [] : op.path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
      if (op.path !== "" && !op.path.startsWith("/")) throw new Error(`bad path ${op.path}`);
      if (!["add", "remove", "replace"].includes(op.op)) throw new Error(`unsupported op ${op.op}`);
      if (!keys.length) {
        if (op.op === "remove") throw new Error("cannot remove the whole document");
        result = structuredClone(op.value);
        continue;
      }
      let parent = result;
      for (const key of keys.slice(0, -1)) {
        if (!isObject(parent) || !Object.hasOwn(parent, key)) throw new Error(`no ${op.path}`);
        parent = parent[key];
      }
      const last = keys[keys.length - 1];
      if (!isObject(parent)) throw new Error(`${op.path} is not inside an object`);
      if (op.op !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no ${op.path} to ${op.op}`);
      if (op.op === "remove") delete parent[last];
      else parent[last] = structuredClone(op.value);
    }
    return result;
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }
  // [applyPatch end]

  function applyUpdate(message) {
    if (message.version < version || (message.version === version && message.status === status)) return;
    if (message.base_version === null || message.base_version === undefined) {
      view = message.view; // the start of the game: the whole view
    } else if (message.base_version !== version) {
      send({ type: "state" }); // a version missed: this patch is not for our view
      return;
    } else {
      try {
        view = applyPatch(view, message.patch);
      } catch {
        send({ type: "state" });
        return;
      }
    }
    version = message.version;
    status = message.status;
    if (game) game.status = status;
    if (!log.some((e) => e.sequence === message.sequence)) {
      log.push({ sequence: message.sequence, events: message.events });
    }
    render();
    // The update's pending has no deadlines: in a timed game ask for the full state for them.
    if (game && game.time_control !== "untimed") send({ type: "state" });
  }

  async function loadLog() {
    const after = Math.max(0, version - 20);
    const res = await api("GET", `/api/games/${gameId}/events?after=${after}${inviteQuery ? `&${inviteQuery}` : ""}`);
    if (!res.ok) return;
    const known = new Set(log.map((e) => e.sequence));
    for (const entry of res.data.entries) if (!known.has(entry.sequence)) log.push(entry);
    log.sort((a, b) => a.sequence - b.sequence);
    renderEvents();
  }

  function showNotice(message) {
    let text;
    if (message.kind === "reminder") text = `Reminder: your decision is due ${new Date(message.due_at).toLocaleString()} (${remaining(message.due_at)}).`;
    else if (message.kind === "paused") text = "The game is paused by an administrator: the clocks are stopped.";
    else if (message.kind === "resumed") text = "The game has resumed.";
    else text = message.message || JSON.stringify(message);
    setText("notice-text", text);
    document.getElementById("notice").hidden = false;
  }

  function showActionResult(message) {
    const result = document.getElementById("action-result");
    if (message.type === "ack") {
      result.className = "ok";
      result.textContent = `Applied: now version ${message.version}, ${message.events.length} event${message.events.length === 1 ? "" : "s"}.`;
    } else {
      result.className = "bad";
      let text = errorText(message, message.status);
      if (message.error === "stale_version") text += ` — the game moved on (version ${message.version}); check the board and send again.`;
      if (message.error === "not_authenticated") text += " — sign in to play.";
      result.textContent = text;
      if (message.error === "stale_version") send({ type: "state" });
    }
  }

  // --- the socket -----------------------------------------------------------------------------

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function onMessage(event) {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    const mine = message.request_id !== undefined && requests.has(message.request_id);
    if (mine && (message.type === "ack" || message.type === "error")) {
      requests.delete(message.request_id);
      showActionResult(message);
      return;
    }
    switch (message.type) {
      case "state": retries = 0; applyState(message.game); break;
      case "update": applyUpdate(message); break;
      case "notice": showNotice(message); break;
      case "pong": break;
      case "error":
        if (message.status === 404) noSuchGame();
        else if (message.status === 401) { stopped = true; setText("status-line", `Refused: ${errorText(message)}`, "status-line bad"); }
        else showActionResult(message);
        break;
      default: break;
    }
  }

  function connect() {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/${inviteQuery ? `?${inviteQuery}` : ""}`);
    connection = retries ? `reconnecting (attempt ${retries + 1})` : "connecting";
    renderStatus();
    socket.addEventListener("open", () => {
      connection = "live";
      renderStatus();
      renderActions();
      clearInterval(pingTimer);
      pingTimer = setInterval(() => send({ type: "ping" }), 50000); // keeps presence fresh
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      clearInterval(pingTimer);
      socket = null;
      if (event.code === 4404) noSuchGame();
      if (event.code === 4401 || event.code === 4404) stopped = true;
      if (stopped) { connection = "closed"; if (game) renderStatus(); return; }
      const delay = Math.min(30000, 1000 * 2 ** retries) * (0.75 + Math.random() / 2);
      retries += 1;
      connection = `disconnected, retrying in ${Math.round(delay / 1000)} s`;
      renderStatus();
      if (game) renderActions();
      retryTimer = setTimeout(connect, delay);
    });
  }

  function sendAction(action) {
    const result = document.getElementById("action-result");
    const requestId = randomKey();
    const message = { type: "action", action, expected_version: version, idempotency_key: randomKey(), request_id: requestId };
    if (invite) message.invite = invite;
    if (!send(message)) {
      result.className = "bad";
      result.textContent = "Not connected: wait for the connection to come back.";
      return;
    }
    requests.set(requestId, action);
    result.className = "";
    result.textContent = `Sent ${action && action.type ? action.type : "action"} at version ${version}…`;
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

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !socket && !stopped) {
      clearTimeout(retryTimer);
      retries = 0;
      connect();
    }
  });

  setInterval(tickCountdowns, 1000);
  loadShapes();

  // The first state over HTTP: a 404 says "no such game" without a socket round trip.
  if (!Number.isInteger(gameId) || gameId < 1) {
    noSuchGame("No such game.");
  } else {
    api("GET", `/api/games/${gameId}${inviteQuery ? `?${inviteQuery}` : ""}`).then((res) => {
      if (res.status === 404) { noSuchGame(); return; }
      if (res.ok && game === null) applyState(res.data);
      else if (!res.ok) setText("status-line", `Could not load the game: ${errorText(res.data, res.status)}`, "status-line bad");
      connect();
    });
  }
})();
