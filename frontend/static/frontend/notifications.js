// /settings, "Notifications": the channel of each kind of notice (GET/PATCH
// /api/notifications/settings) and push in this browser. The browser asks for the permission to
// notify only when "Turn on push" is pressed, never on load; the subscription it makes goes to
// POST /api/notifications/devices, and "Turn off" removes it there (POST devices/unsubscribe) and in the browser.
import { api, el, errorText, setText } from "./common.js";

const CHANNELS = ["", "push", "email", "none"];
const section = document.getElementById("notify-section");
const form = document.getElementById("notify-form");
const onButton = document.getElementById("push-on");
const offButton = document.getElementById("push-off");
let saved = null;

const NAMES = { "": "Default", push: "Push", email: "Email", none: "None" };

// One row per kind: what it is, and a choice of channel (the default says what it gives now).
function fill(settings) {
  saved = settings;
  const rows = settings.kinds.map((row) => {
    const id = `notify-${row.kind}`;
    const options = CHANNELS.map((choice) => el("option", { value: choice, selected: choice === row.choice },
      choice || row.choice ? NAMES[choice] : `Default (${row.channel})`));
    // A choice that cannot be honoured now (push chosen, no browser of theirs has it on) says so.
    const lacking = row.choice === "push" ? "no browser has push on" : "no email address";
    const now = row.choice && row.choice !== row.channel ? el("span", { className: "muted" }, ` (now ${row.channel}: ${lacking})`) : null;
    return el("tr", {},
      el("th", { scope: "row" }, el("label", { htmlFor: id }, row.label)),
      el("td", {}, el("select", { id, name: row.kind }, ...options), now));
  });
  document.getElementById("notify-rows").replaceChildren(...rows);
}

function urlKey(base64) {
  const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  return navigator.serviceWorker.getRegistration("/");
}

async function showPush() {
  const reg = await registration();
  if (!reg || !reg.pushManager) {
    setText("push-status", "This browser cannot receive push notifications (or the page is not on https).");
    onButton.hidden = offButton.hidden = true;
    return;
  }
  const subscription = await reg.pushManager.getSubscription();
  const devices = saved ? saved.devices : 0;
  setText("push-status", subscription
    ? `Push is on in this browser (${devices} browser${devices === 1 ? "" : "s"} of yours in all).`
    : `Push is off in this browser (${devices} browser${devices === 1 ? "" : "s"} of yours have it on).`);
  onButton.hidden = Boolean(subscription);
  offButton.hidden = !subscription;
}

async function load() {
  const res = await api("GET", "/api/notifications/settings");
  if (!res.ok) return; // settings.js says to sign in
  fill(res.data);
  section.hidden = false;
  await showPush();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {};
  for (const row of saved.kinds) {
    const picked = document.getElementById(`notify-${row.kind}`).value;
    if (picked !== row.choice) body[row.kind] = picked;
  }
  if (Object.keys(body).length === 0) { setText("notify-result", "Nothing changed.", ""); return; }
  const res = await api("PATCH", "/api/notifications/settings", body);
  if (res.ok) { fill(res.data); setText("notify-result", "Saved.", "good"); }
  else setText("notify-result", errorText(res.data, res.status), "bad");
});

onButton.addEventListener("click", async () => {
  const reg = await registration();
  if (!reg) return;
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    setText("push-status", "Notifications are blocked for this site: allow them in the browser's site settings.", "bad");
    return;
  }
  try {
    const subscription = await reg.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: urlKey(saved.vapid_public_key),
    });
    const res = await api("POST", "/api/notifications/devices", subscription.toJSON());
    if (!res.ok) {
      await subscription.unsubscribe();
      setText("push-status", errorText(res.data, res.status), "bad");
      return;
    }
    fill(res.data);
  } catch (err) {
    setText("push-status", `Push could not be turned on: ${err.message || err}`, "bad");
    return;
  }
  await showPush();
});

offButton.addEventListener("click", async () => {
  const reg = await registration();
  const subscription = await reg?.pushManager.getSubscription();
  if (subscription) {
    const res = await api("POST", "/api/notifications/devices/unsubscribe", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
    if (res.ok) fill(res.data);
  }
  await showPush();
});

load();
