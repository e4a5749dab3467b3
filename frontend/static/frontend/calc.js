// The combat calculators (/calculators/...): a form -> JSON body -> the calculator API -> the
// numbers, an SVG bar chart of the distribution, the result codes in plain English, and a
// shareable URL (the inputs in the query string; opening it fills the form and runs it).
// Text goes in with textContent only. The pure functions between the [calc start]/[calc end]
// markers use no DOM; tests/frontend/test_calc_js.py runs them under Node.
"use strict";

// [calc start]
// The form's inputs that differ from their defaults, as a query string ("a=1&b=x").
function toQuery(values, defaults) {
  const params = new URLSearchParams();
  for (const [name, value] of values) {
    const text = String(value);
    if (text === "" || text === String(defaults[name] ?? "")) continue;
    params.append(name, text);
  }
  return params.toString();
}

// A query string back to [[name, value], ...], only for names the form has.
function fromQuery(query, names) {
  const known = new Set(names);
  const out = [];
  for (const [name, value] of new URLSearchParams(query)) if (known.has(name)) out.push([name, value]);
  return out;
}

// The JSON body from [[name, value], ...]: "a.b" nests, types[name] converts ("int", "float",
// "bool", "intlist" like "15, 15", "json"), empty values are left out, and so are counts of 0
// in nested unit maps (types "count"). Throws Error(name + ": ...") on a value that is no number.
function toBody(values, types) {
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
function barData(items, maxWidth, height) {
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
function explainWif(code) {
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
function explainFrance(letter) {
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
function explainAA(result) {
  return AA_RESULTS[result] ? `${result}: ${AA_RESULTS[result]}` : String(result);
}

// "3 infantry, 1 armor" from {"infantry": 3, "armor": 1}; "none" when empty.
function unitsText(units) {
  const parts = Object.entries(units || {}).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name.replace(/_/g, " ")}`);
  return parts.length ? parts.join(", ") : "none";
}
// A Fast Risk end state in words: who won, what is left, captures, the defending ship.
function riskOutcomeText(o) {
  const left = o.flanks_left.length > 1 ? o.flanks_left.join("+") : String(o.attackers_left);
  let text = o.defenders_left === 0 ? `attacker wins, ${left} left` : `defender holds, ${o.defenders_left} left`;
  if (o.captured) text += `, ${o.captured} captured`;
  if (o.defender_ship) text += `, ship ${o.defender_ship}`;
  return text;
}
// [calc end]

const Calc = (() => {
  const SVG = "http://www.w3.org/2000/svg"; // an XML namespace name, not a download
  const pct = (p) => `${(100 * p).toFixed(2)}%`;
  const num = (x) => (Math.round(x * 100) / 100).toString();
  const { el } = Warboard;

  function drawChart(host, items, caption) {
    const bars = barData(items, 260, 22);
    const svg = document.createElementNS(SVG, "svg");
    const height = Math.max(22, bars.length * 22);
    svg.setAttribute("viewBox", `0 0 560 ${height}`);
    svg.setAttribute("width", "100%");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", caption);
    svg.classList.add("chart");
    for (const bar of bars) {
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", "190"); label.setAttribute("y", String(bar.y + 15));
      label.setAttribute("text-anchor", "end");
      label.textContent = bar.label.length > 30 ? `${bar.label.slice(0, 29)}…` : bar.label;
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", "200"); rect.setAttribute("y", String(bar.y + 3));
      rect.setAttribute("width", String(bar.width)); rect.setAttribute("height", "16");
      const title = document.createElementNS(SVG, "title");
      title.textContent = `${bar.label}: ${bar.percent}`;
      rect.append(title);
      const value = document.createElementNS(SVG, "text");
      value.setAttribute("x", String(206 + bar.width)); value.setAttribute("y", String(bar.y + 15));
      value.textContent = bar.percent;
      svg.append(label, rect, value);
    }
    host.append(el("figure", {}, svg, el("figcaption", {}, caption)));
  }

  function facts(pairs) {
    const dl = el("dl");
    for (const [term, value] of pairs) dl.append(el("dt", {}, term), el("dd", {}, value));
    return dl;
  }

  function explanationLines(lines) {
    return el("ul", {}, lines.map((line) => el("li", {}, `${line.condition}: ${line.value >= 0 ? "+" : ""}${num(line.value)}`)));
  }

  function crtResolution(data, explain, host) {
    if (!data.code) return;
    const rolls = (data.rolls || []).map((r) => `${r.value} (d${r.sides})`).join(", ");
    host.append(el("h3", {}, "The roll"), facts([
      ["Dice", rolls], ["Row read", String(data.row)], ["Result", explain(data.code)],
      ...(data.outcome && data.outcome.summary ? [["Summary", data.outcome.summary]] : []),
      ["Seed commitment", data.commitment], ["Dice context", data.context],
    ]));
  }

  const RENDER = {
    aa(data, host) {
      host.append(facts([
        ["Attacker wins", pct(data.attacker_wins)], ["Defender wins", pct(data.defender_wins)],
        ["Both wiped out (draw)", pct(data.draw)], ["Stalemate", pct(data.stalemate)],
        ["Attacker's expected survivors", Object.entries(data.expected_attacker_survivors).map(([k, v]) => `${num(v)} ${k}`).join(", ") || "none"],
        ["Defender's expected survivors", Object.entries(data.expected_defender_survivors).map(([k, v]) => `${num(v)} ${k}`).join(", ") || "none"],
        ["Expected IPC swing (to the attacker)", num(data.expected_ipc_swing)],
        ["Rules, edition, method", `${data.rules}, ${data.edition}, ${data.method}`],
      ]));
      drawChart(host, [
        { label: "attacker wins", value: data.attacker_wins }, { label: "defender wins", value: data.defender_wins },
        { label: "draw", value: data.draw }, { label: "stalemate", value: data.stalemate },
      ], "Who wins");
      const outcomes = (data.outcomes || []).slice(0, 15);
      drawChart(host, outcomes.map((o) => ({
        label: o.result === "attacker" ? `A: ${unitsText(o.attacker_left)}` : o.result === "defender" ? `D: ${unitsText(o.defender_left)}` : o.result,
        value: o.probability,
      })), "The likeliest end states (A: attacker's units left, D: defender's units left)");
      host.append(el("h3", {}, "What the results mean"),
        el("ul", {}, [...new Set((data.outcomes || []).map((o) => o.result))].map((r) => el("li", {}, explainAA(r)))));
    },
    risk(data, host) {
      const naval = data.naval ? Object.entries(data.naval).map(([k, v]) => `${k.replace(/_/g, " ")} ${pct(v)}`).join(", ") : null;
      host.append(facts([
        ["Attacker wins", pct(data.attacker_wins)], ["Defender wins", pct(data.defender_wins)],
        ["Expected attacker losses", num(data.expected_attacker_losses)],
        ["Expected defender losses", num(data.expected_defender_losses)],
        ["Expected armies captured", num(data.expected_captures)],
        ...(naval ? [["The defending ship", naval]] : []),
        ["End states", `${data.outcomes_total} in all${data.outcomes_left_out > 0 ? `; those not listed: ${pct(data.outcomes_left_out)}` : ""}`],
      ]));
      drawChart(host, data.outcomes.map((o) => ({ label: riskOutcomeText(o), value: o.probability })),
        "The likeliest end states");
    },
    wif(data, host) {
      const odds = data.odds || data;
      host.append(facts([
        ["Odds level", odds.odds_level], ["Column", odds.column], ["Odds modifier", num(odds.odds_drm)],
        ["Total die-roll modifier", num(odds.total_drm)],
      ]), el("h3", {}, "How the modifier adds up"), explanationLines(odds.explanation));
      const codes = Object.entries(odds.distribution);
      drawChart(host, codes.map(([code, p]) => ({ label: code, value: p })), "Chance of each printed result (attacker/defender losses)");
      host.append(el("h3", {}, "What the results mean"),
        el("ul", {}, codes.filter(([, p]) => p > 0).map(([code]) => el("li", {}, explainWif(code)))));
      crtResolution(data, explainWif, host);
    },
    france(data, host) {
      const odds = data.odds || data;
      host.append(facts([
        ["Odds column", odds.odds_level], ["Column read after shifts", odds.column],
        ["Die-roll modifier", num(odds.total_drm)],
      ]), el("h3", {}, "How the combat modifier adds up"), explanationLines(odds.explanation));
      const letters = Object.entries(odds.distribution);
      drawChart(host, letters.map(([code, p]) => ({ label: code, value: p })), "Chance of each result letter");
      host.append(el("h3", {}, "What the results mean"),
        el("ul", {}, letters.filter(([, p]) => p > 0).map(([code]) => el("li", {}, explainFrance(code)))));
      crtResolution(data, explainFrance, host);
    },
  };

  function controls(form) {
    return [...form.elements].filter((node) => node.name && node.type !== "submit");
  }
  function values(form) {
    return controls(form).map((node) => [node.name, node.type === "checkbox" ? node.checked : node.value]);
  }
  function defaults(form) {
    const out = {};
    for (const node of controls(form)) {
      if (node.type === "checkbox") out[node.name] = node.defaultChecked;
      else if (node.tagName === "SELECT") {
        const chosen = [...node.options].find((option) => option.defaultSelected) || node.options[0];
        out[node.name] = chosen ? chosen.value : "";
      } else out[node.name] = node.defaultValue;
    }
    return out;
  }
  function types(form) {
    const out = {};
    for (const node of controls(form)) out[node.name] = node.type === "checkbox" ? "bool" : node.dataset.type || "str";
    return out;
  }

  async function run(form) {
    const status = document.getElementById("calc-status");
    const host = document.getElementById("calc-result");
    host.replaceChildren();
    let body;
    try {
      body = toBody(values(form), types(form));
    } catch (err) {
      status.textContent = `Check the form: ${err.message}`;
      return;
    }
    const query = toQuery(values(form), defaults(form));
    const url = `${location.pathname}${query ? `?${query}` : ""}`;
    history.replaceState(null, "", url);
    const share = document.getElementById("calc-share");
    share.href = url;
    share.textContent = `${location.origin}${url}`;
    status.textContent = "Calculating…";
    const res = await Warboard.api("POST", form.dataset.api, body);
    if (!res.ok) {
      status.textContent = `The calculator refused: ${Warboard.errorText(res.data, res.status)}`;
      return;
    }
    status.textContent = "Done.";
    RENDER[form.dataset.calc](res.data, host);
  }

  function start() {
    const form = document.getElementById("calc-form");
    if (!form) return;
    form.addEventListener("submit", (event) => { event.preventDefault(); run(form); });
    const given = fromQuery(location.search, controls(form).map((node) => node.name));
    if (!given.length) return;
    for (const [name, value] of given) {
      const node = form.elements.namedItem(name);
      if (!node) continue;
      if (node.type === "checkbox") node.checked = value === "true";
      else node.value = value;
    }
    run(form);
  }

  return { start, RENDER };
})();

Calc.start();
