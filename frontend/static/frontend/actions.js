// The game page's actions, pure: an action from a legal-action spec and the player's choices
// (the forms of place, attack, roll, move_in, turn_in and end_turn), the odds request for an
// attack, and a starting template of any action for the Advanced JSON editor. No page access:
// Node imports it in tests/frontend/test_game_js_actions.py.

// Actions about the seat, not the turn: never the form opened first.
export const META = new Set(["leave", "concede", "vote_draw", "prefer"]);
// Every action type the engine offers, in words (a button, a form's heading, its commit).
export const LABELS = { arrange: "Arrange armies", place: "Place armies", deploy: "Place armies", place_ship: "Launch a ship",
  attack: "Attack", naval_attack: "Naval attack", roll: "Roll", retreat: "Retreat", move_in: "Move in", mobilize: "Mobilize",
  join_defence: "Join the defence", prize: "Board or sink the ship", cruise: "Cruise", sail: "Sail", embark: "Embark",
  disembark: "Disembark", end_cruise: "End the cruise", end_campaign: "End the campaign", place_factory: "Place a factory",
  transfer: "Transfer", discard: "Discard", end_turn: "End the turn", turn_in: "Turn in cards", challenge: "Challenge or pass",
  answer: "Answer the challenge", poker: "Poker", join: "Join", leave: "Leave", concede: "Concede", vote_draw: "Vote for a draw",
  prefer: "Preferences" };

const numberIn = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

// choice: place {draft: [[territory, armies], ...]} (or {territory, armies}: one placement);
// attack {target, mode, source, armies, source2}; roll {add, until: "once" | "decided" |
// "armies", until_armies} (or {add, until_decided}); move_in {armies, source}; turn_in {cards,
// reward}; end_turn {ally}. Returns {action} or {error} (a sentence saying what is missing).
export function buildAction(spec, c) {
  const o = spec.options || {};
  c = c || {};
  switch (spec.type) {
    case "place": {
      const steps = c.draft && c.draft.length ? c.draft : c.territory ? [[c.territory, c.armies]] : [];
      const draft = mergeDraft(steps);
      if (!draft.length) return { error: "Click your territories on the board to place armies there." };
      let left = o.max;
      for (const [territory, armies] of draft) {
        if (!(o.territories || []).includes(territory)) return { error: `${territory} is not one of your territories.` };
        if (!numberIn(armies, 1, left)) return { error: `Place 1 to ${left} armies on ${territory}.` };
        left -= armies;
      }
      if (draft.length === 1) return { action: { type: "place", territory: draft[0][0], armies: draft[0][1] } };
      return { action: { type: "deploy", placements: draft.map(([t, n]) => [t, n]) } };
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
      const until = c.until ?? (c.until_decided ? "decided" : "once");
      if (until === "armies") {
        if (!numberIn(c.until_armies, 1, 999)) return { error: "Roll on until 1 or more armies are left." };
        return { action: { type: "roll", add, until_armies: c.until_armies } };
      }
      return { action: { type: "roll", add, until_decided: until === "decided" } };
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

// A draft's steps as placements: the armies of every step on one territory added together, in
// the order the territories were first picked (a number that is not whole stays as it is, so
// buildAction refuses it).
export function mergeDraft(steps) {
  const out = [];
  for (const [territory, armies] of steps) {
    const same = out.find((p) => p[0] === territory);
    if (same && Number.isInteger(same[1]) && Number.isInteger(armies)) same[1] += armies;
    else out.push([territory, armies]);
  }
  return out;
}

// The most armies each of two equal flanks may take from these sources (one source: half).
export function flankMost(room, a, b) {
  const most = (s) => (((room || {})[s] || {}).committed || [0, 0])[1];
  return a === b ? Math.floor(most(a) / 2) : Math.min(most(a), most(b));
}

// The POST /api/combat/risk/odds body for an attack about to be made.
export function oddsRequest(action, defenders) {
  const body = { defenders, mode: action.mode, max_outcomes: 1 };
  if (action.mode === "flanking") body.flanks = action.flanks.map((f) => f[1]);
  else body.attackers = action.flanks[0][1];
  return body;
}

const first = (v) => (Array.isArray(v) ? v[0] : v && typeof v === "object" ? Object.keys(v)[0] : v);

export function template(spec, view) {
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
    case "deploy": a.placements = [[first(o.territories), o.max]]; break;
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
