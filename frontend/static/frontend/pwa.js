// The installable app's page side, on every page (base.html): registers the service worker
// (/sw.js, scope "/"), tells it who is signed in (the games it keeps offline are that person's
// own views: another person, or nobody, deletes them), and says so when a page shows what the
// worker kept because the network failed: a banner, and the page's controls turned off (a game
// seen offline is read-only). signingOut() is what the header's "Sign out" runs first.
import { api, el } from "./common.js";

const GAMES_CACHE = "warboard-games";
// Controls that only change what is shown stay on offline (the board's zoom).
const STILL_ON_OFFLINE = "#zoom-in, #zoom-out, #zoom-reset, #notice-close";
let offline = false;
let watcher = null;

function disableControls() {
  const main = document.getElementById("main");
  if (!main) return;
  for (const control of main.querySelectorAll("button, input, select, textarea")) {
    if (control.matches(STILL_ON_OFFLINE) || control.disabled) continue;
    control.disabled = true;
    control.dataset.offlineOff = "1";
  }
}

function enableControls() {
  for (const control of document.querySelectorAll("[data-offline-off]")) {
    control.disabled = false;
    delete control.dataset.offlineOff;
  }
}

// Offline (the worker served a kept copy, or the browser lost the network): the banner, and
// every control off, including those the page draws later; back online, the page reloads
// itself (its socket and forms start afresh).
export function showOffline(isOffline) {
  if (isOffline === offline) return;
  offline = isOffline;
  document.documentElement.classList.toggle("offline", offline);
  let banner = document.getElementById("offline-banner");
  if (offline) {
    if (!banner) {
      banner = el("p", { id: "offline-banner", className: "offline-banner", role: "status" },
        "Offline: this is the last board this browser saw, read-only. Actions come back with the connection.");
      document.getElementById("main")?.prepend(banner);
    }
    disableControls();
    watcher = new MutationObserver(disableControls);
    watcher.observe(document.getElementById("main") || document.body,
      { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
  } else {
    watcher?.disconnect();
    watcher = null;
    banner?.remove();
    enableControls();
  }
}

// Before signing out: this browser's push subscription goes (a shared device must not show the
// next person someone else's notices) and the kept games are deleted.
export async function signingOut() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration("/");
    const subscription = await registration?.pushManager?.getSubscription();
    if (subscription) {
      await api("POST", "/api/notifications/devices/unsubscribe", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    registration?.active?.postMessage({ type: "warboard:clear" });
  } catch { /* no worker, no push: nothing kept */ }
  if ("caches" in window) await caches.delete(GAMES_CACHE);
}

async function start() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.type === "warboard:offline") showOffline(true);
  });
  window.addEventListener("offline", () => showOffline(true));
  window.addEventListener("online", () => { if (offline) location.reload(); });
  if (navigator.onLine === false) showOffline(true);
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    // Who is signed in is known only online: a failed request says nothing about it.
    const res = offline ? null : await api("GET", "/api/auth/me");
    if (!res || res.status === 0 || (!res.ok && res.status !== 401 && res.status !== 403)) return;
    (registration.active || navigator.serviceWorker.controller)?.postMessage({
      type: "warboard:viewer", username: res.ok ? res.data.username : null,
    });
  } catch { /* a browser without a worker (private mode): the site works without it */ }
}

start();
