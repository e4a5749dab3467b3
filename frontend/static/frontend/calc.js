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
