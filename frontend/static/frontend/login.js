// /login: sign in or register over the JSON API (session + CSRF token), then go back to ?next=.
import { api, csrfToken, errorText, me, setText } from "./common.js";

// Only a path on this site: never an open redirect to another origin.
function nextUrl() {
  const next = new URLSearchParams(location.search).get("next") || "";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/games";
}

me().then((profile) => {
  if (profile) setText("login-status", `You are signed in as ${profile.username}; signing in again switches accounts.`);
});

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

async function submit(form, url, resultId, body) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  setText(resultId, "");
  await csrfToken(true); // fresh token: a sign-in elsewhere may have rotated it
  const res = await api("POST", url, body);
  button.disabled = false;
  if (res.ok) {
    setText("login-status", "Signed in; taking you back…");
    location.assign(nextUrl());
    return;
  }
  setText(resultId, res.status === 429 ? `Too many attempts: ${errorText(res.data, res.status)}` : errorText(res.data, res.status));
}

document.getElementById("login-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const { username, password } = fields(event.target);
  submit(event.target, "/api/auth/login", "login-result", { username, password });
});

document.getElementById("register-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const f = fields(event.target);
  submit(event.target, "/api/auth/register", "register-result", {
    username: f.username, password: f.password, email: f.email || "", display_name: f.display_name || "",
  });
});
