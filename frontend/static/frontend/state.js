// What the game page holds of one game: the last "state" body (the lobby facts, you, turn,
// pending with deadlines), the viewer's view kept current by each update's JSON Patch, the
// version, the status and the log of entries. Pure (no page, no socket): each method says what
// the page must do next, and Node imports it in tests/frontend/test_game_js_state.py.
import { applyPatch } from "./patch.js";

export class GameState {
  constructor() {
    this.game = null; // the last "state" body
    this.view = null; // the seat's (or spectator's) view: state.game.view, then each update's patch
    this.version = -1;
    this.status = "";
    this.log = []; // [{sequence, actor, action, events}] oldest first
  }

  // A "state" body (GET /api/games/<id> or the socket's "state"): true the first time.
  applyState(detail) {
    const fresh = this.game === null;
    this.game = detail;
    this.view = detail.view;
    this.version = detail.version;
    this.status = detail.status;
    return fresh;
  }

  // An "update": "applied" (render), "ignored" (old news) or "missed" (a version was missed or
  // the patch does not fit this view: ask for the whole state).
  applyUpdate(message) {
    if (message.version < this.version || (message.version === this.version && message.status === this.status)) return "ignored";
    if (message.base_version === null || message.base_version === undefined) {
      this.view = message.view; // the start of the game: the whole view
    } else if (message.base_version !== this.version) {
      return "missed"; // this patch is not for our view
    } else {
      try {
        this.view = applyPatch(this.view, message.patch);
      } catch {
        return "missed";
      }
    }
    this.version = message.version;
    this.status = message.status;
    if (this.game) this.game.status = this.status;
    // a timed game's update carries who it waits for with the deadlines: the countdowns go on
    if (this.game && Array.isArray(message.pending)) this.game.pending = message.pending;
    if (!this.log.some((e) => e.sequence === message.sequence)) {
      this.log.push({ sequence: message.sequence, events: message.events });
    }
    return "applied";
  }

  // An update as the page acts on it: {render, askState}. The page asks for the whole state only
  // when a version was missed (or a patch did not fit), never after a normal update.
  receiveUpdate(message) {
    const outcome = this.applyUpdate(message);
    return { render: outcome === "applied", askState: outcome === "missed" };
  }

  // Log entries from GET /api/games/<id>/events, merged in sequence order, each once.
  addEntries(entries) {
    const known = new Set(this.log.map((e) => e.sequence));
    for (const entry of entries) if (!known.has(entry.sequence)) this.log.push(entry);
    this.log.sort((a, b) => a.sequence - b.sequence);
  }

  // The view's pending decisions, each with its deadline (null when the game is untimed). The
  // view's pending has no deadlines; the last state's does: joined on player + kind.
  pendingList() {
    const due = new Map(((this.game && this.game.pending) || []).map((p) => [`${p.player}|${p.kind}`, p.deadline]));
    return ((this.view && this.view.pending) || []).map((p) => ({ ...p, deadline: p.deadline ?? due.get(`${p.player}|${p.kind}`) ?? null }));
  }

  // The seat as the lobby knows it (its display name and state), by rules name.
  lobbySeat(player) {
    return ((this.game && this.game.seats) || []).find((s) => s.player === player);
  }

  // A plain copy for other modules and the tests.
  snapshot() {
    return { game: this.game, view: this.view, version: this.version, status: this.status };
  }
}
