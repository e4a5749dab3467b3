// The combat calculators (/calculators/...): a form -> JSON body -> the calculator API -> the
// numbers, an SVG bar chart of the distribution, the result codes in plain English, and a
// shareable URL (the inputs in the query string; opening it fills the form and runs it).
// A&A also answers the players' questions (take, swing, retreat, order of loss, the cheapest
// force, a second wave) in sentences; an API refusal is shown next to the input it names.
// Text goes in with textContent only; the pure functions are in calc.js.
import {
  toQuery, fromQuery, toBody, barData, explainWif, explainFrance, explainAA, unitsText, riskOutcomeText,
  aaAnswerText, swingBars, retreatPolicy, retreatText, legacyRetreat, parseOrder, orderOfLoss,
  orderWarningText, cheapestText, wavesText, fieldInput,
} from "./calc.js";
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

// A value as the form's <select> names it ("lowluck": "Low Luck: ..."); the value itself when
// the page has no such option.
function optionText(id, value) {
  const select = document.getElementById(id);
  const option = select && [...select.options].find((node) => node.value === value);
  return option ? option.textContent : String(value);
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
      ["Rules", optionText("aa-rules", data.rules)], ["Edition", optionText("aa-edition", data.edition)],
      ["Method", optionText("aa-method", data.method)],
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

// The form's inputs that count: a unit box of another edition is disabled (aaEditions).
function controls(form) {
  return [...form.elements].filter((node) => node.name && node.type !== "submit" && !node.disabled);
}

// A&A: the unit boxes follow the chosen edition (every unit of it, from the editions endpoint);
// the others are hidden and disabled, so they are neither sent nor put in the shared link.
// The edition's unit names, in its data file's order, for the order of loss and the answers.
const aaUnits = new Map();
async function aaEditions(form) {
  const select = form.elements.namedItem("edition");
  const res = await api("GET", "/api/combat/aa/editions");
  if (!select || !res.ok) return;
  const editions = new Map(res.data.editions.map((edition) => [edition.key, edition.units]));
  for (const [key, units] of editions) aaUnits.set(key, units.map((unit) => unit.name));
  const hint = document.getElementById("aa-order-hint");
  const apply = () => {
    const units = new Map((editions.get(select.value) || []).map((unit) => [unit.name, unit]));
    for (const node of form.querySelectorAll("[data-unit]")) {
      const unit = units.get(node.dataset.unit);
      node.hidden = !unit;
      if (node.tagName !== "INPUT") continue;
      node.disabled = !unit;
      if (unit) node.title = `${unit.kind}, attack ${unit.attack}, defense ${unit.defense}, ${unit.cost} IPC${unit.hits > 1 ? `, ${unit.hits} hits` : ""}`;
    }
    if (hint) hint.textContent = `Units left out follow the usual order (weakest first). This edition's units: ${[...units.keys()].map((n) => n.replace(/_/g, " ")).join(", ")}.`;
  };
  select.addEventListener("change", apply);
  apply();
}

// A&A: the retreat's number is asked only for a rule that needs one, and its label says which.
const RETREAT_AT = {
  after_round: "Retreat after round (N)",
  below_chance: "Retreat when the chance to win is under (%)",
  below_units: "Retreat when fewer units are left than (k)",
};
function aaRetreat(form) {
  const select = form.elements.namedItem("retreat");
  const input = form.elements.namedItem("retreat_at");
  const label = document.getElementById("aa-retreat-at-label");
  if (!select || !input || !label) return;
  const apply = () => {
    const text = RETREAT_AT[select.value];
    label.hidden = input.hidden = input.disabled = !text;
    if (text) label.textContent = text;
  };
  select.addEventListener("change", apply);
  apply();
}

// A&A: an optional part (<details>) opens when the link filled one of its inputs.
function aaOpenParts(form) {
  for (const part of form.querySelectorAll("details.calc-part")) {
    const given = [...part.querySelectorAll("input, select")].some((node) => !node.disabled && (
      node.tagName === "SELECT" ? !node.options[node.selectedIndex]?.defaultSelected : node.value !== node.defaultValue));
    if (given) part.open = true;
  }
}

// A refusal next to the input it names (aria-invalid, described by the message); the input
// itself when the API names one of the form's inputs, else the first box of the group it
// names ("available": the first available box). Returns false when no input fits.
function markField(form, name, message) {
  if (!name) return false;
  const all = controls(form);
  const node = all.find((n) => n.name === name) || all.find((n) => n.name.startsWith(`${name}.`) && !n.hidden);
  if (!node) return false;
  const part = node.closest("details");
  if (part) part.open = true;
  const id = `${node.id}-error`;
  document.getElementById(id)?.remove();
  const note = el("p", { id, class: "field-error" }, message.charAt(0).toUpperCase() + message.slice(1));
  (node.closest("label.check") || node).after(note);
  node.setAttribute("aria-invalid", "true");
  node.setAttribute("aria-describedby", [node.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
  return true;
}
function clearMarks(form) {
  for (const note of form.querySelectorAll(".field-error")) note.remove();
  for (const node of form.querySelectorAll("[aria-invalid]")) {
    node.removeAttribute("aria-invalid");
    const kept = (node.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && !id.endsWith("-error"));
    if (kept.length) node.setAttribute("aria-describedby", kept.join(" "));
    else node.removeAttribute("aria-describedby");
  }
}
// What the API said, in its own words (the message), with the accepted values when few.
function said(res) {
  const d = res.data || {};
  if (res.status === 503) return "the calculators are busy or the battle is too long to work out; try again in a moment";
  let text = d.message || d.detail || `HTTP ${res.status}`;
  if (Array.isArray(d.allowed) && d.allowed.length && d.allowed.length <= 12) text += ` (allowed: ${d.allowed.join(", ").replace(/_/g, " ")})`;
  return text;
}
// POST to a question, trying again (twice, a second apart) when every calculator is busy.
async function ask(path, body) {
  for (let attempt = 0; ; attempt += 1) {
    const res = await api("POST", path, body);
    if (res.status !== 503 || attempt >= 2) return res;
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
  }
}

// A&A: under the odds, the answers of the questions' endpoints for the same battle, as
// sentences first (take and IPC swing, the retreat, the order of loss, the cheapest force, the
// second wave) and the swing's chart last. `plan` is what the page's own inputs ask
// (aaPlan). A refused question says so in its place and marks the input it names.
async function aaAnswers(form, body, host, plan) {
  const answers = el("div", { class: "answers" });
  host.prepend(answers);
  const refused = (what, res) => {
    const text = said(res);
    markField(form, fieldInput(res.data && res.data.field), text);
    answers.append(el("p", {}, `${what} not answered: ${text}.`));
  };
  const battle = { ...body };
  delete battle.method;
  delete battle.rounds;
  if (plan.order) battle.attacker_order = plan.order;
  else delete battle.attacker_order;
  if (plan.policy) battle.policy = plan.policy;
  let land = true;
  if (body.method === "monte-carlo" || body.rounds !== undefined) {
    answers.append(el("p", { id: "aa-answer" }, "Take and IPC swing: only for the exact method, fought to the end (no round limit)."));
  } else {
    const [take, swing] = await Promise.all([ask("/api/combat/aa/take", battle), ask("/api/combat/aa/swing", battle)]);
    if (!take.ok || !swing.ok) refused("Take and IPC swing", take.ok ? swing : take);
    else {
      land = take.data.land_battle;
      const [first, ...more] = aaAnswerText(take.data, swing.data);
      const retreating = retreatText(plan.policy, take.data);
      if (retreating) more.unshift(retreating);
      answers.append(el("p", { id: "aa-answer" }, first), ...more.map((line) => el("p", {}, line)));
      host.append(el("h3", {}, "The IPC swing"));
      drawChart(host, swingBars(swing.data), "IPC swing for the attacker (what the defender loses minus what the attacker loses), and how likely each is");
    }
  }
  if (plan.order) {
    const res = await api("POST", "/api/combat/aa/order-check", {
      units: body.attacker || {}, order: plan.order, role: "attacker", edition: body.edition, to_take: land,
    });
    if (!res.ok) refused("The check of your order of loss", res);
    else if (!res.data.warnings.length) answers.append(el("p", { id: "aa-order-check" }, "Your order of loss looks sound."));
    else {
      answers.append(el("div", { id: "aa-order-check" }, el("p", {}, "About your order of loss:"),
        el("ul", {}, res.data.warnings.map((warning) => el("li", {}, orderWarningText(warning))))));
    }
  }
  if (plan.cheapest) {
    const res = await ask("/api/combat/aa/cheapest", {
      ...plan.cheapest, defender: body.defender, rules: body.rules, edition: body.edition,
      attacker_order: plan.order, amphibious: Boolean(body.amphibious),
    });
    if (!res.ok) refused("The cheapest force", res);
    else answers.append(el("div", { id: "aa-cheapest" }, el("p", {}, cheapestText(res.data, land, aaUnits.get(body.edition) || []))));
  }
  if (plan.wave2) {
    const first = { units: body.attacker || {}, amphibious: Boolean(body.amphibious), order: plan.order, policy: plan.policy };
    const res = await ask("/api/combat/aa/waves", {
      defender: body.defender, rules: body.rules, edition: body.edition,
      waves: [first, { units: plan.wave2, order: plan.order }],
    });
    if (!res.ok) refused("The second wave", res);
    else answers.append(el("div", { id: "aa-waves" }, wavesText(res.data, land).map((line) => el("p", {}, line))));
  }
}

// A&A: what the page's own inputs (data-local: not the odds endpoint's) ask, checked before
// anything is sent: the order of loss, the retreat policy, the cheapest force's pool and
// target, the second wave. Throws Error("<input name>: ...") as toBody does.
function aaPlan(local, edition) {
  const units = parseOrder(local.order, aaUnits.get(edition) || []);
  const plan = {
    units,
    order: orderOfLoss(units, local.keep_land, local.keep_capital),
    policy: retreatPolicy(local.retreat, local.retreat_at),
    cheapest: null,
    wave2: local.wave2 && Object.keys(local.wave2).length ? local.wave2 : null,
  };
  if (local.available && Object.keys(local.available).length) {
    const target = local.target === undefined ? 90 : local.target;
    if (!(target > 0 && target <= 100)) throw new Error("target: a chance above 0% and at most 100%");
    plan.cheapest = { available: local.available, target: target / 100, measure: local.measure || "take", by: local.by || "ipc" };
  }
  return plan;
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

// The form's inputs marked data-local (on themselves or a part around them) are the page's
// own (the A&A questions'), not the calculator endpoint's.
const isLocal = (node) => Boolean(node.closest("[data-local]"));

async function run(form) {
  const status = document.getElementById("calc-status");
  const host = document.getElementById("calc-result");
  host.replaceChildren();
  clearMarks(form);
  const all = values(form);
  const local = new Set(controls(form).filter(isLocal).map((node) => node.name));
  let body, plan = null;
  try {
    body = toBody(all.filter(([name]) => !local.has(name)), types(form));
    if (form.dataset.calc === "aa") {
      plan = aaPlan(toBody(all.filter(([name]) => local.has(name)), types(form)), body.edition);
      if (plan.units.length) body.attacker_order = plan.units;
    }
  } catch (err) {
    const [name, ...rest] = err.message.split(": ");
    const marked = markField(form, fieldInput(name), rest.join(": ") || err.message);
    status.textContent = marked ? "Check the field marked in the form." : `Check the form: ${err.message}`;
    return;
  }
  const query = toQuery(all, defaults(form));
  const url = `${location.pathname}${query ? `?${query}` : ""}`;
  history.replaceState(null, "", url);
  const share = document.getElementById("calc-share");
  share.href = url;
  share.textContent = `${location.origin}${url}`;
  status.textContent = "Calculating…";
  const res = await api("POST", form.dataset.api, body);
  if (!res.ok) {
    const text = res.data && res.data.message ? res.data.message : errorText(res.data, res.status);
    const marked = markField(form, fieldInput(res.data && res.data.field), text);
    status.textContent = `The calculator refused: ${text}${marked ? " (the field is marked in the form)" : ""}`;
    return;
  }
  RENDER[form.dataset.calc](res.data, host);
  if (plan) await aaAnswers(form, body, host, plan);
  status.textContent = "Done.";
}

export { RENDER };

async function start() {
  const form = document.getElementById("calc-form");
  if (!form) return;
  form.addEventListener("submit", (event) => { event.preventDefault(); run(form); });
  // An older link's "retreat=after_round:2" is the two inputs retreat and retreat_at now.
  const given = legacyRetreat(fromQuery(location.search, controls(form).map((node) => node.name)));
  for (const [name, value] of given) {
    const node = form.elements.namedItem(name);
    if (!node) continue;
    if (node.type === "checkbox") node.checked = value === "true";
    else node.value = value;
  }
  // The edition (restored above) decides which unit boxes count before anything runs.
  if (form.dataset.calc === "aa") {
    await aaEditions(form);
    aaRetreat(form);
    aaOpenParts(form);
  }
  if (given.length) run(form);
}

start();
