// /games/<id>/replay: a finished game, move by move, on the board. Two answers are loaded:
// GET /api/games/<id>/replay (the log: who did what, its events and dice) and
// GET /api/games/<id>/replay/board (the spectator's view as dealt, then one JSON Patch per entry).
// Entry n shows the board as a spectator saw it right after entry n: the start view with the
// patches of entries 1..n applied (applyPatch). The territories the entry changed or
// fought over are highlighted; each roll is shown as dice. First/Previous/Next/Last, the slider,
// and the arrow keys, Home and End step; Play (or Space) steps on its own at the speed picked.
// All text goes in with textContent.
import { boardUrl, create as createBoard } from "./board.js";
import { api, el, errorText, setText } from "./common.js";
import { applyPatch } from "./patch.js";
import { eventText, loadCatalog } from "./text.js";

const gameId = document.body.dataset.gameId;
const CHECKPOINT = 50; // a view kept every 50 entries: stepping back re-applies at most 49 patches
let entries = [];
let steps = []; // steps[i]: the patch of entries[i]
let checkpoints = new Map(); // entries applied -> the view then
let board = null;
let at = 0;

// {type: "attack", from: "Peru", to: "Brazil"} -> "attack — from Peru, to Brazil"
function words(item) {
  if (item === null || typeof item !== "object") return String(item);
  const { type, player, ...rest } = item;
  const parts = Object.entries(rest).map(([key, value]) => `${key.replaceAll("_", " ")} ${plain(value)}`);
  return `${String(type || "?").replaceAll("_", " ")}${parts.length ? " — " + parts.join(", ") : ""}`;
}

function plain(value) {
  if (Array.isArray(value)) return value.length ? value.map(plain).join(", ") : "none";
  if (value !== null && typeof value === "object") {
    return `(${Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")} ${plain(v)}`).join(", ")})`;
  }
  return String(value);
}

// The spectator's view after the first `count` entries (0: as dealt).
function viewAfter(count) {
  let base = Math.floor(count / CHECKPOINT) * CHECKPOINT;
  while (!checkpoints.has(base)) base -= CHECKPOINT; // the checkpoints below are built in order
  let view = checkpoints.get(base);
  for (let i = base; i < count; i += 1) {
    view = applyPatch(view, steps[i].patch);
    if ((i + 1) % CHECKPOINT === 0) checkpoints.set(i + 1, view);
  }
  return view;
}

// Territories the entry touched: those whose holding its patch changed ("picked"); those its
// attack events name, or the land battle it rolled in (as it stood before the entry) names:
// the target "target", the attacking flanks "source".
function touched(index, before) {
  const marks = {};
  const battle = before && before.battle;
  if (battle && battle.kind === "land") {
    for (const flank of battle.flanks || []) if (!flank.ship) marks[flank.source] = "source";
    marks[battle.target] = "target";
  }
  for (const event of entries[index].events || []) {
    if (event.type !== "attack") continue;
    for (const [from] of event.flanks || []) marks[from] = "source";
    if (event.target) marks[event.target] = "target";
  }
  for (const op of steps[index] ? steps[index].patch : []) {
    const match = /^\/territories\/([^/]+)/.exec(op.path);
    if (match) marks[match[1].replace(/~1/g, "/").replace(/~0/g, "~")] = "picked";
  }
  return marks;
}

function die(value, side) {
  return el("span", { className: `die ${side}` }, String(value));
}

// Each roll of the entry as dice: attacker's, defender's and the losses.
function showRolls(entry) {
  const rolls = (entry.events || []).filter((e) => e.type === "roll");
  const box = document.getElementById("entry-battle");
  box.hidden = !rolls.length;
  box.replaceChildren(...rolls.map((r, i) => {
    const attacker = r.attacker || [], defender = r.defender || [];
    const title = rolls.length > 1 || r.flank ? `Roll ${i + 1}${r.flank ? ` (flank ${r.flank + 1})` : ""}` : "Roll";
    return el("div", { className: "roll" }, [
      el("p", { className: "roll-title" }, title),
      el("p", { className: "roll-side attacker-dice" },
        [el("span", { className: "roll-who" }, "Attacker"), ...attacker.map((v) => die(v, "attacker"))]),
      el("p", { className: "roll-side defender-dice" },
        [el("span", { className: "roll-who" }, "Defender"), ...defender.map((v) => die(v, "defender"))]),
      el("p", { className: "roll-losses" },
        `Attacker loses ${r.attacker_losses}, defender loses ${r.defender_losses}${r.captured ? `, ${r.captured} captured` : ""}`),
    ]);
  }));
}

function show() {
  const entry = entries[at];
  setText("entry-title", `Entry ${entry.sequence} of ${entries.length}`);
  setText("entry-actor", `${entry.actor}${entry.source ? ` (${entry.source})` : ""}`);
  setText("entry-action", words(entry.action));
  const rolls = entry.rolls || [];
  setText("entry-rolls", rolls.length ? rolls.map((r) => `d${r.sides}: ${r.value}`).join(", ") : "none");
  showRolls(entry);
  const events = entry.events || [];
  document.getElementById("entry-events").replaceChildren(
    ...(events.length ? events.map((e) => el("li", {}, eventText(e))) : [el("li", { className: "muted" }, "nothing")]));
  document.getElementById("replay-first").disabled = document.getElementById("replay-prev").disabled = at === 0;
  document.getElementById("replay-last").disabled = document.getElementById("replay-next").disabled = at === entries.length - 1;
  const slider = document.getElementById("replay-slider");
  slider.value = String(at + 1);
  slider.setAttribute("aria-valuetext", `Entry ${entry.sequence} of ${entries.length}`);
  paintBoard();
}

function paintBoard() {
  if (!board || !steps.length) return;
  const before = viewAfter(at);
  const view = applyPatch(before, steps[at].patch);
  if ((at + 1) % CHECKPOINT === 0) checkpoints.set(at + 1, view);
  board.paint(view);
  const marks = touched(at, before);
  board.mark(marks);
  const names = Object.keys(marks).sort();
  setText("entry-touched", names.length ? names.join(", ") : "none");
  document.getElementById("board-section").dataset.step = String(entries[at].sequence);
}

function go(index) {
  if (!entries.length) return;
  at = Math.max(0, Math.min(entries.length - 1, index));
  show();
}

async function loadBoard() {
  const replayBoard = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/board`);
  // the game's own map and version, named by its options
  const shapes = replayBoard.ok ? await api("GET", boardUrl((replayBoard.data.start || {}).options)) : replayBoard;
  if (!shapes.ok || !replayBoard.ok) {
    const failed = shapes.ok ? replayBoard : shapes;
    setText("board-note", `The board could not be drawn: ${errorText(failed.data, failed.status)}`, "bad");
    return;
  }
  const bySequence = new Map((replayBoard.data.steps || []).map((s) => [s.sequence, s]));
  if (entries.some((e) => !bySequence.has(e.sequence))) {
    setText("board-note", "The board replay does not match the log; the entries are shown as text.", "bad");
    return;
  }
  steps = entries.map((e) => bySequence.get(e.sequence));
  checkpoints = new Map([[0, replayBoard.data.start]]);
  board = createBoard(document.getElementById("board"), shapes.data, {
    controls: { zoomIn: document.getElementById("zoom-in"), zoomOut: document.getElementById("zoom-out"), reset: document.getElementById("zoom-reset") },
  });
  paintBoard();
}

async function load() {
  const [res] = await Promise.all([api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`), loadCatalog()]);
  if (!res.ok) {
    setText("replay-status", `Could not load the replay: ${errorText(res.data, res.status)}`, "bad");
    return;
  }
  entries = res.data.entries || [];
  const result = res.data.result && res.data.result.winner ? `, won by ${res.data.result.winner}` : "";
  setText("replay-status", `Game ${gameId}: ${entries.length} entries${result}. Players: ${(res.data.players || []).join(", ")}.`);
  document.getElementById("replay-verify").href = `/verify?game=${encodeURIComponent(gameId)}`;
  if (!entries.length) return;
  const slider = document.getElementById("replay-slider");
  slider.max = String(entries.length);
  document.getElementById("replay-body").hidden = false;
  go(0);
  await loadBoard();
}

// Play: one entry every few seconds (the speed picked: slow enough to read an entry and see its
// dice by default), from the first entry again when at the last; it pauses at the last entry,
// on Pause, and when a person steps by hand.
let timer = null;

function pause() {
  if (timer === null) return;
  clearTimeout(timer);
  timer = null;
  const button = document.getElementById("replay-play");
  button.textContent = "Play";
  button.setAttribute("aria-pressed", "false");
}

function tick() {
  if (at >= entries.length - 1) { pause(); return; }
  go(at + 1);
  timer = setTimeout(tick, Number(document.getElementById("replay-speed").value));
}

function play() {
  if (!entries.length) return;
  if (at >= entries.length - 1) go(0);
  const button = document.getElementById("replay-play");
  button.textContent = "Pause";
  button.setAttribute("aria-pressed", "true");
  timer = setTimeout(tick, Number(document.getElementById("replay-speed").value));
}

function byHand(index) {
  pause();
  go(index);
}

document.getElementById("replay-play").addEventListener("click", () => (timer === null ? play() : pause()));
document.getElementById("replay-first").addEventListener("click", () => byHand(0));
document.getElementById("replay-prev").addEventListener("click", () => byHand(at - 1));
document.getElementById("replay-next").addEventListener("click", () => byHand(at + 1));
document.getElementById("replay-last").addEventListener("click", () => byHand(entries.length - 1));
document.getElementById("replay-slider").addEventListener("input", (event) => byHand(Number(event.target.value) - 1));
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLElement && event.target.matches("input, textarea, select")) return;
  if (event.key === " " && entries.length && !(event.target instanceof HTMLElement && event.target.matches("button, a"))) {
    event.preventDefault();
    if (timer === null) play(); else pause();
    return;
  }
  const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: entries.length - 1 }[event.key];
  if (step === undefined || !entries.length) return;
  event.preventDefault();
  byHand(step);
});
load();
