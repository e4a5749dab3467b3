// Warboard's service worker, served from /sw.js (scope "/") by frontend/pwa.py, which puts
// `self.WARBOARD = {version, shell, icon}` before this file: the shell's URLs as the page loads
// them (hashed names when deployed) and a version that changes with any of them.
//
// - The shell (CSS, JS modules, icons) is cached at install, served from the cache first.
// - A game's page and its view (GET /api/games/<id>: the signed-in viewer's own view, which
//   never holds another player's cards) are fetched from the network first; the last answer of
//   each game is kept, and served when the network fails, with the header X-Warboard-Offline
//   and a message to the page (pwa.js then says it is offline and turns the actions off).
// - The kept views are the viewer's: the page tells the worker who is signed in, and a change
//   of person (or a sign-out) deletes them.
// - A push shows a notification (title, one line, the URL to open); a click opens that URL.
"use strict";

const CONFIG = self.WARBOARD;
const SHELL = `warboard-shell-${CONFIG.version}`;
const GAMES = "warboard-games";
const VIEWER_KEY = "/__warboard_viewer__";
const GAME_PAGE = /^\/games\/\d+$/;
const GAME_VIEW = /^\/api\/games\/\d+$/;
const PUBLIC_DATA = /^\/(board\/[\w-]+(\/\d+)?\.json|api\/protocol)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(CONFIG.shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("warboard-shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

const tellPage = async (clientId, message) => {
  const client = clientId ? await self.clients.get(clientId) : null;
  if (client) client.postMessage(message);
};

// The network's answer (kept when it is a 200), else the kept one marked as offline.
const networkFirst = async (event, cacheName) => {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(event.request);
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(event.request);
    if (!kept) throw error;
    tellPage(event.clientId || event.resultingClientId, { type: "warboard:offline", url: event.request.url });
    const headers = new Headers(kept.headers);
    headers.set("X-Warboard-Offline", "1");
    return new Response(await kept.blob(), { status: kept.status, statusText: kept.statusText, headers });
  }
};

const cacheFirst = async (request) => {
  const kept = await caches.match(request);
  return kept || fetch(request);
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (GAME_PAGE.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(networkFirst(event, GAMES));
  } else if (GAME_VIEW.test(url.pathname)) {
    event.respondWith(networkFirst(event, GAMES));
  } else if (PUBLIC_DATA.test(url.pathname)) {
    event.respondWith(networkFirst(event, SHELL));
  } else if (CONFIG.shell.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});

// {type: "warboard:viewer", username}: who the pages are signed in as (null: nobody). The kept
// games belong to one person: another one (or nobody) deletes them. {type: "warboard:clear"}:
// signing out deletes them at once.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "warboard:clear") {
    event.waitUntil(caches.delete(GAMES));
  } else if (data.type === "warboard:viewer") {
    event.waitUntil((async () => {
      const cache = await caches.open(GAMES);
      const kept = await cache.match(VIEWER_KEY);
      const before = kept ? await kept.text() : null;
      const now = data.username || "";
      if (before !== now) {
        await caches.delete(GAMES);
        if (now) await (await caches.open(GAMES)).put(VIEWER_KEY, new Response(now));
      }
    })());
  }
});

self.addEventListener("push", (event) => {
  let data;
  try { data = event.data ? event.data.json() : {}; } catch { data = { text: event.data.text() }; }
  const title = data.title || "Warboard";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.text || "",
    tag: data.tag || undefined,
    icon: CONFIG.icon,
    badge: CONFIG.icon,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // The site's own page of that path: a notice's URL is SITE_URL's, which may name this site
  // by another host name; never another site.
  const given = new URL(event.notification.data?.url || "/", self.location.origin);
  const target = new URL(given.pathname + given.search, self.location.origin);
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url === target.href && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target.href);
  })());
});
