// /rooms: the list of rooms and the form that creates one (through /api/rooms).
import { api, el, errorText, setText } from "./common.js";

// A value as the create form's <select> names it ("axis_allies": "Axis & Allies"); the value
// itself when the form has no such option (rules the form does not offer, e.g. chess-cof).
function optionText(id, value) {
  const option = [...(document.getElementById(id)?.options || [])].find((node) => node.value === value);
  return option ? option.textContent : value;
}

// The room's game in words: an A&A room by its edition's name (from the edition data, never
// its key) and rules, another by its system's name.
function gameText(room) {
  if (!room.edition) return optionText("room-system", room.system);
  return [room.edition_name || room.edition, optionText("room-rules", room.rules)].filter(Boolean).join(", ");
}

async function load() {
  const res = await api("GET", "/api/rooms");
  if (!res.ok) {
    setText("rooms-status", errorText(res.data, res.status));
    return;
  }
  const rows = res.data.rooms.map((room) => el("tr", {},
    el("td", {}, el("a", { href: `/rooms/${room.id}` }, room.name || `Room ${room.id}`)),
    el("td", {}, gameText(room)),
    el("td", {}, room.status + (room.to_move ? ` (${room.to_move} to move)` : "")),
    el("td", {}, room.sides.map((s) => `${s.name}: ${s.player || "free"}`).join(", ")),
    el("td", {}, room.referee)));
  document.getElementById("rooms-body").replaceChildren(...rows);
  setText("rooms-status", rows.length ? `${rows.length} rooms` : "No rooms yet.");
}

document.getElementById("room-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const system = form.system.value;
  const sides = form.sides.value.split("\n").map((s) => s.trim()).filter(Boolean);
  const body = {
    name: form.name.value,
    system,
    sides,
    side: form.side.value.trim(),
    referee: form.referee.value.trim(),
    // Only a room of 2 sides can be rated; the server refuses a rated room whose referee plays.
    rated: form.rated.checked && sides.length === 2,
    public: form.public.checked,
    days_per_turn: form.days_per_turn.value ? Number(form.days_per_turn.value) : null,
  };
  if (system === "axis_allies") {
    body.rules = form.rules.value;
    body.edition = form.edition.value;
  }
  const res = await api("POST", "/api/rooms", body);
  if (res.ok) location.href = `/rooms/${res.data.id}`;
  else setText("room-form-status", errorText(res.data, res.status));
});

document.addEventListener("DOMContentLoaded", load);
