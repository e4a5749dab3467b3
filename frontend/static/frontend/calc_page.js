// The combat calculators (/calculators/...): a form -> JSON body -> the calculator API -> the
// numbers, an SVG bar chart of the distribution, the result codes in plain English, and a
// shareable URL (the inputs in the query string; opening it fills the form and runs it).
// Text goes in with textContent only; the pure functions are in calc.js.
import { toQuery, fromQuery, toBody, barData, explainWif, explainFrance, explainAA, unitsText, riskOutcomeText } from "./calc.js";
import { api, el, errorText } from "./common.js";

const SVG = "http://www.w3.org/2000/svg"; // an XML namespace name, not a download
const pct = (p) => `${(100 * p).toFixed(2)}%`;
const num = (x) => (Math.round(x * 100) / 100).toString();

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
  const res = await api("POST", form.dataset.api, body);
  if (!res.ok) {
    status.textContent = `The calculator refused: ${errorText(res.data, res.status)}`;
    return;
  }
  status.textContent = "Done.";
  RENDER[form.dataset.calc](res.data, host);
}

export { RENDER };

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

start();
