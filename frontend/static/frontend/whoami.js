// The header's "Signed in as ..." slot (#whoami), on every page (base.html loads it).
import { api, el, loginHref, me } from "./common.js";
import { signingOut } from "./pwa.js";

async function showWhoami() {
  const slot = document.getElementById("whoami");
  if (!slot) return;
  const profile = await me();
  slot.replaceChildren();
  if (profile === null) {
    if (location.pathname !== "/login") slot.append(el("a", { href: loginHref() }, "Sign in"));
    return;
  }
  const out = el("button", { type: "button", className: "link" }, "Sign out");
  out.addEventListener("click", async () => {
    await signingOut(); // this browser's push subscription and kept games go first
    await api("POST", "/api/auth/logout");
    location.reload();
  });
  slot.append(`Signed in as ${profile.display_name || profile.username} `, out);
}

showWhoami();
