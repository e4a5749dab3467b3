// Forms for the set-up, ships and the remaining board actions of the game page: arrange,
// place_ship, place_factory, cruise, sail, embark, disembark, end_cruise, naval_attack,
// join_defence, prize, transfer and mobilize: shipForms(legal) gives forms.js one per type (see
// formContext() there): the choices are picked on the board where they are places (territories,
// ships, stations) and in a small panel built from the legal_actions spec, which offers exactly
// what the spec allows.
// --- pure: actions from specs and choices, and what to highlight (Node imports them in the tests)
import { el } from "./common.js";
import { stationText } from "./text.js";


const isWhole = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const keysOf = (o) => Object.keys(o || {});
const SHIP_TYPES = new Set(["sail", "embark", "disembark", "end_cruise"]);

// Several ships may cruise at once: the engine gives each its own sail / embark / disembark /
// end_cruise spec (options.ship). A form opened on one of them may pick another ship: the spec
// of that type for the chosen ship is the one that counts.
export function specForShip(spec, ship, specs) {
  if (!SHIP_TYPES.has(spec.type) || !ship || ship === (spec.options || {}).ship) return spec;
  return (specs || []).find((s) => s.type === spec.type && (s.options || {}).ship === ship) || null;
}

// The wild territories a mobilization needs: one per wild die rolled, and one per wild card
// revealed (each revealed wild card rolls a die too; risk/rules/battles.py do_mobilize).
export function wildsNeeded(o, reveal) {
  return (o.wild_dice || 0) + (reveal || []).filter((c) => c === "wild").length;
}

// Whether `picked` takes each item of `pool` at most as often as it is there (a hand may hold
// two wild cards: each can be revealed once).
function withinPool(picked, pool) {
  const left = [...(pool || [])];
  for (const item of picked) {
    const at = left.indexOf(item);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

// Naval attack: the chosen ships and the target each attacks, checked against the mode's limits
// (naval_attack_spec: max_per_target, min_on_a_target, min_armies).
function buildNaval(o, c) {
  const fleet = (o.defenders || {})[c.seat];
  if (!fleet) return { error: "Pick whose ships to attack." };
  const ships = c.ships || [];
  if (!ships.length) return { error: "Pick one or more of your ships (outlined) to attack with." };
  if (new Set(ships).size !== ships.length) return { error: "Pick each of your ships once." };
  const targets = [];
  for (const ship of ships) {
    if (!fleet[ship]) return { error: `Ship ${ship} cannot reach a ship of ${c.seat}.` };
    const target = (c.targets || {})[ship];
    if (!fleet[ship].includes(target)) return { error: `Pick the target of ship ${ship}: one of ${fleet[ship].join(", ")}.` };
    targets.push(target);
  }
  const limits = (o.modes || {})[c.mode];
  if (!limits) return { error: `Pick a mode: ${keysOf(o.modes).join(", ")}.` };
  const count = {};
  for (const t of targets) count[t] = (count[t] || 0) + 1;
  const most = Math.max(...Object.values(count));
  if (limits.max_per_target !== null && most > limits.max_per_target) return { error: `A ${c.mode} attack sends one ship at each target.` };
  if (most < limits.min_on_a_target) return { error: `A ${c.mode} attack needs ${limits.min_on_a_target} ships on one target.` };
  let armies = 0;
  if (limits.min_armies) {
    const hi = Math.min(...ships.map((s) => (o.crew || {})[s] || 0));
    if (!isWhole(c.armies, limits.min_armies, hi)) {
      return { error: hi >= limits.min_armies ? `Each ship commits ${limits.min_armies} to ${hi} armies.` : `Those ships have too small a crew for a ${c.mode} attack.` };
    }
    armies = c.armies;
  }
  return { action: { type: "naval_attack", ships: [...ships], target: targets[0], targets, mode: c.mode, armies } };
}

// choice keys per type: arrange {arrangement: {territory: armies}, factory, ship_station};
// place_ship {station}; place_factory {territory}; cruise {ship}; sail {ship, station};
// embark / disembark {ship, territory, armies}; end_cruise {ship}; naval_attack {seat, ships,
// targets: {ship: target}, mode, armies}; join_defence {ships, behind: {ship: target}};
// prize {ship, by, armies}; transfer {source, destination, armies}; mobilize {reveal,
// wild_territories}. specs: every legal spec (for a second cruising ship). Returns {action} or
// {error} (a sentence saying what is missing).
export function buildShipAction(spec, c, specs) {
  c = c || {};
  const chosen = specForShip(spec, c.ship, specs);
  if (!chosen) return { error: `Ship ${c.ship} cannot ${spec.type.replace(/_/g, " ")} now.` };
  const o = chosen.options || {};
  switch (spec.type) {
    case "arrange": {
      const ts = o.territories || [];
      const least = o.min_each ?? 1;
      const given = c.arrangement || {};
      for (const t of ts) if (!isWhole(given[t], least, o.armies)) return { error: `Put at least ${least} ${least === 1 ? "army" : "armies"} on ${t}.` };
      const sum = ts.reduce((n, t) => n + given[t], 0);
      if (sum !== o.armies) return { error: `Arrange ${o.armies} armies in all, not ${sum}.` };
      if (!ts.includes(c.factory)) return { error: "Pick the territory for your factory on the board." };
      const action = { type: "arrange", arrangement: ts.map((t) => [t, given[t]]), factory: c.factory };
      if ((o.ship_stations || []).length) {
        if (!o.ship_stations.includes(c.ship_station)) return { error: "Pick your ship's station (a dot off your coast) on the board." };
        action.ship_station = c.ship_station;
      }
      return { action };
    }
    case "place_ship":
      if (!(o.stations || []).includes(c.station)) return { error: "Pick a station off your coast for the new ship." };
      return { action: { type: "place_ship", station: c.station } };
    case "place_factory":
      if (!(o.territories || []).includes(c.territory)) return { error: "Pick a territory for the new factory." };
      return { action: { type: "place_factory", territory: c.territory } };
    case "cruise":
      if (!(o.ships || []).includes(c.ship)) return { error: "Pick one of your ready ships on the board." };
      return { action: { type: "cruise", ship: c.ship } };
    case "sail": {
      const d = (o.stations || {})[c.station];
      if (d === undefined) return { error: `Pick a station ship ${o.ship} can reach (${o.stations ? "highlighted" : "none"}).` };
      return { action: { type: "sail", ship: o.ship, station: c.station } };
    }
    case "embark": {
      if (!(o.territories || []).includes(c.territory)) return { error: `Pick a coast of yours to pick armies up from for ship ${o.ship}.` };
      const hi = (o.max || {})[c.territory];
      if (!isWhole(c.armies, 1, hi)) return { error: `Take 1 to ${hi} armies from ${c.territory}.` };
      return { action: { type: "embark", ship: o.ship, territory: c.territory, armies: c.armies } };
    }
    case "disembark": {
      if (!(o.territories || []).includes(c.territory)) return { error: `Pick a coast of yours to land armies of ship ${o.ship} on.` };
      if (!isWhole(c.armies, 1, o.max)) return { error: `Land 1 to ${o.max} armies (one stays aboard).` };
      return { action: { type: "disembark", ship: o.ship, territory: c.territory, armies: c.armies } };
    }
    case "end_cruise":
      return { action: { type: "end_cruise", ship: o.ship } };
    case "naval_attack":
      return buildNaval(o, c);
    case "join_defence": {
      const ships = c.ships || [];
      if (new Set(ships).size !== ships.length) return { error: "Pick each ship once." };
      const behind = [];
      for (const s of ships) {
        if (!(o.ships || []).includes(s)) return { error: `Ship ${s} cannot join; ships that can: ${(o.ships || []).join(", ") || "none"}.` };
        const backs = (o.behind || {})[s] || [];
        const t = (c.behind || {})[s] ?? backs[0];
        if (!backs.includes(t)) return { error: `Ship ${s} may back ${backs.join(" or ")}.` };
        behind.push(t);
      }
      return { action: ships.length ? { type: "join_defence", ships: [...ships], behind } : { type: "join_defence", ships: [] } };
    }
    case "prize": {
      if (!(o.ships || []).includes(c.ship)) return { error: "Pick the prize ship to decide." };
      if (!c.by) return { action: { type: "prize", ship: c.ship, by: null, armies: 0 } }; // sink it
      const hi = (o.boarders || {})[c.by];
      if (hi === undefined) return { error: `Ship ${c.by} cannot board; pick a boarder or sink the prize.` };
      if (!isWhole(c.armies, 1, hi)) return { error: `Board with 1 to ${hi} armies from ${c.by}.` };
      return { action: { type: "prize", ship: c.ship, by: c.by, armies: c.armies } };
    }
    case "transfer": {
      if (!(o.sources || []).includes(c.source)) return { error: "Pick where to move armies from (outlined)." };
      if (!((o.destinations || {})[c.source] || []).includes(c.destination)) return { error: `Pick where to move them to from ${c.source} (outlined).` };
      const hi = (o.max || {})[c.source];
      if (!isWhole(c.armies, 1, hi)) return { error: `Move 1 to ${hi} armies from ${c.source}.` };
      return { action: { type: "transfer", source: c.source, destination: c.destination, armies: c.armies } };
    }
    case "mobilize": {
      const reveal = c.reveal || [];
      if (!withinPool(reveal, o.cards)) return { error: `Reveal only cards you may: ${(o.cards || []).join(", ") || "none"}.` };
      const wild = c.wild_territories || [];
      const need = wildsNeeded(o, reveal);
      if (wild.length !== need || wild.some((t) => !(o.territories || []).includes(t))) {
        return { error: `Name one of your territories for each of ${need} wild ${need === 1 ? "die" : "dice"}.` };
      }
      return { action: { type: "mobilize", reveal: [...reveal], wild_territories: [...wild] } };
    }
    default:
      return { error: `No form for ${spec.type}.` };
  }
}

// What the form starts with: nothing picked, armies at the most the spec allows.
export function shipDefaultChoice(spec) {
  const o = spec.options || {};
  switch (spec.type) {
    case "arrange": { // the armies spread evenly, as dealt; the player moves them about
      const ts = o.territories || [];
      const base = Math.floor((o.armies || 0) / Math.max(ts.length, 1));
      let extra = (o.armies || 0) - base * ts.length;
      const arrangement = {};
      for (const t of ts) arrangement[t] = base + (extra-- > 0 ? 1 : 0);
      return { arrangement, factory: null, ship_station: null };
    }
    case "cruise": return { ship: null }; // picked on the board (or in the list)
    case "sail": case "end_cruise": return { ship: o.ship, station: null };
    case "embark": case "disembark": return { ship: o.ship, territory: null, armies: null };
    case "naval_attack": {
      const seats = keysOf(o.defenders);
      const modes = keysOf(o.modes);
      return { seat: seats.length === 1 ? seats[0] : null, ships: [], targets: {}, mode: modes[0] || "normal", armies: null };
    }
    case "join_defence": return { ships: [], behind: {} };
    case "prize": return { ship: (o.ships || [])[0] ?? null, by: null, armies: null };
    case "transfer": return { source: null, destination: null, armies: null };
    case "mobilize": return { reveal: [], wild_territories: [] };
    default: return {};
  }
}

// The highlights for a form: {territories, ships, stations, notes} with marks "choice" (may be
// picked), "picked", "source" (acts) and "target" (is acted on); notes: text by a station
// (a sail's distance in boat lengths).
export function shipMarks(spec, c, specs) {
  const out = { territories: {}, ships: {}, stations: {}, notes: {} };
  c = c || {};
  const chosen = specForShip(spec, c.ship, specs) || spec;
  const o = chosen.options || {};
  const each = (into, keys, mark) => { for (const k of keys || []) into[k] = mark; };
  const pick = (into, key, mark = "picked") => { if (key) into[key] = mark; };
  switch (spec.type) {
    case "arrange":
      each(out.territories, o.territories, "choice");
      pick(out.territories, c.factory);
      each(out.stations, o.ship_stations, "choice");
      pick(out.stations, c.ship_station);
      break;
    case "place_ship":
      each(out.stations, o.stations, "choice");
      pick(out.stations, c.station);
      break;
    case "place_factory":
      each(out.territories, o.territories, "choice");
      pick(out.territories, c.territory);
      break;
    case "cruise":
      each(out.ships, o.ships, "choice");
      pick(out.ships, c.ship);
      break;
    case "sail":
      pick(out.ships, o.ship, "source");
      for (const [k, d] of Object.entries(o.stations || {})) {
        out.stations[k] = "choice";
        out.notes[k] = `${d} bl`;
      }
      pick(out.stations, c.station);
      break;
    case "embark": case "disembark":
      pick(out.ships, o.ship, "source");
      each(out.territories, o.territories, "choice");
      pick(out.territories, c.territory);
      break;
    case "end_cruise":
      pick(out.ships, o.ship);
      break;
    case "naval_attack": {
      for (const [seat, fleet] of Object.entries(o.defenders || {})) {
        if (c.seat && seat !== c.seat) continue;
        for (const [ship, targets] of Object.entries(fleet)) {
          out.ships[ship] = "choice";
          each(out.ships, targets, "target");
        }
      }
      for (const s of c.ships || []) {
        out.ships[s] = "source";
        pick(out.ships, (c.targets || {})[s]);
      }
      break;
    }
    case "join_defence":
      for (const s of o.ships || []) {
        out.ships[s] = (c.ships || []).includes(s) ? "picked" : "choice";
        for (const t of (o.behind || {})[s] || []) if (!out.ships[t]) out.ships[t] = "target";
      }
      break;
    case "prize":
      each(out.ships, o.ships, "target");
      each(out.ships, keysOf(o.boarders), "choice");
      pick(out.ships, c.ship);
      pick(out.ships, c.by, "source");
      break;
    case "transfer":
      if ((o.sources || []).includes(c.source)) {
        each(out.territories, (o.destinations || {})[c.source], "choice");
        out.territories[c.source] = "source";
        pick(out.territories, c.destination);
      } else {
        each(out.territories, o.sources, "choice");
      }
      break;
    case "mobilize":
      each(out.territories, o.territories, "choice");
      each(out.territories, c.wild_territories, "picked");
      break;
    default:
      break;
  }
  return out;
}

// A click on the board while a form is open: target is {territory} | {ship} | {station}.
// Changes the choice in place; returns false when the click means nothing to this form.
export function shipPick(spec, c, target, specs) {
  const o = spec.options || {};
  const { territory, ship, station } = target;
  switch (spec.type) {
    case "arrange":
      if (territory && (o.territories || []).includes(territory)) c.factory = territory;
      else if (station && (o.ship_stations || []).includes(station)) c.ship_station = station;
      else return false;
      return true;
    case "place_ship":
      if (!(o.stations || []).includes(station)) return false;
      c.station = station;
      return true;
    case "place_factory":
      if (!(o.territories || []).includes(territory)) return false;
      c.territory = territory;
      return true;
    case "cruise":
      if (!(o.ships || []).includes(ship)) return false;
      c.ship = ship;
      return true;
    case "sail": case "embark": case "disembark": case "end_cruise": {
      if (ship) { // another cruising ship: its own spec of this type
        const other = specForShip(spec, ship, specs);
        if (!other || ship === c.ship) return false;
        Object.assign(c, shipDefaultChoice(other));
        return true;
      }
      const mine = (specForShip(spec, c.ship, specs) || spec).options || {};
      if (spec.type === "sail" && station && (mine.stations || {})[station] !== undefined) c.station = station;
      else if (territory && spec.type !== "sail" && spec.type !== "end_cruise" && (mine.territories || []).includes(territory)) {
        c.territory = territory;
        const hi = spec.type === "embark" ? (mine.max || {})[territory] : mine.max;
        if (!isWhole(c.armies, 1, hi)) c.armies = hi;
      } else return false;
      return true;
    }
    case "naval_attack": {
      if (!ship) return false;
      const seats = c.seat ? [c.seat] : keysOf(o.defenders);
      for (const seat of seats) {
        const fleet = o.defenders[seat];
        if (fleet[ship]) { // one of mine: in or out of the attack
          c.seat = seat;
          if ((c.ships || []).includes(ship)) {
            c.ships = c.ships.filter((s) => s !== ship);
            delete c.targets[ship];
          } else {
            c.ships = [...(c.ships || []), ship];
            c.targets = { ...(c.targets || {}), [ship]: fleet[ship][0] };
          }
          return true;
        }
        const mine = (c.ships || []).filter((s) => (fleet[s] || []).includes(ship));
        if (mine.length) { // an enemy ship: the target of the last ship picked that reaches it
          c.seat = seat;
          c.targets = { ...(c.targets || {}), [mine[mine.length - 1]]: ship };
          return true;
        }
      }
      // An enemy ship of another seat than the one the attack was on (the first own ship
      // picked set the first seat it reaches): the attack turns on that seat, with the picked
      // ships that reach it, the last of them aimed at this ship.
      for (const seat of keysOf(o.defenders)) {
        if (seat === c.seat) continue;
        const fleet = o.defenders[seat];
        const mine = (c.ships || []).filter((s) => (fleet[s] || []).includes(ship));
        if (!mine.length) continue;
        c.seat = seat;
        c.ships = (c.ships || []).filter((s) => fleet[s]);
        c.targets = Object.fromEntries(c.ships.map((s) => [s, fleet[s][0]]));
        c.targets[mine[mine.length - 1]] = ship;
        return true;
      }
      return false;
    }
    case "join_defence":
      if (!(o.ships || []).includes(ship)) return false;
      c.ships = (c.ships || []).includes(ship) ? c.ships.filter((s) => s !== ship) : [...(c.ships || []), ship];
      return true;
    case "prize":
      if ((o.ships || []).includes(ship)) c.ship = ship;
      else if (ship && (o.boarders || {})[ship] !== undefined) {
        c.by = ship;
        if (!isWhole(c.armies, 1, o.boarders[ship])) c.armies = o.boarders[ship];
      } else return false;
      return true;
    case "transfer": {
      if (!territory) return false;
      const reach = (o.destinations || {})[c.source] || [];
      if (reach.includes(territory)) c.destination = territory;
      else if ((o.sources || []).includes(territory)) {
        c.source = territory;
        c.destination = null;
        c.armies = (o.max || {})[territory];
      } else return false;
      return true;
    }
    case "mobilize": {
      if (!(o.territories || []).includes(territory)) return false;
      const need = wildsNeeded(o, c.reveal);
      const wild = [...(c.wild_territories || [])];
      if (wild.length < need) wild.push(territory);
      else if (need) wild[need - 1] = territory; // full: the click replaces the last die's place
      else return false;
      c.wild_territories = wild;
      return true;
    }
    default:
      return false;
  }
}

// --- the forms (DOM): every control has a label and data-field --------------------------------

const TYPES = ["arrange", "place_ship", "place_factory", "cruise", "sail", "embark", "disembark", "end_cruise",
  "naval_attack", "join_defence", "prize", "transfer", "mobilize"];
const TITLES = { arrange: "Arrange your armies", place_ship: "Launch ship", place_factory: "Build factory", cruise: "Start a cruise",
  sail: "Sail", embark: "Embark", disembark: "Disembark (land)", end_cruise: "End the cruise", naval_attack: "Naval attack",
  join_defence: "Join the defence", prize: "Decide the prize", transfer: "Transfer armies", mobilize: "Mobilize" };

function checkbox(label, field, value, checked, onChange) {
  const box = el("input", { type: "checkbox", checked, value, dataset: { field } });
  box.addEventListener("change", () => onChange(box.checked));
  return el("label", {}, box, label);
}

function note(ctx, text) {
  return ctx.el("span", { className: "muted" }, text);
}

// The cruising ships with a spec of this type, to switch the form between them.
function shipSelect(spec, ctx, legal) {
  const ships = legal.filter((s) => s.type === spec.type).map((s) => s.options.ship);
  if (ships.length < 2) return [];
  return [ctx.selectField("Ship", ships, ctx.choice.ship, (v) => {
    const other = specForShip(spec, v, legal);
    if (other) Object.assign(ctx.choice, shipDefaultChoice(other));
    ctx.renderForm();
  }, null, "ship")];
}

function form(spec, ctx, legal) {
  const c = ctx.choice;
  const chosen = specForShip(spec, c.ship, legal) || spec;
  const o = chosen.options || {};
  const redraw = (key) => (v) => { c[key] = v; ctx.renderForm(); };
  const keep = (key) => (v) => { c[key] = v; };
  const parts = [];
  const label = TITLES[spec.type];
  switch (spec.type) {
    case "arrange": {
      const ts = o.territories || [];
      const sum = ts.reduce((n, t) => n + (Number.isInteger(c.arrangement[t]) ? c.arrangement[t] : 0), 0);
      const total = ctx.el("span", { role: "status" }, `${sum} of ${o.armies} armies arranged`);
      const box = ctx.el("fieldset", { className: "arrange" }, ctx.el("legend", {}, `Armies per territory (at least ${o.min_each ?? 1} each)`));
      for (const t of ts) {
        const input = ctx.el("input", { type: "number", min: o.min_each ?? 1, max: o.armies, step: 1, value: c.arrangement[t], dataset: { field: "arrangement", territory: t } });
        input.addEventListener("input", () => {
          c.arrangement[t] = Number.parseInt(input.value, 10);
          const now = ts.reduce((n, x) => n + (Number.isInteger(c.arrangement[x]) ? c.arrangement[x] : 0), 0);
          total.textContent = `${now} of ${o.armies} armies arranged`;
        });
        box.append(ctx.el("label", {}, t, input));
      }
      parts.push(box, total);
      parts.push(ctx.selectField("Factory", ts, c.factory, redraw("factory"), "— click a territory —", "factory"));
      if ((o.ship_stations || []).length) parts.push(ctx.selectField("Ship's station", o.ship_stations, c.ship_station, redraw("ship_station"), "— click a dot off your coast —", "ship_station"));
      break;
    }
    case "place_ship":
      parts.push(ctx.selectField("Station", o.stations || [], c.station, redraw("station"), "— click a highlighted dot —", "station"));
      break;
    case "place_factory":
      parts.push(ctx.selectField("Territory", o.territories || [], c.territory, redraw("territory"), "— click the board —", "territory"));
      break;
    case "cruise":
      parts.push(ctx.selectField("Ship", o.ships || [], c.ship, redraw("ship"), "— click a ready ship —", "ship"),
        note(ctx, "The ship rolls two dice: that many boat lengths to sail."));
      break;
    case "sail": {
      const stations = Object.entries(o.stations || {}).sort(([a, x], [b, y]) => x - y || a.localeCompare(b));
      parts.push(...shipSelect(spec, ctx, legal));
      const select = ctx.el("select", { dataset: { field: "station" } }, ctx.el("option", { value: "" }, "— click a highlighted dot —"),
        ...stations.map(([k, d]) => ctx.el("option", { value: k, selected: k === c.station }, `${stationText(k)} (${d} boat length${d === 1 ? "" : "s"})`)));
      select.addEventListener("change", () => { c.station = select.value || null; ctx.renderForm(); });
      const ship = (ctx.view.ships || {})[o.ship];
      parts.push(note(ctx, `Ship ${o.ship}: ${ship ? ship.moves : "?"} boat lengths left.`), ctx.el("label", {}, "Station", select));
      break;
    }
    case "embark": case "disembark": {
      parts.push(...shipSelect(spec, ctx, legal));
      const hi = spec.type === "embark" ? (o.max || {})[c.territory] : o.max;
      parts.push(ctx.selectField("Territory", o.territories || [], c.territory, (v) => {
        c.territory = v;
        const most = spec.type === "embark" ? (o.max || {})[v] : o.max;
        c.armies = most ?? null;
        ctx.renderForm();
      }, "— click a coast —", "territory"));
      if (c.territory) parts.push(ctx.numberField("Armies", c.armies ?? hi, 1, hi, keep("armies"), "armies"));
      break;
    }
    case "end_cruise":
      parts.push(...shipSelect(spec, ctx, legal), note(ctx, `Ship ${o.ship} stops where it is.`));
      break;
    case "naval_attack":
      parts.push(...navalForm(o, ctx));
      break;
    case "join_defence": {
      const group = ctx.el("div", { className: "card-pick", role: "group", "aria-label": "Ships to join the defence" });
      for (const s of o.ships || []) {
        group.append(checkbox(`Ship ${s}`, "ships", s, (c.ships || []).includes(s), (on) => {
          c.ships = on ? [...c.ships, s] : c.ships.filter((x) => x !== s);
          ctx.renderForm();
        }));
      }
      parts.push(group);
      for (const s of c.ships || []) {
        const backs = (o.behind || {})[s] || [];
        if (backs.length > 1) parts.push(ctx.selectField(`Ship ${s} backs`, backs, c.behind[s] ?? backs[0], (v) => { c.behind[s] = v; }, null, "behind"));
      }
      if (!(o.ships || []).length) parts.push(note(ctx, "No ship of yours can join."));
      break;
    }
    case "prize": {
      const boarders = keysOf(o.boarders);
      parts.push(ctx.selectField("Prize", o.ships || [], c.ship, redraw("ship"), null, "ship"));
      parts.push(ctx.selectField("Board it from", boarders, c.by, (v) => { c.by = v; c.armies = v ? o.boarders[v] : null; ctx.renderForm(); }, "nobody: sink it", "by"));
      if (c.by) parts.push(ctx.numberField("Armies to board with", c.armies ?? o.boarders[c.by], 1, o.boarders[c.by], keep("armies"), "armies"));
      break;
    }
    case "transfer": {
      parts.push(ctx.selectField("From", o.sources || [], c.source, (v) => { c.source = v; c.destination = null; c.armies = v ? o.max[v] : null; ctx.renderForm(); }, "— click a territory —", "source"));
      if (c.source) {
        parts.push(ctx.selectField("To", o.destinations[c.source] || [], c.destination, redraw("destination"), "— click a highlighted territory —", "destination"));
        parts.push(ctx.numberField("Armies", c.armies ?? o.max[c.source], 1, o.max[c.source], keep("armies"), "armies"));
      }
      break;
    }
    case "mobilize": {
      const cards = o.cards || [];
      if (cards.length) {
        const group = ctx.el("div", { className: "card-pick", role: "group", "aria-label": "Cards to reveal" });
        cards.forEach((card, i) => { // a hand may hold a card twice (two wild cards)
          const upTo = cards.slice(0, i + 1).filter((x) => x === card).length;
          const on = (c.reveal || []).filter((x) => x === card).length >= upTo;
          group.append(checkbox(card, "reveal", card, on, (checked) => {
            const others = c.reveal.filter((x) => x !== card);
            const count = c.reveal.length - others.length + (checked ? 1 : -1);
            c.reveal = [...others, ...Array(Math.max(0, count)).fill(card)];
            c.wild_territories = c.wild_territories.slice(0, wildsNeeded(o, c.reveal));
            ctx.renderForm();
          }));
        });
        parts.push(group);
      }
      const need = wildsNeeded(o, c.reveal);
      for (let i = 0; i < need; i += 1) {
        parts.push(ctx.selectField(`Wild die ${i + 1} on`, o.territories || [], c.wild_territories[i] ?? null, (v) => {
          const wild = [...c.wild_territories];
          wild[i] = v;
          c.wild_territories = wild.filter(Boolean);
          ctx.renderForm();
        }, "— click a territory —", "wild_territories"));
      }
      if (!need && !cards.length) parts.push(note(ctx, "Nothing to reveal and no wild dice."));
      break;
    }
    default:
      break;
  }
  parts.push(ctx.commit(label));
  return parts;
}

function navalForm(o, ctx) {
  const c = ctx.choice;
  const parts = [];
  const seats = keysOf(o.defenders);
  if (seats.length > 1) {
    parts.push(ctx.selectField("Attack the ships of", seats, c.seat, (v) => { c.seat = v; c.ships = []; c.targets = {}; ctx.renderForm(); }, "— pick a seat —", "seat"));
  }
  const fleet = (o.defenders || {})[c.seat];
  if (!fleet) return parts;
  const group = ctx.el("div", { className: "card-pick", role: "group", "aria-label": "Your ships to attack with" });
  for (const ship of keysOf(fleet)) {
    group.append(checkbox(`Ship ${ship} (crew ${o.crew[ship]})`, "ships", ship, c.ships.includes(ship), (on) => {
      if (on !== c.ships.includes(ship)) shipPick({ type: "naval_attack", options: o }, c, { ship }, []); // toggles it
      ctx.renderForm();
    }));
  }
  parts.push(group);
  for (const ship of c.ships) {
    parts.push(ctx.selectField(`Ship ${ship} attacks`, fleet[ship], c.targets[ship], (v) => { c.targets[ship] = v; ctx.renderForm(); }, null, "targets"));
  }
  parts.push(ctx.selectField("Mode", keysOf(o.modes), c.mode, (v) => { c.mode = v; ctx.renderForm(); }, null, "mode"));
  const limits = o.modes[c.mode];
  if (limits && limits.min_armies && c.ships.length) {
    const hi = Math.min(...c.ships.map((s) => o.crew[s]));
    parts.push(ctx.numberField("Armies each ship commits", c.armies ?? hi, limits.min_armies, hi, (v) => { c.armies = v; }, "armies"));
  }
  return parts;
}

function marks(spec, c, ctx, legal) {
  const m = shipMarks(spec, c, legal);
  if (ctx.board && ctx.board.markShips) {
    ctx.board.markShips(m.ships);
    ctx.board.markStations(m.stations, m.notes);
  }
  return m.territories;
}

// The forms of TYPES, for forms.js to look up by action type. legal() gives the view's legal
// actions now: a per-ship spec (sail, embark, ...) switches between the cruising ships' specs.
export function shipForms(legal) {
  const forms = {};
  for (const type of TYPES) {
    forms[type] = {
      defaultChoice: shipDefaultChoice,
      form: (spec, ctx) => form(spec, ctx, legal()),
      build: (spec, c) => buildShipAction(spec, c, legal()),
      marks: (spec, c, ctx) => marks(spec, c, ctx, legal()),
      pick: (spec, c, target) => shipPick(spec, c, target, legal()),
    };
  }
  return forms;
}
