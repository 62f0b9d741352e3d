// Forkcast's service worker: the app shell (styles, scripts, icons) and the pages last seen are
// kept, so the app opens without a connection. Pages come from the network first (always fresh
// when the server is there); the cache only answers when it cannot be reached.
//
// Kept pages belong to one account. Every signed-in page names its account
// (<meta name="forkcast-account">); the worker keeps pages only for the account the last page from
// the server was for (the "current" account, remembered in its own cache so it survives the
// worker's restarts), in a cache named after it, and answers offline only from that cache. A page
// for another account, the sign-in or setup page, or a sign-in or sign-out being sent forgets every
// other account's pages first, so nobody is ever shown a page kept while someone else was signed in.
// The API's operations ({method, path}) by operationId: the server writes them in when it serves
// this file as /sw.js.
const API = /* operations */ {};
const SHELL = "forkcast-shell-v10";
const PAGES = "forkcast-account-pages-"; // + the account's id
const STATE = "forkcast-state";
const CURRENT = "/__forkcast/account"; // in STATE: the current account's id ("" for nobody)
// The stylesheets, in the pages' order: the server writes them in from the pages' own list.
const STYLESHEETS = /* stylesheets */ [];
const SHELL_FILES = [
  ...STYLESHEETS, "/js/app.js", "/js/api.js", "/js/offline.js", "/js/outbox.js", "/js/outbox-status.js", "/js/offline-deletes.js", "/js/offline-forms.js", "/js/plate.js", "/js/planner.js", "/js/meal-form.js", "/js/meals.js", "/js/foods.js",
  "/js/food-form.js", "/js/capture.js", "/js/food-picker.js", "/js/food-create.js", "/js/entry.js", "/js/shopping.js", "/js/cook.js", "/js/page.js", "/manifest.webmanifest", "/icons/icon.svg", "/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

// Caches of earlier versions go, among them pages kept before they were kept per account.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL && k !== STATE && !k.startsWith(PAGES)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const offlinePage = () => new Response(
  "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
  "<title>Offline · Forkcast</title>" + STYLESHEETS.map((href) => `<link rel="stylesheet" href="${href}">`).join("") + "</head><body><main id=\"main\">" +
  "<section class=\"card narrow\"><h1>Forkcast cannot be reached</h1><p>This page has not been opened on this device before, " +
  "so there is no copy of it. Open Today once while connected and it will be here next time.</p>" +
  "<p><a class=\"button\" href=\"/diary\">Today</a></p></section></main></body></html>",
  { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
);

// --- Whose pages are kept ---

// Changes to the kept pages run one after the other; `changes` counts account changes, so an answer
// that was on its way while the account changed is not kept (it may be the other account's).
let work = Promise.resolve();
let changes = 0;
const serially = (step) => (work = work.then(step).catch(() => { /* the next change starts afresh */ }));

async function currentAccount() {
  const kept = await (await caches.open(STATE)).match(CURRENT);
  return kept ? kept.text() : "";
}

/** Makes `account` ("" for nobody) the current one and forgets every other account's pages. */
async function becomeCurrent(account) {
  changes += 1;
  await (await caches.open(STATE)).put(CURRENT, new Response(account));
  const keys = await caches.keys();
  await Promise.all(keys.filter((k) => k.startsWith(PAGES) && k !== PAGES + account).map((k) => caches.delete(k)));
}

const forgetPages = () => serially(() => becomeCurrent(""));

/** The account a page from the server names, or "" (signed-out and error pages name none). */
const accountOf = (html) => /<meta name="forkcast-account" content="([0-9a-f-]{36})">/.exec(html)?.[1] ?? "";

async function page(request) {
  const url = new URL(request.url);
  await work;
  const before = changes;
  let response;
  try {
    response = await fetch(request);
  } catch {
    // Offline: only the current account's pages answer.
    await work;
    const account = await currentAccount();
    if (!account) return offlinePage();
    const cache = await caches.open(PAGES + account);
    // Today and the Planner (no day asked for) open on today, from any kept copy that shows it.
    const undated = (url.pathname === "/" || url.pathname === "/diary" || url.pathname === "/plan") && url.search === "";
    if (undated) {
      const showing = await copyShowingToday(cache, url.pathname === "/" ? "/diary" : url.pathname);
      if (showing) return savedCopy(showing, false);
    }
    // The address as it was seen; only the plate stands in for itself with another query (the same
    // form for another meal type). A day not seen is not shown as another day.
    const exact = (await cache.match(url.href)) ?? (url.pathname === "/" ? await cache.match(url.origin + "/diary") : undefined);
    if (exact) return savedCopy(exact, false);
    const similar = url.pathname === "/diary/add" ? await cache.match(url.origin + url.pathname) : undefined;
    return similar ? savedCopy(similar, true) : offlinePage();
  }
  const path = new URL(response.url || url.href).pathname;
  if (path === "/login" || path === "/setup") {
    await forgetPages(); // signed out: nobody's pages stay
    return response;
  }
  if (!response.ok || response.redirected || !(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return response;
  const copy = response.clone();
  const account = accountOf(await response.clone().text());
  if (!account) return response;
  await serially(async () => {
    if (changes !== before) return; // someone signed in or out meanwhile: not kept
    if (account !== (await currentAccount())) await becomeCurrent(account);
    // The address answers later; the plate also for itself with another query. A day or week
    // asked for by date is not kept as Today's or the Planner's own page.
    const cache = await caches.open(PAGES + account);
    const kept = await stamped(copy);
    await cache.put(url.href, kept.clone());
    if (url.pathname === "/diary/add") await cache.put(url.origin + url.pathname, kept);
  });
  return response;
}

/** A page to keep, with when it was kept (the notice on its saved copy says so). */
async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set("X-Forkcast-Saved-At", new Date().toISOString());
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

/** The device's today, as the pages' days are written (YYYY-MM-DD, local time). */
function todayISO() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The days a kept page shows ({from, to, name}, its <meta name="forkcast-days">), or null. */
function daysOf(html) {
  const m = /<meta name="forkcast-days" content="(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})" data-name="([^"]*)">/.exec(html);
  return m ? { from: m[1], to: m[2], name: m[3] } : null;
}

/** The newest kept copy of `path` (any query) that shows today, or undefined. */
async function copyShowingToday(cache, path) {
  const today = todayISO();
  let best;
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname !== path) continue;
    const response = await cache.match(request);
    const days = daysOf(await response.clone().text());
    if (!days || days.from > today || days.to < today) continue;
    const at = response.headers.get("X-Forkcast-Saved-At") ?? "";
    if (!best || at > best.at) best = { response, at };
  }
  return best?.response;
}

/** A kept page answered offline, saying so at its top: a saved copy, from when, and of which day
 * when that is not today. */
async function savedCopy(response, similar) {
  const savedAt = response.headers.get("X-Forkcast-Saved-At");
  const when = savedAt ? new Date(savedAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "earlier";
  const body = await response.text();
  const days = daysOf(body), today = todayISO();
  const other = days && (days.from > today || days.to < today) ? ` It shows ${days.name}, not today: today's page has not been kept on this device.` : "";
  const text = similar
    ? `Offline: Forkcast cannot be reached. This is the form as saved on this device (${when}); what you log is kept here and sent when it is back.`
    : `Offline: Forkcast cannot be reached. This is the copy saved on this device on ${when}; it may be out of date.${other}`;
  // Layout.noticesMarker: where the page takes a notice about all of it, first in its main.
  const html = body.replace("<!--forkcast:notices-->",
    `<p class="saved-copy" id="saved-copy" data-saved-copy role="status">${text}</p>`);
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

async function shell(request) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  }).catch(() => cached ?? Response.error());
  return cached ?? fresh;
}

/**
 * Food searches are kept too, so the plate's suggestions work offline for what was seen. The page
 * says whose search it is (`X-Forkcast-Account`, sent by app.js); it is kept and answered only for
 * the current account.
 */
async function apiRead(request) {
  const asked = request.headers.get("X-Forkcast-Account") ?? "";
  await work;
  const before = changes;
  try {
    const response = await fetch(request);
    if (response.ok && asked) {
      const copy = response.clone();
      serially(async () => {
        if (changes === before && asked === (await currentAccount())) await (await caches.open(PAGES + asked)).put(request, copy);
      });
    }
    return response;
  } catch {
    await work;
    if (!asked || asked !== (await currentAccount())) return Response.error();
    return (await (await caches.open(PAGES + asked)).match(request)) ?? Response.error();
  }
}

/**
 * A recipe's photo, kept with the current account's pages once it was seen, so a recipe opened
 * before reads whole offline. Fresh from the server when it is there.
 */
async function mealPhoto(request) {
  await work;
  const before = changes;
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      serially(async () => {
        const account = await currentAccount();
        if (changes === before && account) await (await caches.open(PAGES + account)).put(request.url, copy);
      });
    }
    return response;
  } catch {
    await work;
    const account = await currentAccount();
    return (account && (await (await caches.open(PAGES + account)).match(request.url))) || Response.error();
  }
}

const pattern = (path) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
const MEAL_PHOTO = API.getMealPhoto ? pattern(API.getMealPhoto.path) : null;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Signing in or out (a form sent from a page): the kept pages go before the answer's page is
    // asked for, whoever it turns out to be for. The form itself goes to the server as usual.
    if (request.mode === "navigate" && ["/login", "/logout", "/setup"].includes(url.pathname)) event.waitUntil(forgetPages());
    return;
  }
  if (request.mode === "navigate") { event.respondWith(page(request)); return; }
  if (/^\/(css|js|icons)\//.test(url.pathname) || url.pathname === "/manifest.webmanifest") { event.respondWith(shell(request)); return; }
  if (url.pathname === API.listFoods.path) { event.respondWith(apiRead(request)); return; }
  if (MEAL_PHOTO?.test(url.pathname)) { event.respondWith(mealPhoto(request)); return; }
});
