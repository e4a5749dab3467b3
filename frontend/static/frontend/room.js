// /rooms/<id>: the room's facts, its journal and the form that posts to it (/api/rooms/<id>).
import { api, el, errorText, setText } from "./common.js";

const roomId = document.body.dataset.roomId;
// A private room is read and joined with its invite token: /rooms/<id>?invite=<token>.
const invite = new URLSearchParams(location.search).get("invite") || "";
const inviteQuery = invite ? `invite=${encodeURIComponent(invite)}` : "";
let last = 0;

function fact(term, value) {
  return [el("dt", {}, term), el("dd", {}, value === null || value === undefined ? "—" : String(value))];
}

async function loadRoom() {
  const res = await api("GET", `/api/rooms/${roomId}${inviteQuery ? `?${inviteQuery}` : ""}`);
  if (!res.ok) {
    setText("room-status", res.status === 404 ? "No such room." : errorText(res.data, res.status));
    return false;
  }
  const room = res.data;
  setText("room-title", room.name);
  setText("room-status", room.status === "running" ? `Turn ${room.turn}: ${room.to_move} to move` : room.status);
  document.getElementById("room-facts").replaceChildren(
    // an A&A room by its edition's name (the edition data's, not its key) and its rules
    ...fact("System", room.edition ? `${room.edition_name || room.edition}, ${room.rules} rules` : room.system),
    ...fact("Referee", room.referee),
    ...fact("Sides", room.sides.map((s) => `${s.name}: ${s.player || "free"}`).join("; ")),
    ...fact("Due", room.due_at),
    ...fact("Seed commitment (SHA-256)", room.seed_commitment),
    ...fact("Server seed", room.server_seed || "revealed when the room ends"),
    ...fact("Result", room.result ? `${room.result.winners.join(", ") || "draw"} ${room.result.text}` : null),
    ...fact("You", room.you || (room.referee_is_you ? "the referee" : "watching")),
    // a participant of a private room shares this link to let the other players in
    ...(room.public || !room.invite_token ? []
      : fact("Invite link", `${location.origin}/rooms/${roomId}?invite=${room.invite_token}`)),
  );
  showFreeSides(room);
  return true;
}

// An open room: a button per free side (the API says why when it refuses: not signed in, a
// side taken already...). The room starts when the last side is taken.
function showFreeSides(room) {
  const free = room.status === "open" ? room.sides.filter((s) => !s.player) : [];
  document.getElementById("join-sides").replaceChildren(...free.map((side) => {
    const button = el("button", { type: "button" }, `Join as ${side.name}`);
    button.addEventListener("click", async () => {
      const res = await api("POST", `/api/rooms/${roomId}/join`, invite ? { side: side.name, invite } : { side: side.name });
      setText("join-status", res.ok ? `You play ${side.name}.` : errorText(res.data, res.status));
      if (res.ok) { await loadRoom(); await loadJournal(); }
    });
    return el("li", {}, button);
  }));
}

// One journal read at a time: a read started by a post or a join while the page's first read
// was still under way asked for the same entries and showed them twice.
let reading = Promise.resolve();
function loadJournal() {
  reading = reading.then(readJournal, readJournal);
  return reading;
}

async function readJournal() {
  for (;;) {
    const res = await api("GET", `/api/rooms/${roomId}/journal?after=${last}${inviteQuery ? `&${inviteQuery}` : ""}`);
    if (!res.ok) return;
    const list = document.getElementById("journal");
    for (const entry of res.data.entries) {
      if (entry.number <= last) continue; // shown already
      const rolls = (entry.data.rolls || []).map((r) => `#${r.number}: ${r.value}`).join(" ");
      list.append(el("li", { value: entry.number },
        el("span", { className: "muted" }, `${entry.at} ${entry.side} ${entry.kind}: `),
        entry.text,
        rolls ? el("div", { className: "rolls" }, `rolls ${rolls}`) : null));
    }
    last = Math.max(last, res.data.last);
    if (!res.data.more) return;
  }
}

document.getElementById("post-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const kind = form.kind.value;
  const body = { kind };
  const text = form.text.value.trim();
  if (kind === "battle") body.notation = text;
  else body.text = text;
  if (["challenge", "ruling", "accept_ruling", "reject_ruling"].includes(kind)) body.entry = Number(form.entry.value);
  if (kind === "ruling") body.decision = form.decision.value;
  if (kind.endsWith("_result")) body.winners = form.winners.value.split(",").map((s) => s.trim()).filter(Boolean);
  if (kind === "vacation") { delete body.text; body.days = Number(form.days.value); }
  const res = await api("POST", `/api/rooms/${roomId}/entries`, body);
  if (!res.ok) {
    setText("post-status", errorText(res.data, res.status));
    return;
  }
  setText("post-status", `Posted #${res.data.entries.map((e) => e.number).join(", #")}`);
  form.text.value = "";
  await loadRoom();
  await loadJournal();
});

document.addEventListener("DOMContentLoaded", async () => {
  if (await loadRoom()) await loadJournal();
});
