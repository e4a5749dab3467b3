// The game page's actions panel: a button per legal action, a form per action (place, attack,
// roll, move_in, turn_in, end_turn here; the rest from forms_cards.js and forms_ships.js; any
// other type a generic form from its template), picks on the board, the attack's odds, and the
// Advanced JSON editor's text. The actions themselves are built by actions.js (pure).
// Placing is a draft: each click on an own territory adds armies to it, "Undo" takes the last
// click back, "Clear" all of them, and "Place" commits the draft as one action (a deploy).
// Rolling rolls on as the player's standing choice says (once, until decided, until N armies
// are left: their profile's roll_until, changed right in the form and saved at once).
// page = {state (state.js), board (board.js's, once drawn, else null), connection (text),
// sendAction(action)}.
import { LABELS, META, buildAction, flankMost, mergeDraft, oddsRequest, template } from "./actions.js";
import { api, el, errorText, me, setText } from "./common.js";
import { cardForms } from "./forms_cards.js";
import { shipForms } from "./forms_ships.js";
import { stationText } from "./text.js";

export function createActionsPanel(page) {
  const state = page.state;
  let chosenType = null; // the spec type whose form is open
  let choice = {}; // the form's choices so far
  let specsKey = ""; // the legal actions the form was built for
  let oddsTimer = null;
  // How far Roll rolls on: the player's profile (roll_until), until it has loaded "decided".
  let rollPref = { until: "decided", until_armies: 3 };
  let rollTouched = false; // the open roll form's choice was changed by hand
  me().then((profile) => {
    if (!profile || !profile.roll_until) return;
    rollPref = { until: profile.roll_until, until_armies: profile.roll_until_armies };
    if (chosenType === "roll" && !rollTouched) { Object.assign(choice, rollPref); renderForm(); }
  });
  function saveRollPref() {
    rollTouched = true;
    rollPref = { until: choice.until, until_armies: choice.until_armies };
    if (state.game && state.game.you) api("PATCH", "/api/auth/me", { roll_until: choice.until, roll_until_armies: choice.until_armies });
  }

  function specOf(type) {
    return ((state.view && state.view.legal_actions) || []).find((s) => s.type === type) || null;
  }

  // Forms for more action types come from forms_cards.js and forms_ships.js: each is
  // forms[type] = {defaultChoice(spec), form(spec, ctx), build(spec, choice),
  // marks(spec, choice, ctx), pick(spec, choice, {territory | ship | station}, ctx)}; every
  // member is optional but build. ctx (below) is what a form may use of this page.
  const forms = { ...cardForms, ...shipForms(() => (state.view && state.view.legal_actions) || []) };
  const extension = (type) => forms[type] || null;

  function formContext() {
    return {
      view: state.view, game: state.game, choice, board: page.board, specOf, renderForm, numberField, selectField,
      commit, showFormError, sendAction: page.sendAction, el, labels: LABELS,
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

  // A station's key ("Atlantic:Egypt") is shown in words; every other value as it is.
  function selectField(label, values, value, onChange, blank, field) {
    const shown = field === "station" || field === "ship_station" ? stationText : (v) => v;
    const select = el("select", {}, ...(blank ? [el("option", { value: "" }, blank)] : []),
      ...values.map((v) => el("option", { value: v, selected: v === value }, shown(v))));
    if (field) select.dataset.field = field;
    select.addEventListener("change", () => onChange(select.value || null));
    return el("label", {}, label, select);
  }

  function commit(label) {
    const button = el("button", { type: "button", className: "primary" }, label);
    button.addEventListener("click", () => {
      const built = build(specOf(chosenType) || { type: chosenType }, choice);
      if (built.error) { showFormError(built.error); return; }
      page.sendAction(built.action);
    });
    return button;
  }

  function showFormError(text) {
    const result = document.getElementById("action-result");
    result.className = "bad";
    result.textContent = text;
  }

  function myHand() {
    const mine = state.view && state.view.seats.find((s) => s.id === (state.view.turn ? state.view.turn.seat : state.view.you));
    return (mine && mine.risk_hand) || [];
  }

  function defaultChoice(spec) {
    const o = spec.options || {};
    const ext = extension(spec.type);
    if (ext) return ext.defaultChoice ? ext.defaultChoice(spec) : {};
    switch (spec.type) {
      case "place": return { territory: null, armies: o.max, draft: [] };
      case "roll": rollTouched = false; return { add: 0, ...rollPref };
      case "move_in": return "max" in o ? { armies: o.max } : { armies: 0, source: null };
      case "turn_in": return { cards: [], reward: (o.rewards || [])[0] };
      case "attack": return { target: null, source: null, mode: "normal", armies: null };
      default: return {};
    }
  }

  // The armies placed so far in the draft, and what is left of the reinforcement.
  function draftLeft(spec) {
    return spec.options.max - (choice.draft || []).reduce((n, [, a]) => n + (Number.isInteger(a) ? a : 0), 0);
  }

  // A click on an own territory: the armies field's number (at most what is left) goes there.
  function draftPlace(spec, name) {
    const left = draftLeft(spec);
    choice.territory = name;
    if (left < 1) { showFormError("Every army is placed: Place them, or Undo."); return; }
    const armies = Math.min(Number.isInteger(choice.armies) && choice.armies > 0 ? choice.armies : left, left);
    choice.draft = [...(choice.draft || []), [name, armies]];
    if (choice.armies > draftLeft(spec)) choice.armies = draftLeft(spec);
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
    } else if (state.view.ships[name]) { // a landing: a ship picked first goes for its first target
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
      for (const [t] of choice.draft || []) marks[t] = "picked";
    } else if (spec.type === "attack") {
      for (const t of Object.keys(o.targets || {})) marks[t] = "target";
      if (choice.target) {
        for (const s of o.targets[choice.target]) if (state.view.territories[s]) marks[s] = "choice";
        if (choice.source && state.view.territories[choice.source]) marks[choice.source] = "source";
        if (choice.mode === "flanking" && choice.source2 && state.view.territories[choice.source2]) marks[choice.source2] = "source";
        marks[choice.target] = "picked";
      }
      // landings: the ships that may attack (targets[t] lists ship ids as sources), on the board
      const ships = {};
      for (const sources of Object.values(o.targets || {})) for (const s of sources) if (state.view.ships[s]) ships[s] = "choice";
      for (const s of [choice.source, choice.mode === "flanking" ? choice.source2 : null]) if (s && state.view.ships[s]) ships[s] = "source";
      if (page.board) page.board.markShips(ships);
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
  function onShipPick(id) {
    const spec = specOf(chosenType);
    const ext = spec && extension(spec.type);
    if (ext && ext.pick) {
      // a ship is drawn over its station's dot: a click on it that picks no ship picks the station
      const at = state.view && state.view.ships && state.view.ships[id];
      const ctx = formContext();
      if (ext.pick(spec, choice, { ship: id }, ctx) !== false || (at && ext.pick(spec, choice, { station: at.station }, ctx) !== false)) renderForm();
      return;
    }
    if (chosenType !== "attack" || !specOf("attack")) return;
    pickAttack(id); // a ship as the source of a landing
    renderForm();
  }

  function onStationPick(key) {
    pickWith({ station: key });
  }

  function onTerritoryPick(name) {
    const spec = specOf(chosenType);
    if (!spec) return;
    if (pickWith({ territory: name })) return;
    if (spec.type === "place" && (spec.options.territories || []).includes(name)) draftPlace(spec, name);
    else if (spec.type === "attack") pickAttack(name);
    else return;
    renderForm();
  }

  function formFor(spec) {
    const o = spec.options || {};
    const parts = [];
    const ext = extension(spec.type);
    if (ext && ext.form) return ext.form(spec, formContext());
    const redraw = (key) => (v) => { choice[key] = v; renderForm(); };
    const keep = (key) => (v) => { choice[key] = v; };
    switch (spec.type) {
      case "place": {
        const left = draftLeft(spec);
        const draft = mergeDraft(choice.draft || []);
        const add = el("button", { type: "button" }, "Add");
        add.addEventListener("click", () => { if (choice.territory) { draftPlace(spec, choice.territory); renderForm(); } });
        const undo = el("button", { type: "button", disabled: !(choice.draft || []).length }, "Undo");
        undo.addEventListener("click", () => { choice.draft = choice.draft.slice(0, -1); renderForm(); });
        const clear = el("button", { type: "button", disabled: !(choice.draft || []).length }, "Clear");
        clear.addEventListener("click", () => { choice.draft = []; renderForm(); });
        parts.push(numberField("Armies a click", Math.max(1, Math.min(choice.armies ?? left, left)), 1, Math.max(1, left), keep("armies"), "armies"),
          selectField("Territory", o.territories || [], choice.territory, keep("territory"), "— click the board —", "territory"), add,
          el("p", { id: "place-draft", className: "muted", role: "status", "aria-live": "polite" },
            draft.length ? `Draft: ${draft.map(([t, n]) => `${n} on ${t}`).join(", ")}; ${left} of ${o.max} left` : `Click your territories: ${o.max} armies to place`),
          undo, clear, commit(draft.length > 1 ? "Place all" : "Place"));
        break;
      }
      case "attack": {
        parts.push(selectField("Target", Object.keys(o.targets || {}).sort(), choice.target, (v) => { pickAttack(v); renderForm(); }, "— click a red outline —", "target"));
        if (choice.target) {
          const sources = o.targets[choice.target];
          const defender = state.view.territories[choice.target];
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
        if (o.max_add) parts.push(numberField("Add armies", choice.add ?? 0, 0, o.max_add, keep("add"), "add"));
        const ways = [["once", "once"], ["decided", "until decided"], ["armies", "until N armies are left"]];
        const until = el("select", { dataset: { field: "until" } },
          ...ways.map(([value, text]) => el("option", { value, selected: value === choice.until }, text)));
        until.addEventListener("change", () => { choice.until = until.value; saveRollPref(); renderForm(); });
        parts.push(el("label", {}, "Roll on", until));
        if (choice.until === "armies") {
          parts.push(numberField("N: stop with armies left", choice.until_armies ?? 3, 1, Math.max(1, (o.armies ?? 2) - 1),
            (v) => { choice.until_armies = v; saveRollPref(); }, "until_armies"));
        }
        parts.push(el("span", { className: "muted" }, `${o.armies ?? "?"} of your armies fight`), commit("Roll"));
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
    const start = template(spec, state.view);
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
    const defender = built.action && state.view.territories[built.action.target];
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
    if (page.board) { page.board.markShips(null); page.board.markStations(null); } // each form marks its own
    if (!spec) { box.replaceChildren(); if (page.board) page.board.mark(null); return; }
    box.replaceChildren(el("h3", {}, LABELS[spec.type] || spec.type.replace(/_/g, " ")), ...formFor(spec));
    if (page.board) page.board.mark(boardMarks(spec));
    if (spec.type === "attack") askOdds();
    document.getElementById("action-json").value = JSON.stringify(build(spec, choice).action || template(spec, state.view), null, 2);
    setText("action-options", JSON.stringify(spec.options || {}, null, 2));
  }

  // ship: for a per-ship action (sail, embark, ... of one of several cruising ships), which ship
  function chooseAction(type, ship) {
    chosenType = type;
    const specs = (state.view && state.view.legal_actions) || [];
    const spec = (ship !== undefined && specs.find((s) => s.type === type && (s.options || {}).ship === ship)) || specOf(type);
    choice = defaultChoice(spec || { type });
    if (ship !== undefined) choice.ship = ship;
    for (const b of document.querySelectorAll("#action-buttons button")) {
      b.setAttribute("aria-pressed", String(b.dataset.type === type && (ship === undefined || b.dataset.ship === String(ship))));
    }
    renderForm();
  }

  function renderActions() {
    const specs = (state.view && state.view.legal_actions) || [];
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
    if (state.status === "open") note = "The game has not started.";
    else if (!state.game || !state.game.you) note = "You are watching. Sign in and take a seat (or join an allied army) to play.";
    else if (state.view && state.view.over) note = "The game is over.";
    else if (!specs.length) note = "Nothing for you to do now: the game waits for someone else.";
    else note = "Choose an action; pick territories on the board or in the lists, then confirm.";
    setText("actions-note", note);
    document.getElementById("action-send").disabled = page.connection !== "live";
  }

  return { render: renderActions, renderForm, onTerritoryPick, onShipPick, onStationPick };
}
