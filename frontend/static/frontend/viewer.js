// What one viewer's device adds to the game page, apart from the game itself: its remembered
// choices (the first-game guide seen, the watchable pace, the turn sound; localStorage), the
// pacing of incoming moves (Pacer), and the tab's title, icon and beep when it is their move.
// Nothing here reaches the server.

const KEYS = { guide: "warboard.guide.done", pace: "warboard.pace", sound: "warboard.turn-sound" };

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; } // storage off: defaults
}
function write(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch { /* not kept */ }
}

export const settings = {
  guideDone: () => read(KEYS.guide) === "1",
  setGuideDone: (done) => write(KEYS.guide, done ? "1" : null),
  paced: () => read(KEYS.pace) === "watch",
  setPaced: (on) => write(KEYS.pace, on ? "watch" : null),
  sound: () => read(KEYS.sound) === "on",
  setSound: (on) => write(KEYS.sound, on ? "on" : null),
};

// The pause between two moves shown at the watchable pace.
export const PACE_MS = 700;

// Incoming updates in order: shown at once, or (paced) one every PACE_MS while more wait;
// flush() shows all that wait at once. show(message) shows one, showAll(messages) several,
// onQueue(count) hears how many wait.
export class Pacer {
  constructor({ show, showAll, onQueue, now = () => Date.now(), later = (f, ms) => setTimeout(f, ms), cancel = (t) => clearTimeout(t), pace = PACE_MS }) {
    Object.assign(this, { show, showAll, onQueue, now, later, cancel, pace });
    this.paced = false;
    this.queue = [];
    this.timer = null;
    this.last = -Infinity;
  }

  get count() { return this.queue.length; }

  push(message) {
    if (!this.paced && !this.queue.length) { this.show(message); return; }
    this.queue.push(message);
    this.step();
  }

  step() {
    if (this.timer !== null) return;
    const wait = this.last + this.pace - this.now();
    if (this.queue.length && (wait <= 0 || !this.paced)) {
      this.last = this.now();
      this.show(this.queue.shift());
    }
    if (this.queue.length) this.timer = this.later(() => { this.timer = null; this.step(); }, Math.max(wait, 0) || this.pace);
    this.onQueue(this.queue.length);
  }

  flush() {
    if (this.timer !== null) { this.cancel(this.timer); this.timer = null; }
    const all = this.queue.splice(0);
    if (all.length) this.showAll(all);
    this.onQueue(0);
  }

  // The whole state arrived: what waits is older than it.
  clear() {
    if (this.timer !== null) { this.cancel(this.timer); this.timer = null; }
    this.queue = [];
    this.onQueue(0);
  }
}

// Which step of the first-game guide the offered actions are at.
export function guideStep(legal) {
  const types = new Set(legal.map((a) => a.type));
  if (types.has("place") || types.has("turn_in")) return "place";
  if (["attack", "roll", "move_in", "retreat"].some((t) => types.has(t))) return "attack";
  if (["end_campaign", "transfer", "end_turn"].some((t) => types.has(t))) return "end";
  if (types.has("mobilize") || types.has("join_defence")) return "defend";
  return null;
}

// How to move about the board, for the device in hand: a touch screen has no wheel or Tab key.
export function boardHelp(coarse = window.matchMedia("(pointer: coarse)").matches) {
  return coarse
    ? "Pinch to zoom, drag to move the board, tap a territory to pick it."
    : "Drag to move the board, use the wheel or +/− to zoom; with the keyboard, Tab to a territory and press Enter to pick it.";
}

// The tab's icon: the site's mark, or an orange one with "!" while it is your move.
function icon(mine) {
  const body = mine
    ? '<circle cx="16" cy="16" r="15" fill="#e8590c"/><text x="16" y="23" font-size="21" font-weight="700" text-anchor="middle" fill="#fff" font-family="sans-serif">!</text>'
    : '<rect x="1" y="1" width="30" height="30" rx="6" fill="#1f4fa3"/><text x="16" y="23" font-size="19" font-weight="700" text-anchor="middle" fill="#fff" font-family="sans-serif">W</text>';
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`)}`;
}

let wasMine = null;
let audio = null;

// A short two-note beep made in the page (WebAudio): no sound file is fetched.
export function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  audio = audio || new Context();
  const t = audio.currentTime;
  for (const [i, freq] of [[0, 660], [1, 880]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t + i * 0.16);
    gain.gain.exponentialRampToValueAtTime(0.2, t + i * 0.16 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.16 + 0.14);
    osc.connect(gain).connect(audio.destination);
    osc.start(t + i * 0.16);
    osc.stop(t + i * 0.16 + 0.15);
  }
  window.__turnBeeps = (window.__turnBeeps || 0) + 1; // counted, for the tests
  return true;
}

// The tab says when it is your move: "(Your turn)" before the title, the "!" icon, and the beep
// (when the sound is on) as the game turns to you: once a turn (turnKey names it), not again for
// each decision of that turn after a bot's short answer (a defender's mobilization).
let beepedFor = null;
export function setTurnSignal(mine, title, turnKey = null) {
  document.title = mine ? `(Your turn) ${title}` : title;
  const link = document.getElementById("favicon");
  if (link && wasMine !== mine) link.href = icon(mine);
  if (mine && wasMine === false && turnKey !== beepedFor && settings.sound()) {
    beepedFor = turnKey;
    beep();
  }
  if (mine && wasMine === null) beepedFor = turnKey; // the page opened on your move: no beep
  wasMine = mine;
}
