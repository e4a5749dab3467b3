// /verify: load a finished game's replay (?game=<id> or the form) or take pasted JSON, and check
// every roll with dice.js. All text goes in with textContent (el / setText).
import { api, el, errorText, setText } from "./common.js";
import { verifyReplay } from "./dice.js";

function rollsText(rolls) {
  if (!rolls.length) return "no rolls";
  return rolls.map((r) => {
    const die = `d${r.sides}`;
    if (r.derived === null) return `#${r.counter} ${die}: malformed`;
    return r.ok ? `#${r.counter} ${die}: ${r.value}` : `#${r.counter} ${die}: logged ${r.value}, recomputed ${r.derived}`;
  }).join("; ");
}

function row(entry) {
  const verdict = entry.ok ? "matches" : `MISMATCH${entry.problems.length ? ": " + entry.problems.join("; ") : ": a roll differs"}`;
  return el("tr", { className: entry.ok ? "" : "bad", dataset: { sequence: String(entry.sequence), ok: String(entry.ok) } },
    el("td", { className: "num" }, String(entry.sequence)),
    el("td", {}, String(entry.context)),
    el("td", {}, rollsText(entry.rolls)),
    el("td", { className: entry.ok ? "ok" : "bad" }, verdict));
}

function show(report) {
  const total = report.entries.length;
  const summary = [
    report.commitmentOk
      ? el("li", { className: "ok" }, `SHA-256 of the server seed equals the published commitment ${report.published}.`)
      : el("li", { className: "bad" }, `SHA-256 of the server seed is ${report.commitment}, but the published commitment is ${report.published || "(none)"}.`),
    el("li", {}, `Engine seed: ${report.engineSeed}`),
    el("li", {}, `${total} log entr${total === 1 ? "y" : "ies"}, ${report.rolls} roll${report.rolls === 1 ? "" : "s"} recomputed.`),
  ];
  if (report.game !== null) {
    summary.push(el("li", {}, el("a", { href: `/games/${encodeURIComponent(report.game)}/replay` }, `Step through game ${report.game}'s moves`)));
  }
  document.getElementById("verify-summary").replaceChildren(...summary);
  document.getElementById("verify-body").replaceChildren(...report.entries.map(row));
  document.getElementById("verify-table").hidden = false;
  if (report.ok) setText("verify-status", `Every entry matches: all ${report.rolls} rolls of ${total} entries recompute from the revealed seed.`, "ok");
  else if (report.bad) setText("verify-status", `${report.bad} of ${total} entries do not match (marked MISMATCH below).`, "bad");
  else setText("verify-status", "The rolls match, but the server seed does not match its published commitment.", "bad");
}

function clear() {
  document.getElementById("verify-summary").replaceChildren();
  document.getElementById("verify-body").replaceChildren();
  document.getElementById("verify-table").hidden = true;
}

async function check(body) {
  clear();
  setText("verify-status", "Checking…", "");
  try {
    show(await verifyReplay(body));
  } catch (err) {
    setText("verify-status", `Could not check: ${err.message}`, "bad");
  }
}

async function load(gameId) {
  clear();
  setText("verify-status", `Loading game ${gameId}'s replay…`, "");
  const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
  if (!res.ok) {
    setText("verify-status", `Could not load game ${gameId}'s replay: ${errorText(res.data, res.status)}`, "bad");
    return;
  }
  document.getElementById("verify-json").value = JSON.stringify(res.data, null, 1);
  await check(res.data);
}

document.getElementById("load-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = document.getElementById("verify-game").value.trim();
  history.replaceState(null, "", `/verify?game=${encodeURIComponent(id)}`);
  load(id);
});

document.getElementById("paste-form").addEventListener("submit", (event) => {
  event.preventDefault();
  let body;
  try {
    body = JSON.parse(document.getElementById("verify-json").value);
  } catch (err) {
    clear();
    setText("verify-status", `That is not JSON: ${err.message}`, "bad");
    return;
  }
  check(body);
});

const wanted = new URLSearchParams(location.search).get("game");
if (wanted) {
  document.getElementById("verify-game").value = wanted;
  load(wanted);
}
