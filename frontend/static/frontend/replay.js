// /games/<id>/replay: a finished game's log (GET /api/games/<id>/replay), one entry at a time, in
// words. Prev/Next buttons and the arrow keys step; all text goes in with textContent.
"use strict";

(() => {
  const { api, el, errorText, setText } = Warboard;
  const gameId = document.body.dataset.gameId;
  let entries = [];
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

  function show() {
    const entry = entries[at];
    setText("entry-title", `Entry ${entry.sequence} of ${entries.length}`);
    setText("entry-actor", `${entry.actor}${entry.source ? ` (${entry.source})` : ""}`);
    setText("entry-action", words(entry.action));
    const rolls = entry.rolls || [];
    setText("entry-rolls", rolls.length ? rolls.map((r) => `d${r.sides}: ${r.value}`).join(", ") : "none");
    const events = entry.events || [];
    document.getElementById("entry-events").replaceChildren(
      ...(events.length ? events.map((e) => el("li", {}, words(e))) : [el("li", { className: "muted" }, "nothing")]));
    document.getElementById("replay-first").disabled = document.getElementById("replay-prev").disabled = at === 0;
    document.getElementById("replay-last").disabled = document.getElementById("replay-next").disabled = at === entries.length - 1;
  }

  function go(index) {
    if (!entries.length) return;
    at = Math.max(0, Math.min(entries.length - 1, index));
    show();
  }

  async function load() {
    const res = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
    if (!res.ok) {
      setText("replay-status", `Could not load the replay: ${errorText(res.data, res.status)}`, "bad");
      return;
    }
    entries = res.data.entries || [];
    const result = res.data.result && res.data.result.winner ? `, won by ${res.data.result.winner}` : "";
    setText("replay-status", `Game ${gameId}: ${entries.length} entries${result}. Players: ${(res.data.players || []).join(", ")}.`);
    document.getElementById("replay-verify").href = `/verify?game=${encodeURIComponent(gameId)}`;
    if (!entries.length) return;
    document.getElementById("replay-body").hidden = false;
    go(0);
  }

  document.getElementById("replay-first").addEventListener("click", () => go(0));
  document.getElementById("replay-prev").addEventListener("click", () => go(at - 1));
  document.getElementById("replay-next").addEventListener("click", () => go(at + 1));
  document.getElementById("replay-last").addEventListener("click", () => go(entries.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLElement && event.target.matches("input, textarea, select")) return;
    const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: entries.length - 1 }[event.key];
    if (step === undefined || !entries.length) return;
    event.preventDefault();
    go(step);
  });
  load();
})();
