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

  // --- readable lines (event sentences: Warboard.events, events.js) ---------------------------

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
      : view && view.contest ? `Between turns: ${view.contest.declarer} declared ${view.contest.ally} an ally, and the contest (${view.contest.stage}) decides it.`
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
      return row; // the hands (#hands) are drawn as cards by forms_cards.js on warboard:game-render
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
    // its words and the poker table are drawn by forms_cards.js on warboard:game-render
  }

  function renderEvents() {
    const lines = [];
    for (const entry of log) {
      const who = entry.actor ? `${entry.actor}: ` : "";
      if (entry.action && entry.action.type) lines.push({ seq: entry.sequence, text: `${who}${entry.action.type}`, kind: "action" });
      for (const event of entry.events || []) lines.push({ seq: entry.sequence, text: Warboard.events.text(event), kind: "event" });
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


  // --- the board: frontend/board.js draws /board/classic.json and paints it from the view ------

  let board = null; // Warboard.board.create(...) once the shapes are loaded
  let onTerritoryPick = () => {}; // set by the actions panel
  let onShipPick = () => {}; // set by the actions panel
  let onStationPick = () => {}; // set by the actions panel

  function paintBoard() {
    if (board && view) board.paint(view);
  }

  function markBoard(marks) {
    if (board) board.mark(marks);
  }

  async function loadShapes() {
    const url = document.getElementById("board").dataset.shapesUrl;
    const res = await api("GET", url);
    if (!res.ok) { setText("board-note", "The board could not be drawn; the tables below show everything."); return; }
    board = Warboard.board.create(document.getElementById("board"), res.data, {
      onPick: (name) => onTerritoryPick(name),
      onShipPick: (id) => onShipPick(id),
      onStationPick: (key) => onStationPick(key),
      controls: { zoomIn: document.getElementById("zoom-in"), zoomOut: document.getElementById("zoom-out"), reset: document.getElementById("zoom-reset") },
    });
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

  // Forms for more action types come from modules loaded before this one (forms_*.js): each
  // registers Warboard.gameForms[type] = {defaultChoice(spec), form(spec, ctx), build(spec, choice),
  // marks(spec, choice, ctx), pick(spec, choice, {territory | ship | station}, ctx)}; every
  // member is optional but build. ctx (below) is what a form may use of this page.
  const extension = (type) => (Warboard.gameForms || {})[type] || null;

  function formContext() {
    return {
      view, game, choice, board, specOf, renderForm, numberField, selectField, commit, showFormError,
      sendAction, el, labels: LABELS,
    };
  }

  // The action the open form makes: {action} or {error}.
  function build(spec, c) {
    const ext = extension(spec.type);
    return ext ? ext.build(spec, c || {}) : buildAction(spec, c);
  }

  // Every control of a form carries data-field: the key of `choice` it sets (the action's own key
  // wherever the action has a flat one), so tests and scripts can fill a form by key.
  function numberField(label, value, lo, hi, onChange, field) {
    const input = el("input", { type: "number", min: lo, max: hi, step: 1, value });
    if (field) input.dataset.field = field;
    input.addEventListener("input", () => onChange(Number.parseInt(input.value, 10)));
    return el("label", {}, `${label} (${lo}–${hi})`, input);
  }

  function selectField(label, values, value, onChange, blank, field) {
    const select = el("select", {}, ...(blank ? [el("option", { value: "" }, blank)] : []),
      ...values.map((v) => el("option", { value: v, selected: v === value }, v)));
    if (field) select.dataset.field = field;
    select.addEventListener("change", () => onChange(select.value || null));
    return el("label", {}, label, select);
  }

  function commit(label) {
    const button = el("button", { type: "button", className: "primary" }, label);
    button.addEventListener("click", () => {
      const built = build(specOf(chosenType) || { type: chosenType }, choice);
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
    const ext = extension(spec.type);
    if (ext) return ext.defaultChoice ? ext.defaultChoice(spec) : {};
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
    } else if (view.ships[name]) { // a landing: a ship picked first goes for its first target
      const target = Object.keys(o.targets).find((t) => o.targets[t].includes(name));
      if (!target) return;
      choice.target = target;
      choice.source = name;
      if (!(o.modes[target] || []).includes(choice.mode)) choice.mode = "normal";
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
    const ext = extension(spec.type);
    if (ext) return ext.marks ? ext.marks(spec, choice, formContext()) || {} : marks;
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
      // landings: the ships that may attack (targets[t] lists ship ids as sources), on the board
      const ships = {};
      for (const sources of Object.values(o.targets || {})) for (const s of sources) if (view.ships[s]) ships[s] = "choice";
      for (const s of [choice.source, choice.mode === "flanking" ? choice.source2 : null]) if (s && view.ships[s]) ships[s] = "source";
      if (board) board.markShips(ships);
    }
    return marks;
  }

  // A click on the board goes to the open form's module (a registered one) or to place/attack.
  function pickWith(target) {
    const spec = specOf(chosenType);
    const ext = spec && extension(spec.type);
    if (!ext || !ext.pick) return false;
    if (ext.pick(spec, choice, target, formContext()) !== false) renderForm();
    return true;
  }
  onShipPick = (id) => {
    const spec = specOf(chosenType);
    const ext = spec && extension(spec.type);
    if (ext && ext.pick) {
      // a ship is drawn over its station's dot: a click on it that picks no ship picks the station
      const at = view && view.ships && view.ships[id];
      const ctx = formContext();
      if (ext.pick(spec, choice, { ship: id }, ctx) !== false || (at && ext.pick(spec, choice, { station: at.station }, ctx) !== false)) renderForm();
      return;
    }
    if (chosenType !== "attack" || !specOf("attack")) return;
    pickAttack(id); // a ship as the source of a landing
    renderForm();
  };
  onStationPick = (key) => { pickWith({ station: key }); };

  onTerritoryPick = (name) => {
    const spec = specOf(chosenType);
    if (!spec) return;
    if (pickWith({ territory: name })) return;
    if (spec.type === "place" && (spec.options.territories || []).includes(name)) choice.territory = name;
    else if (spec.type === "attack") pickAttack(name);
    else return;
    renderForm();
  };

  function formFor(spec) {
    const o = spec.options || {};
    const parts = [];
    const ext = extension(spec.type);
    if (ext && ext.form) return ext.form(spec, formContext());
    const redraw = (key) => (v) => { choice[key] = v; renderForm(); };
    const keep = (key) => (v) => { choice[key] = v; };
    switch (spec.type) {
      case "place":
        parts.push(selectField("Territory", o.territories || [], choice.territory, redraw("territory"), "— click the board —", "territory"),
          numberField("Armies", choice.armies ?? o.max, 1, o.max, keep("armies"), "armies"), commit("Place"));
        break;
      case "attack": {
        parts.push(selectField("Target", Object.keys(o.targets || {}).sort(), choice.target, (v) => { pickAttack(v); renderForm(); }, "— click a red outline —", "target"));
        if (choice.target) {
          const sources = o.targets[choice.target];
          const defender = view.territories[choice.target];
          parts.push(el("span", {}, `${choice.target}: ${defender ? `${defender.owner}, ${defender.armies} armies` : ""}`));
          parts.push(selectField("From", sources, choice.source, (v) => { choice.source = v; fitArmies(); renderForm(); }, null, "source"));
          parts.push(selectField("Mode", o.modes[choice.target] || ["normal"], choice.mode, (v) => { choice.mode = v; fitArmies(); renderForm(); }, null, "mode"));
          if (choice.mode === "flanking") {
            parts.push(selectField("Second flank from", sources, choice.source2, (v) => { choice.source2 = v; fitArmies(); renderForm(); }, null, "source2"));
            const hi = flankMost(o.room, choice.source, choice.source2);
            parts.push(numberField("Armies per flank", choice.armies, 2, hi, (v) => { choice.armies = v; askOdds(); }, "armies"));
          } else {
            const [lo, hi] = (o.room[choice.source] || {})[choice.mode] || [1, 1];
            parts.push(numberField("Armies", choice.armies, lo, hi, (v) => { choice.armies = v; askOdds(); }, "armies"));
          }
          parts.push(el("span", { id: "attack-odds", className: "odds", role: "status", "aria-live": "polite" }, ""));
          parts.push(commit("Attack"));
        }
        break;
      }
      case "roll": {
        const until = el("input", { type: "checkbox", checked: Boolean(choice.until_decided), dataset: { field: "until_decided" } });
        until.addEventListener("change", () => { choice.until_decided = until.checked; });
        if (o.max_add) parts.push(numberField("Add armies", choice.add ?? 0, 0, o.max_add, keep("add"), "add"));
        parts.push(el("label", {}, "Until decided", until), commit("Roll"));
        break;
      }
      case "move_in":
        if ("max" in o) parts.push(numberField("Armies to move in", choice.armies ?? o.max, o.min, o.max, keep("armies"), "armies"));
        else {
          const sources = Object.keys(o.extra_from || {}).filter((k) => o.extra_from[k] > 0);
          parts.push(el("span", {}, `${o.moving} move in; more from a neighbour?`));
          if (sources.length) {
            parts.push(selectField("Also from", sources, choice.source, redraw("source"), "nowhere", "source"));
            if (choice.source) parts.push(numberField("More armies", choice.armies ?? 0, 0, o.extra_from[choice.source], keep("armies"), "armies"));
          }
        }
        parts.push(commit("Move in"));
        break;
      case "turn_in": {
        const hand = myHand();
        const cards = el("div", { className: "card-pick", role: "group", "aria-label": "Your Risk cards" });
        hand.forEach((card) => {
          const box = el("input", { type: "checkbox", checked: choice.cards.includes(card), value: card, dataset: { field: "cards" } });
          box.addEventListener("change", () => {
            choice.cards = box.checked ? [...choice.cards, card] : choice.cards.filter((c) => c !== card);
          });
          cards.append(el("label", {}, box, card));
        });
        parts.push(cards, el("span", { className: "muted" }, `Sets: ${(o.sets || []).map((x) => x.join(" + ")).join("; ")}`));
        parts.push(selectField("Reward", o.rewards || [], choice.reward, keep("reward"), null, "reward"), commit("Turn in"));
        break;
      }
      case "end_turn":
        if (o.allies && o.allies.length) parts.push(selectField("Declare an ally", o.allies, choice.ally, keep("ally"), "no ally", "ally"));
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
    if (board) { board.markShips(null); board.markStations(null); } // each form marks its own
    if (!spec) { box.replaceChildren(); markBoard(null); return; }
    box.replaceChildren(el("h3", {}, LABELS[spec.type] || spec.type.replace(/_/g, " ")), ...formFor(spec));
    if (board) markBoard(boardMarks(spec));
    if (spec.type === "attack") askOdds();
    document.getElementById("action-json").value = JSON.stringify(build(spec, choice).action || template(spec), null, 2);
    setText("action-options", JSON.stringify(spec.options || {}, null, 2));
  }

  // ship: for a per-ship action (sail, embark, ... of one of several cruising ships), which ship
  function chooseAction(type, ship) {
    chosenType = type;
    const specs = (view && view.legal_actions) || [];
    const spec = (ship !== undefined && specs.find((s) => s.type === type && (s.options || {}).ship === ship)) || specOf(type);
    choice = defaultChoice(spec || { type });
    if (ship !== undefined) choice.ship = ship;
    for (const b of document.querySelectorAll("#action-buttons button")) {
      b.setAttribute("aria-pressed", String(b.dataset.type === type && (ship === undefined || b.dataset.ship === String(ship))));
    }
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
      const perShip = o.ship !== undefined && specs.filter((s) => s.type === spec.type).length > 1;
      const button = el("button", { type: "button", dataset: perShip ? { type: spec.type, ship: o.ship } : { type: spec.type } }, label);
      button.setAttribute("aria-pressed", String(spec.type === chosenType && (!perShip || choice.ship === o.ship)));
      button.addEventListener("click", () => chooseAction(spec.type, perShip ? o.ship : undefined));
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
    document.dispatchEvent(new CustomEvent("warboard:game-render", { detail: { game, view, version, status } }));
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

  // --- updates: a view's JSON Patch is applied by Warboard.patch (patch.js) -------------------

  function applyUpdate(message) {
    if (message.version < version || (message.version === version && message.status === status)) return;
    if (message.base_version === null || message.base_version === undefined) {
      view = message.view; // the start of the game: the whole view
    } else if (message.base_version !== version) {
      send({ type: "state" }); // a version missed: this patch is not for our view
      return;
    } else {
      try {
        view = Warboard.patch.apply(view, message.patch);
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

  // for the page's other modules: send on the game's socket, read what the page holds
  Warboard.game = { id: gameId, invite, send, state: () => ({ game, view, version, status, connection }) };

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
