// /rooms: the list of rooms and the form that creates one (through /api/rooms).
import { api, el, errorText, setText } from "./common.js";

async function load() {
  const res = await api("GET", "/api/rooms");
  if (!res.ok) {
    setText("rooms-status", errorText(res.data, res.status));
    return;
  }
  const rows = res.data.rooms.map((room) => el("tr", {},
    el("td", {}, el("a", { href: `/rooms/${room.id}` }, room.name || `Room ${room.id}`)),
    el("td", {}, [room.system, room.rules].filter(Boolean).join(" ")),
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
  if (system === "axis_allies") body.rules = form.rules.value;
  const res = await api("POST", "/api/rooms", body);
  if (res.ok) location.href = `/rooms/${res.data.id}`;
  else setText("room-form-status", errorText(res.data, res.status));
});

document.addEventListener("DOMContentLoaded", load);
