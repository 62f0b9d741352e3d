// Forkcast's service worker: the app shell (styles, scripts, icons) and the pages last seen are
// kept, so the app opens without a connection. Pages come from the network first (always fresh
// when the server is there); the cache only answers when it cannot be reached. Signing out (the
// sign-in page) empties the page cache so nobody else sees them on this device.
const SHELL = "forkcast-shell-v2";
const PAGES = "forkcast-pages-v1";
const SHELL_FILES = [
  "/css/app.css", "/js/app.js", "/js/offline.js", "/js/plate.js", "/js/planner.js", "/js/meal-form.js", "/js/foods.js",
  "/js/food-form.js", "/js/capture.js", "/js/food-picker.js", "/js/entry.js", "/manifest.webmanifest", "/icons/icon.svg", "/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL && k !== PAGES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const offlinePage = () => new Response(
  "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
  "<title>Offline · Forkcast</title><link rel=\"stylesheet\" href=\"/css/app.css\"></head><body><main id=\"main\">" +
  "<section class=\"card narrow\"><h1>Forkcast cannot be reached</h1><p>This page has not been opened on this device before, " +
  "so there is no copy of it. Open Today once while connected and it will be here next time.</p>" +
  "<p><a class=\"button\" href=\"/diary\">Today</a></p></section></main></body></html>",
  { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
);

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    const cache = await caches.open(PAGES);
    const path = new URL(response.url).pathname;
    if (path === "/login" || path === "/setup") {
      await caches.delete(PAGES);
    } else if (response.ok && !response.redirected && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
      // The address and the page without its query both answer later (the day, the plate).
      await cache.put(url.href, response.clone());
      await cache.put(url.origin + url.pathname, response.clone());
    }
    return response;
  } catch {
    const cache = await caches.open(PAGES);
    const hit = (await cache.match(url.href)) ?? (await cache.match(url.origin + url.pathname))
      ?? (url.pathname === "/" ? await cache.match(url.origin + "/diary") : undefined);
    return hit ?? offlinePage();
  }
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

/** Food searches are kept too, so the plate's suggestions work offline for what was seen. */
async function apiRead(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch {
    return (await cache.match(request)) ?? Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") { event.respondWith(page(request)); return; }
  if (/^\/(css|js|icons)\//.test(url.pathname) || url.pathname === "/manifest.webmanifest") { event.respondWith(shell(request)); return; }
  if (url.pathname === "/api/v1/foods") { event.respondWith(apiRead(request)); return; }
});
