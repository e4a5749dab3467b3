// /settings: the signed-in player's profile (GET /api/auth/me), changed with PATCH.
// Only the fields that changed are sent; a refusal names its field (the one error shape).
import { api, el, errorText, loginHref, setText } from "./common.js";

const form = document.getElementById("settings-form");
const TEXT = { display_name: "settings-display", email: "settings-email" };
const FLAGS = {
  email_your_turn: "settings-your-turn",
  email_reminder: "settings-reminder",
  email_game_over: "settings-game-over",
};
let saved = null;

function fill(profile) {
  saved = profile;
  for (const [key, id] of Object.entries(TEXT)) document.getElementById(id).value = profile[key] || "";
  for (const [key, id] of Object.entries(FLAGS)) document.getElementById(id).checked = Boolean(profile[key]);
}

function changes() {
  const body = {};
  for (const [key, id] of Object.entries(TEXT)) {
    const value = document.getElementById(id).value.trim();
    if (value !== (saved[key] || "")) body[key] = value;
  }
  for (const [key, id] of Object.entries(FLAGS)) {
    const value = document.getElementById(id).checked;
    if (value !== Boolean(saved[key])) body[key] = value;
  }
  return body;
}

async function load() {
  const res = await api("GET", "/api/auth/me");
  if (!res.ok) {
    const status = document.getElementById("settings-status");
    status.textContent = "Sign in to change your settings: ";
    status.append(el("a", { href: loginHref() }, "sign in"));
    return;
  }
  fill(res.data);
  setText("settings-status", `Signed in as ${res.data.username}.`);
  form.hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = changes();
  if (Object.keys(body).length === 0) {
    setText("settings-result", "Nothing changed.", "");
    return;
  }
  const res = await api("PATCH", "/api/auth/me", body);
  if (res.ok) {
    fill(res.data);
    setText("settings-result", "Saved.", "good");
  } else {
    setText("settings-result", errorText(res.data, res.status), "bad");
  }
});

load();
