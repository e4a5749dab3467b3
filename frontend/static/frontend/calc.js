// The combat calculators' pure part: query string <-> form inputs, the JSON body built from the
// inputs, the bar chart's data and the result codes in plain English. No DOM: Node imports it in
// tests/frontend/test_calc_js.py; calc_page.js puts it on the page.

// The form's inputs that differ from their defaults, as a query string ("a=1&b=x").
export function toQuery(values, defaults) {
  const params = new URLSearchParams();
  for (const [name, value] of values) {
    const text = String(value);
    if (text === "" || text === String(defaults[name] ?? "")) continue;
    params.append(name, text);
  }
  return params.toString();
}

// A query string back to [[name, value], ...], only for names the form has.
export function fromQuery(query, names) {
  const known = new Set(names);
  const out = [];
  for (const [name, value] of new URLSearchParams(query)) if (known.has(name)) out.push([name, value]);
  return out;
}

// The JSON body from [[name, value], ...]: "a.b" nests, types[name] converts ("int", "float",
// "bool", "intlist" like "15, 15", "json"), empty values are left out, and so are counts of 0
// in nested unit maps (types "count"). Throws Error(name + ": ...") on a value that is no number.
export function toBody(values, types) {
  const body = {};
  for (const [name, raw] of values) {
    const type = types[name] || "str";
    const text = String(raw).trim();
    let value;
    if (type === "bool") value = raw === true || text === "true" || text === "on";
    else if (text === "") continue;
    else if (type === "int" || type === "count") {
      if (!/^-?\d+$/.test(text)) throw new Error(`${name}: a whole number`);
      value = Number(text);
      if (type === "count" && value === 0) continue;
    } else if (type === "float") {
      if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) throw new Error(`${name}: a number`);
      value = Number(text);
    } else if (type === "intlist") {
      value = text.split(/[\s,]+/).filter(Boolean).map((part) => {
        if (!/^\d+$/.test(part)) throw new Error(`${name}: whole numbers separated by commas`);
        return Number(part);
      });
    } else if (type === "json") {
      try { value = JSON.parse(text); } catch { throw new Error(`${name}: not valid JSON`); }
    } else value = text;
    const path = name.split(".");
    let node = body;
    for (const key of path.slice(0, -1)) node = node[key] = node[key] || {};
    node[path[path.length - 1]] = value;
  }
  return body;
}

// Bars for a horizontal SVG chart: [{label, value}] -> [{label, value, percent, y, width}],
// width scaled so the largest bar fills maxWidth; `height` per bar including a gap.
export function barData(items, maxWidth, height) {
  const top = Math.max(0, ...items.map((item) => item.value));
  return items.map((item, index) => ({
    label: String(item.label),
    value: item.value,
    percent: (100 * item.value).toFixed(item.value > 0 && item.value < 0.001 ? 3 : 1) + "%",
    y: index * height,
    width: top > 0 ? Math.round((item.value / top) * maxWidth * 10) / 10 : 0,
  }));
}

// A World in Flames 2d10 Land CRT code ("†x1/2S", "*/2S", "-/-") in plain English.
export function explainWif(code) {
  const match = /^([†*]?)(x?)(\d*|-)\/(\d*|-)([RSB]?)$/.exec(code);
  if (!match) return `${code}: not a code of the table`;
  const [, mark, x, attack, defend, result] = match;
  const lost = (n) => (n === "-" || n === "" ? 0 : Number(n));
  const parts = [];
  const a = lost(attack);
  parts.push(a ? `the attacker loses ${a} unit${a === 1 ? "" : "s"}` : "the attacker loses nothing");
  if (x) parts.push("plus one extra loss if an x condition holds (e.g. attacking a city, mountain, forest, jungle or swamp hex, or a hex in rain or storm)");
  const d = lost(defend);
  parts.push(d ? `the defender loses ${d} unit${d === 1 ? "" : "s"}` : "the defender loses nothing");
  if (result === "R") parts.push("the defender's remaining land units retreat (those that cannot are destroyed)");
  if (result === "S") parts.push("the defender is shattered: units that cannot retreat are destroyed, the rest go to the production circle and return next turn");
  if (result === "B") parts.push("shattered as for S, and the attacker breaks through");
  if (result === "S" || result === "B") parts.push("the attacker may turn the S or B into a retreat (R) instead");
  if (mark === "†") parts.push("half of the attacker's remaining land units stay face-up (not disorganised)");
  if (mark === "*") parts.push("all of the attacker's remaining land units stay face-up");
  const text = parts.join("; ");
  return `${code}: ${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

// A France 1944 result letter. The letters' effects are the game's own combat results key,
// which the revisions text does not print; it says what it does about them, and no more.
const FRANCE_1944 = {
  A: "result A of the game's combat results key (in mobile combat the original table read E where set-piece read A)",
  B: "result B of the game's combat results key (in mobile combat the original table read F where set-piece read B)",
  C: "result C of the game's combat results key (the revisions suggest, as an option, that C also costs the attacker 1 step when the defender loses 2)",
  D: "result D of the game's combat results key (in mobile combat the original table read B where set-piece read D)",
  E: "result E of the game's combat results key (a mobile-combat result: the original table's mobile version of A)",
  F: "result F of the game's combat results key (a mobile-combat result: the original table's mobile version of B)",
};
export function explainFrance(letter) {
  const text = FRANCE_1944[letter];
  return text ? `${letter}: ${text}; see the France 1944 rule book for its losses and retreats.` : `${letter}: not a result letter (A to F)`;
}

// An A&A battle's result word.
const AA_RESULTS = {
  attacker: "the attacker wins: defenders all gone, attackers left",
  defender: "the defender holds: attackers all gone (or, with a round limit, the attacker stopped)",
  draw: "both sides are wiped out",
  stalemate: "neither side can hit the other any more (e.g. only submarines against aircraft)",
};
export function explainAA(result) {
  return AA_RESULTS[result] ? `${result}: ${AA_RESULTS[result]}` : String(result);
}

// "3 infantry, 1 armor" from {"infantry": 3, "armor": 1}; "none" when empty.
export function unitsText(units) {
  const parts = Object.entries(units || {}).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name.replace(/_/g, " ")}`);
  return parts.length ? parts.join(", ") : "none";
}
// A Fast Risk end state in words: who won, what is left, captures, the defending ship.
export function riskOutcomeText(o) {
  const left = o.flanks_left.length > 1 ? o.flanks_left.join("+") : String(o.attackers_left);
  let text = o.defenders_left === 0 ? `attacker wins, ${left} left` : `defender holds, ${o.defenders_left} left`;
  if (o.captured) text += `, ${o.captured} captured`;
  if (o.defender_ship) text += `, ship ${o.defender_ship}`;
  return text;
}

// The answers of the A&A questions in plain sentences, from the answers of /api/combat/aa/take
// and /api/combat/aa/swing for the same battle. Percentages with one decimal, IPC with one and
// a sign ("+12.4"): how players quote a calculator.
export function aaAnswerText(take, swing) {
  const p = (x) => `${(100 * x).toFixed(1)}%`;
  const ipc = (x) => (Math.abs(x) < 0.05 ? "0.0" : x.toFixed(1));
  const signed = (x) => `${x >= 0.05 ? "+" : ""}${ipc(x)}`;
  const what = take.land_battle ? "takes the territory" : "clears the sea zone";
  const lines = [
    `The attacker ${what} ${p(take.take)} of the time; expected IPC swing ${signed(swing.expected_swing)} for the attacker.`,
  ];
  if (take.land_battle && take.air_only_win > 0) {
    lines.push(`It wins with only aircraft left ${p(take.air_only_win)} of the time: nothing takes the territory then, and the aircraft must land elsewhere.`);
  }
  lines.push(`The defender holds ${p(take.defender_holds)} of the time.`);
  lines.push(`The attacker loses ${ipc(swing.attacker_loss_mean)} IPC on average (standard deviation ${ipc(swing.attacker_loss_sd)}), the defender ${ipc(swing.defender_loss_mean)} (standard deviation ${ipc(swing.defender_loss_sd)}).`);
  return lines;
}

// The IPC swing distribution as chart bars, lowest swing first: [{label: "+3 IPC", value}].
export function swingBars(swing) {
  return [...swing.swing]
    .sort((a, b) => a.ipc - b.ipc)
    .map((row) => ({ label: `${row.ipc > 0 ? "+" : ""}${row.ipc} IPC`, value: row.probability }));
}

// The page's retreat choice as the policy of /api/combat/aa/take, /swing and each wave; null:
// the attacker never retreats. `kind` is "", "after_round", "below_chance", "below_units" or
// "strafe"; `at` the number the kind needs (the round N, the chance p in percent, the k units),
// from the form's text. An older shared link's "after_round:2" carries its number itself.
// Throws Error("retreat_at: ...") when the number is missing or out of range.
export function retreatPolicy(kind, at) {
  if (!kind) return null;
  if (kind === "strafe") return { strafe: true };
  const [key, given] = String(kind).split(":");
  const text = given !== undefined ? given : at === undefined || at === null ? "" : String(at).trim();
  if (text === "") throw new Error("retreat_at: give the number for the retreat");
  const value = Number(text);
  if (key === "below_chance") {
    // an old link said 0.5; the form says 50 (%)
    const p = kind.includes(":") ? value : value / 100;
    if (!(p > 0 && p <= 1)) throw new Error("retreat_at: a chance above 0% and at most 100%");
    return { below_chance: p };
  }
  if (key !== "after_round" && key !== "below_units") throw new Error(`retreat: unknown choice ${key}`);
  if (!/^\d+$/.test(text) || value < 1) throw new Error("retreat_at: a whole number, 1 or more");
  return { [key]: value };
}

// An older shared link's retreat ("retreat=after_round:2") as the form's two inputs now
// ("after_round" and "2"; a chance 0.5 becomes 50 %). Other pairs are kept as they are.
export function legacyRetreat(pairs) {
  const out = [];
  for (const [name, value] of pairs) {
    if (name === "retreat" && value.includes(":")) {
      const [kind, number] = value.split(":");
      out.push(["retreat", kind], ["retreat_at", kind === "below_chance" ? String(Math.round(Number(number) * 1000) / 10) : number]);
    } else out.push([name, value]);
  }
  return out;
}

// The retreat's sentence: how often the attacker retreats under the policy.
export function retreatText(policy, take) {
  if (!policy) return null;
  const how = policy.strafe ? "when retreating gives the best expected IPC swing"
    : policy.after_round ? `after round ${policy.after_round}`
      : policy.below_units ? `when fewer than ${policy.below_units} of its units are left`
        : `when its chance to win drops under ${percent(policy.below_chance)}`;
  return `Retreating ${how}, the attacker retreats ${(100 * (take.retreat || 0)).toFixed(1)}% of the time (the odds above fight to the end).`;
}

// 0.9 -> "90%", 0.875 -> "87.5%": a chance the player typed, as short as it was typed.
function percent(p) {
  return `${Number((100 * p).toFixed(1))}%`;
}

// The order of loss typed by the player ("infantry, artillery, mech infantry, tanks") as the
// edition's unit names, first lost first. Case, spaces for underscores and a plural "s" are
// forgiven; a name the edition does not have throws Error("order: ..."), naming the units.
export function parseOrder(text, names) {
  const known = new Set(names);
  const out = [];
  for (const part of String(text || "").split(/[,;\n]+/)) {
    const word = part.trim().toLowerCase().replace(/[\s-]+/g, "_");
    if (!word) continue;
    const name = known.has(word) ? word : known.has(word.replace(/s$/, "")) ? word.replace(/s$/, "") : null;
    if (!name) throw new Error(`order: "${part.trim()}" is not a unit of this edition (its units: ${names.map((n) => n.replace(/_/g, " ")).join(", ")})`);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

// The order of loss as the questions take it: null when nothing is asked, the list alone
// without the keep options, else {units, keep_one_land, keep_capital_ship}.
export function orderOfLoss(units, keepOneLand, keepCapitalShip) {
  if (!keepOneLand && !keepCapitalShip) return units.length ? units : null;
  return { units, keep_one_land: Boolean(keepOneLand), keep_capital_ship: Boolean(keepCapitalShip) };
}

// A warning of /api/combat/aa/order-check in the page's words: unit names with spaces, the
// option named as its checkbox is, a capital letter first.
export function orderWarningText(warning) {
  const text = String(warning)
    .replace(/\(use keep_one_land\)/g, "(tick \u201ckeep one land unit\u201d)")
    .replace(/keep_one_land/g, "\u201ckeep one land unit\u201d")
    .replace(/keep_capital_ship/g, "\u201ckeep the capital ships\u201d")
    .replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Units in the edition's order ("6 infantry, 2 artillery, 3 armor"); `order` lists the names.
function forceText(force, order) {
  const names = Object.keys(force || {});
  const rank = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  names.sort((a, b) => rank(a) - rank(b));
  return unitsText(Object.fromEntries(names.map((name) => [name, force[name]])));
}

// What the attacker does, for a measure: the verb phrase, its plural, and its short form.
function goal(measure, land) {
  if (measure === "win") return { does: "wins the battle", they: "win it", short: "wins" };
  return land ? { does: "takes the territory", they: "take it", short: "takes it" }
    : { does: "clears the sea zone", they: "clear it", short: "clears it" };
}

// The answer of /api/combat/aa/cheapest in one sentence. `land`: a battle for a territory;
// `order`: the edition's unit names, the order the force is listed in.
export function cheapestText(answer, land, order) {
  const p = (x) => `${(100 * x).toFixed(1)}%`;
  const what = goal(answer.measure, land);
  const target = percent(answer.target);
  if (!answer.found) {
    return `No force from the units available ${what.does} at least ${target} of the time: all of them together ${what.they} only ${p(answer.best_chance)} of the time.`;
  }
  const units = `${answer.units} unit${answer.units === 1 ? "" : "s"}`;
  const price = answer.by === "units" ? `${units}, ${answer.cost} IPC` : `${answer.cost} IPC, ${units}`;
  const which = answer.by === "units" ? "smallest" : "cheapest";
  return `The ${which} force that ${what.does} at least ${target} of the time: ${forceText(answer.force, order)} \u2014 ${price}; it ${what.short} ${p(answer.chance)} of the time.`;
}

// The answer of /api/combat/aa/waves (a first wave, then more on its survivors) in sentences.
// `land`: a battle for a territory.
export function wavesText(answer, land) {
  const p = (x) => `${(100 * x).toFixed(1)}%`;
  const ipc = (x) => (Math.abs(x) < 0.05 ? "0.0" : x.toFixed(1));
  const what = goal("take", land);
  const two = answer.waves.length === 2;
  const [first, ...later] = answer.waves;
  const lines = [`With ${two ? "a second wave" : `${answer.waves.length} waves`}, the attacker ${what.does} ${p(answer.take)} of the time (the first wave alone: ${p(first.take)}).`];
  later.forEach((wave, k) => {
    lines.push(`${two ? "The second wave" : `Wave ${k + 2}`} goes in ${p(wave.fights)} of the time (when the ${k ? "waves" : "wave"} before it did not ${what.they}) and ${what.short} ${p(wave.take)} of the time.`);
  });
  const losses = answer.waves.map((wave) => ipc(wave.expected_attacker_loss)).join(two ? " and " : ", ");
  const signed = answer.expected_swing >= 0.05 ? `+${ipc(answer.expected_swing)}` : ipc(answer.expected_swing);
  lines.push(`The ${two ? "two waves" : "waves"} lose ${losses} IPC on average; expected IPC swing ${signed} for the attacker.`);
  return lines;
}

// The form input that an API error's field is about (the calculator API names fields by the
// request's dotted path): the answers' requests are built from the form, so "available.armor"
// is the box of that name, a wave's "waves.1.units.armor" the second wave's box, an order or a
// policy the order or retreat input. null: no one input (e.g. a busy server).
export function fieldInput(field) {
  if (!field || field === "body") return null;
  const parts = String(field).split(".");
  if (parts[0] === "waves" && parts.length >= 3) {
    const first = parts[1] === "0";
    if (parts[2] === "units") return [first ? "attacker" : "wave2", ...parts.slice(3)].join(".");
    if (parts[2] === "order") return "order";
    if (parts[2] === "policy") return "retreat_at";
    if (parts[2] === "amphibious") return "amphibious";
    return null;
  }
  if (parts[0] === "waves") return "wave2";
  if (parts[0] === "attacker_order" || parts[0] === "order") return "order";
  if (parts[0] === "policy") return "retreat_at";
  if (parts[0] === "units") return ["attacker", ...parts.slice(1)].join(".");
  return field;
}
