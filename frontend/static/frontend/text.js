// The game's English: every event as a sentence (the game page's event log and the replay
// viewer) from the catalog's templates, the socket's notices and action answers, and the
// countdown to a deadline. Pure but for loadCatalog's fetch: Node imports it in
// tests/frontend/test_game_js_events.py. The sentences are plain strings; the pages put them in
// with textContent.

// The events' templates, from GET /api/protocol (games.protocol: the catalog the server renders
// its English from too); null until loaded, and then every event shows as its plain fields.
let catalog = null;

export function setCatalog(document) {
  catalog = document;
}

// Fetches the catalog once; the pages wait for it before their first event lines.
export async function loadCatalog(url = "/api/protocol") {
  if (catalog === null) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) setCatalog(await response.json());
    } catch { /* the plain fields, then */ }
  }
  return catalog;
}

// --- the template language (games/protocol/events.py describes it; text.py is its twin) -------

class Unrendered extends Error {}

const truthy = (v) => v !== null && v !== undefined && v !== false && v !== 0 && v !== ""
  && !(Array.isArray(v) && !v.length) && !(typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length);

function plain(value) {
  if (value === null || value === undefined || (typeof value === "object" && !Array.isArray(value))) throw new Unrendered();
  if (Array.isArray(value)) return value.map(plain).join(", ");
  return String(value);
}

function filtered(value, name, args, event) {
  switch (name) {
    case "one": return (Array.isArray(value) ? value.length === 1 : value === 1) ? args[0] : args[1];
    case "placed": return Object.entries(value || {}).map(([t, n]) => `${plain(n)} on ${t}`).join(", ");
    case "flanks": return (value || []).map(([s, n]) => `${plain(s)} (${plain(n)})`).join(" and ");
    case "station": return stationPlace(value);
    case "plus": {
      const other = /^\d+$/.test(args[0]) ? Number(args[0]) : event[args[0]];
      if (!Number.isInteger(value) || !Number.isInteger(other)) throw new Unrendered();
      return String(value + other);
    }
    default: throw new Unrendered();
  }
}

function field(expr, event) {
  const bar = expr.indexOf("|");
  const key = bar < 0 ? expr : expr.slice(0, bar);
  if (bar < 0) return plain(event[key]);
  const [name, ...args] = expr.slice(bar + 1).split(":");
  return filtered(event[key], name, args, event);
}

function holds(condition, event) {
  const match = /^(!?)(\w+)(?:(!?=)(?:'([^']*)'|(\w+)))?$/.exec(condition);
  if (!match) throw new Unrendered();
  const [, negate, key, op, literal, other] = match;
  const value = event[key];
  let result;
  if (op === undefined) result = truthy(value);
  else {
    const right = literal !== undefined ? literal : event[other];
    result = op === "=" ? value === right : truthy(value) && value !== right;
  }
  return negate ? !result : result;
}

// then|else, split at the first "|" outside a {placeholder|filter}
function branches(body) {
  let depth = 0;
  for (let i = 0; i < body.length; i += 1) {
    if (body[i] === "{") depth += 1;
    else if (body[i] === "}") depth -= 1;
    else if (body[i] === "|" && depth === 0) return [body.slice(0, i), body.slice(i + 1)];
  }
  return [body, ""];
}

// The template filled from the event; throws when it does not fit.
export function render(template, event) {
  const fill = (text) => text.replace(/\{([^{}]*)\}/g, (_, expr) => field(expr, event));
  return template.replace(/\[\?([^:\]]*):([^\]]*)\]|\{([^{}]*)\}/g, (_, condition, body, expr) => {
    if (expr !== undefined) return field(expr, event);
    const [then, otherwise] = branches(body);
    return fill(holds(condition, event) ? then : otherwise);
  });
}

export function eventText(event) {
  const entry = catalog && event && catalog.events[event.type];
  if (entry) {
    try {
      const text = render(entry.line, event);
      if (!/\b(undefined|null|NaN|true|false)\b|\[object/.test(text)) return text;
    } catch { /* fall through to the plain fields */ }
  }
  if (!event || typeof event !== "object") return String(event);
  const fields = Object.entries(event).filter(([k]) => k !== "type" && k !== "private_to" && k !== "hand")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v !== null && typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${String(event.type).replace(/_/g, " ")}${fields.length ? `: ${fields.join(", ")}` : ""}`;
}

// "3m 07s left" to an ISO deadline ("overdue" once past; "" for a date that does not parse).
export function remaining(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return "overdue";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (d > 0) return `${d}d ${h}h left`;
  if (h > 0) return `${h}h ${pad(m)}m left`;
  return `${m}m ${pad(s % 60)}s left`;
}

// A socket "notice" (a reminder, the game paused or resumed by an administrator) as a sentence.
export function noticeText(message) {
  if (message.kind === "reminder") {
    return `Reminder: your decision is due ${new Date(message.due_at).toLocaleString()} (${remaining(message.due_at)}).`;
  }
  if (message.kind === "paused") return "The game is paused by an administrator: the clocks are stopped.";
  if (message.kind === "resumed") return "The game has resumed.";
  return message.message || JSON.stringify(message);
}

// The answer to one of our actions: an "ack" ({ok: true}) or an "error" ({ok: false}), in words:
// what happened (the first event's sentence), never the game's internal version number (the
// page keeps that in the result's data-version).
export function actionResultText(message, errorText) {
  if (message.type === "ack") {
    const first = (message.events || []).find((e) => e && e.type);
    return { ok: true, text: first ? `Done: ${eventText(first)}.`.replace(/\.\.$/, ".") : "Done." };
  }
  let text = errorText(message, message.status);
  if (message.error === "stale_version") text = "The game moved on before your move arrived: check the board and send it again.";
  if (message.error === "not_authenticated") text += " — sign in to play.";
  return { ok: false, text };
}

// A rules word as people write it: "join_defence" -> "join defence", "move_in" -> "move in".
export function words(value) {
  return String(value ?? "").replace(/_/g, " ");
}

// What a pending decision is, in words ("arrange" -> "setting up"); unknown kinds spaced out.
const KINDS = { arrange: "setting up", turn: "their turn", mobilize: "mobilizing the defence",
  join_defence: "joining the defence", contest: "the ally contest", poker: "a poker hand", discard: "discarding" };
export function pendingText(kind) {
  return KINDS[kind] || words(kind);
}

// A turn's phase in words.
const PHASES = { setup: "setting up", reinforce: "placing armies", campaign: "attacking and moving", end: "ending the turn",
  contest: "the ally contest", over: "over" };
export function phaseText(phase) {
  return PHASES[phase] || words(phase);
}

// A game's options (its map, how it is won, ...) as a sentence, each key in words.
export function optionsText(options) {
  const o = options || {};
  const parts = [];
  for (const [key, value] of Object.entries(o)) {
    if (key === "map") parts.push(`${value} map${o.map_version ? ` (edition ${o.map_version})` : ""}`);
    else if (key === "map_version") continue; // with the map
    else if (key === "win") parts.push(`won by ${words(value).replace(/-/g, " ")}`);
    else if (key === "round_limit") {
      // the limit counts only in a game won at it ("null rounds" was printed for the others)
      if (o.win === "round-limit" && value !== null) parts.push(`${value} round${value === 1 ? "" : "s"}`);
    } else if (key === "revision") parts.push(`rules revision ${value}`);
    else if (key === "pirate_turns") parts.push(value === null ? "a pirate is never out" : `a pirate is out after ${value} landless turns`);
    else if (value === null) parts.push(`${words(key)}: none`);
    else if (typeof value === "boolean") parts.push(`${words(key)}: ${value ? "yes" : "no"}`);
    else if (value !== null && typeof value === "object") parts.push(`${words(key)}: ${Object.entries(value).map(([k, v]) => `${words(k)} ${v}`).join(", ")}`);
    else parts.push(`${words(key)}: ${words(value)}`);
  }
  return parts.length ? parts.join("; ") : "the standard rules";
}

// The AI's hint for a decision, as a sentence ("Place 3 armies on Alaska."), from the action
// GET /api/games/<id>/hint suggests.
export function hintText(action) {
  const a = action || {};
  const armies = (n) => `${n} ${n === 1 ? "army" : "armies"}`;
  switch (a.type) {
    case "place": return `Place ${armies(a.armies)} on ${a.territory}.`;
    case "attack": {
      const from = (a.flanks || []).map(([source, n]) => `${source} with ${armies(n)}`).join(" and ");
      return `Attack ${a.target} from ${from}${a.mode && a.mode !== "normal" ? ` (${words(a.mode)} attack)` : ""}.`;
    }
    case "roll": return `Roll${a.add ? `, adding ${armies(a.add)}` : ""}${a.until_decided ? " until the battle is decided" : ""}.`;
    case "move_in": return `Move ${armies(a.armies)} in${a.source ? ` (the extra from ${a.source})` : ""}.`;
    case "transfer": return `Move ${armies(a.armies)} from ${a.source} to ${a.destination}.`;
    case "arrange": {
      // a ship station is "<ocean>:<coast>"
      const ship = a.ship_station ? ` and your ship ${stationText(a.ship_station)}` : "";
      const spread = (a.arrangement || []).map(([t, n]) => `${n} on ${t}`).join(", ");
      return `Put your factory on ${a.factory}${ship}; armies: ${spread}.`;
    }
    case "end_campaign": return "End the campaign.";
    case "end_turn": return a.ally ? `End the turn and declare ${a.ally} an ally.` : "End the turn.";
    case "retreat": return "Retreat.";
    case "turn_in": return `Turn in ${(a.cards || []).join(", ")} for ${words(a.reward)}.`;
    default: {
      const details = Object.entries(a).filter(([k, v]) => k !== "type" && v !== null && typeof v !== "object" && v !== "")
        .map(([k, v]) => `${words(k)} ${v === true ? "yes" : v === false ? "no" : v}`);
      const text = words(a.type);
      return `${text.charAt(0).toUpperCase()}${text.slice(1)}${details.length ? ` (${details.join(", ")})` : ""}.`;
    }
  }
}

// A map's ocean as people read it: "Pacific" -> "Pacific Ocean"; a name that already says what
// water it is ("North Sea") stays as it is.
export function oceanName(name) {
  return /\b(ocean|sea|gulf|bay|strait|channel)s?$/i.test(name) ? name : `${name} Ocean`;
}

// A ship station, keyed "<ocean>:<coast>", in words: "Pacific:Alaska" -> "Alaska (Pacific Ocean)"
// (games/protocol/text.py's station_place, for the events' {station|station}).
export function stationPlace(key) {
  const [ocean, coast] = String(key).split(":");
  return coast ? `${coast} (${oceanName(ocean)})` : String(key);
}

// The same as a place to be: "off Alaska (Pacific Ocean)".
export function stationText(key) {
  return String(key).includes(":") ? `off ${stationPlace(key)}` : String(key);
}
