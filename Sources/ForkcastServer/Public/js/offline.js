// Logging without a connection: what is logged while Forkcast cannot be reached waits in an outbox
// (IndexedDB) and goes out through the sync push (the syncPush operation) when the server is back.
// The page shows the sync status, pending entries in the day's list, and changes made on another
// device (the sync event stream). Every rule (amounts, meal types, which day) is the server's: this
// file only carries what the page says and what the server answers.
//
// The outbox is kept per account: every item (and every remembered food name) carries the account
// the page was made for (<meta name="forkcast-account">). A page shows and sends only its own
// account's items, and only after the server confirms it is still signed in as that account; what
// another account queued on this browser stays for that account's next sign-in. Items from before
// the outbox was kept per account have no account: nobody can tell whose they are, so they are never
// sent; every account's pages show how many there are (not what they are) with a Discard button
// that asks first. What the server refuses for good (a photo it cannot take, an entry the rules
// refuse) stays too, with the server's reason and a Discard button, so nothing vanishes unseen.
import { request, announce } from "/js/app.js";
import { apiPath } from "/js/api.js";
import { account, STORE, FOODS, EATEN, PUSH_LIMIT, transact, all, setMeta, FAILURE, SYNCED, waiting, changes, deviceId } from "/js/outbox.js";
import { render, setReachable, isReachable, showPending, refreshDay } from "/js/outbox-status.js";
import "/js/offline-deletes.js";
import "/js/offline-forms.js";

export { rememberFoods, waitingChanges } from "/js/outbox.js";
export { queueEntries, queueChange, queuePhoto } from "/js/outbox-status.js";

const problemDetail = async (response) => {
  try { return (await response.json()).detail || `HTTP ${response.status}`; } catch { return `HTTP ${response.status}`; }
};

/**
 * Uploads the photos of queued entries that have none on the server yet: "sent", "unreachable", or
 * "stopped" (signed out, a stale page: the photo waits for a page that may send it).
 */
async function uploadPhotos(items) {
  for (const item of items) {
    if (!item.photo || item.record.photoId || item.refused) continue;
    const body = new FormData();
    body.append("photo", item.photo.photo, "photo");
    if (item.photo.thumbnail) body.append("thumbnail", item.photo.thumbnail, "thumbnail");
    if (item.photo.capturedAt) body.append("capturedAt", item.photo.capturedAt);
    let response;
    try {
      response = await fetch(apiPath("uploadPhoto"), { method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]')?.content ?? "", "X-Forkcast-Account": account } });
    } catch { return "unreachable"; }
    if (response.status >= 500) return "unreachable";
    if (!response.ok) {
      const detail = await problemDetail(response);
      if ([401, 403, 408, 429].includes(response.status)) {
        // Not the photo's fault (signed out, this page's CSRF token is stale, too many at once):
        // the only copy of the photo stays and goes from a page that may send it.
        await setMeta(FAILURE, `${item.display?.name ?? "A photo"}: ${detail}`);
        return "stopped";
      }
      // Refused for good (not an image, too large): kept with the reason until the person discards it.
      item.refused = { detail, status: response.status };
      await transact(STORE, "readwrite", (s) => s.put(item));
      continue;
    }
    item.record.photoId = (await response.json()).id;
    await transact(STORE, "readwrite", (s) => s.put(item));
  }
  return "sent";
}

/**
 * Sends each kept "We ate this" as its API call: "sent", "unreachable" or "stopped" (as photos).
 * Logged: it leaves the outbox; refused (the plan entry was removed meanwhile): kept with the
 * server's reason until discarded, as a refused entry is.
 */
async function sendEaten(items) {
  let logged = 0;
  for (const item of items) {
    if (item.kind !== EATEN || item.refused) continue;
    let response;
    try {
      response = await request(apiPath("logEatenAssignment", { id: item.id }), { method: "POST" });
    } catch { return "unreachable"; }
    if (response.status >= 500) return "unreachable";
    if ([401, 403, 408, 409, 429].includes(response.status)) {
      await setMeta(FAILURE, `${item.display?.name ?? "We ate this"}: ${await problemDetail(response)}`);
      return "stopped";
    }
    if (response.ok) {
      logged += 1;
      await transact(STORE, "readwrite", (s) => s.delete(item.mutationId));
    } else {
      item.refused = { detail: await problemDetail(response), status: response.status };
      await transact(STORE, "readwrite", (s) => s.put(item));
    }
  }
  if (logged > 0) {
    await setMeta(FAILURE, null);
    await setMeta(SYNCED, new Date().toISOString());
    setReachable(true);
    announce(`“We ate this”, tapped while offline, is logged${logged > 1 ? ` for ${logged} meals` : ""}.`);
  }
  return "sent";
}

/**
 * Whether the server is still signed in as this page's account (another tab may have signed out,
 * or in as someone else): true, false, or null when it cannot be reached.
 */
async function stillThisAccount() {
  try {
    const response = await fetch(apiPath("me"), { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.status >= 500) return null;
    if (!response.ok) return false;
    return String((await response.json()).id ?? "").toLowerCase() === account;
  } catch { return null; }
}

// --- Sending ---

let flushing = false;

/** The first push: whole changes (a plate's group is never split across two pushes), oldest first. */
function firstBatch(items) {
  const batch = [];
  for (const { members } of changes(items)) {
    if (batch.length > 0 && batch.length + members.length > PUSH_LIMIT) break;
    batch.push(...members);
  }
  return batch;
}

/** Sends this account's outbox through the sync push; true when something was saved. */
export async function flush() {
  if (flushing || !account) return false;
  flushing = true;
  try {
    if (waiting(await all(STORE)).length === 0) { await render(); return false; }
    // Never as someone else: the server must still be signed in as the account that queued them.
    const same = await stillThisAccount();
    if (same === null) { await render("unreachable"); return false; }
    if (!same) {
      await setMeta(FAILURE, "this browser is no longer signed in as the account that logged them. They stay on this device and are sent when that account signs in again.");
      await render();
      return false;
    }
    const uploaded = await uploadPhotos(waiting(await all(STORE)));
    if (uploaded !== "sent") { await render(uploaded); return false; }
    const items = waiting(await all(STORE)).filter((i) => i.kind !== EATEN && (!i.photo || i.record.photoId));
    if (items.length === 0) return await flushEaten(false);
    const mutations = firstBatch(items).map(({ mutationId, kind, id, op, updatedAt, record, group }) =>
      ({ mutationId, kind, id, op, updatedAt, record, ...(group ? { group } : {}) }));
    let response;
    try {
      response = await request(apiPath("syncPush"), { method: "POST", body: { deviceId: await deviceId(), sentAt: new Date().toISOString(), mutations } });
    } catch {
      await render("unreachable");
      return false;
    }
    if (!response.ok) {
      // The server is there but refused the whole batch (signed out, or a bad batch): say why, keep it.
      if (response.status >= 500) { await render("unreachable"); return false; }
      await setMeta(FAILURE, await problemDetail(response));
      await render();
      return false;
    }
    const { results } = await response.json();
    const sent = new Map(items.map((i) => [i.mutationId, i]));
    // Saved (or superseded by a newer change) leaves the outbox; refused stays, marked, until discarded.
    // A plate's group comes back all applied or all refused.
    await transact(STORE, "readwrite", (s) => {
      for (const result of results) {
        const item = sent.get(result.mutationId);
        if (!item) continue;
        if (result.status === "rejected") s.put({ ...item, refused: { detail: result.problem?.detail ?? "refused", status: result.problem?.status } });
        else s.delete(result.mutationId);
      }
    });
    await setMeta(FAILURE, null);
    await setMeta(SYNCED, new Date().toISOString());
    setReachable(true);
    await render();
    const saved = results.filter((r) => r.status !== "rejected").length;
    const entries = results.filter((r) => r.status !== "rejected" && sent.get(r.mutationId)?.kind === "diaryEntry").length;
    if (entries > 0) announce(`${entries} entr${entries === 1 ? "y" : "ies"} logged while offline ${entries === 1 ? "is" : "are"} saved.`);
    else if (saved > 0) announce(`${saved} change${saved === 1 ? "" : "s"} made while offline ${saved === 1 ? "is" : "are"} saved.`);
    return await flushEaten(results.length > 0);
  } finally {
    flushing = false;
  }
}

/**
 * "We ate this" goes once everything queued is in: an entry of that meal logged on Today meanwhile
 * is then on the server, whose check logs nobody twice. True when something was saved.
 */
async function flushEaten(saved) {
  const rest = waiting(await all(STORE));
  if (rest.length === 0 || !rest.every((i) => i.kind === EATEN)) { await render(); return saved; }
  const told = await sendEaten(rest);
  await render(told === "sent" ? undefined : told);
  return saved || (told === "sent" && waiting(await all(STORE)).length < rest.length);
}

// --- Start ---

if (document.querySelector('meta[name="csrf-token"]') && "indexedDB" in window && account) {
  // Food names remembered before they were kept per account cannot be told apart: they go (a cache only).
  transact(FOODS, "readwrite", (s) => {
    const read = s.getAll();
    read.onsuccess = () => { for (const food of read.result) if (!food.account) s.delete(food.key); };
  }).catch(() => {});
  render();
  showPending();
  flush().then((sent) => { if (sent) refreshDay(); });
  // Whether Forkcast answers now (nothing may be waiting to tell): a probe the worker leaves alone.
  const probe = () => fetch("/healthz", { cache: "no-store", credentials: "omit" })
    .then(() => setReachable(true)).catch(() => setReachable(false));
  probe();
  window.addEventListener("offline", () => setReachable(false));
  window.addEventListener("online", () => { probe(); flush().then((sent) => { if (sent) refreshDay(); }); });
  setInterval(() => { if (!isReachable()) probe(); }, 15000);
  setInterval(async () => {
    if (waiting(await all(STORE).catch(() => [])).length > 0 && (await flush())) refreshDay();
  }, 5000);

  // Changes from another device appear without a reload.
  if ((document.getElementById("meal-groups") || document.getElementById("week") || document.querySelector("[data-live]")) && "EventSource" in window) {
    // From where the page's contents were read: a change made before the stream opened is sent at once.
    const cursor = document.querySelector('meta[name="forkcast-cursor"]')?.content;
    const events = new EventSource(apiPath("syncEvents") + (cursor ? `?lastEventId=${encodeURIComponent(cursor)}` : ""));
    events.addEventListener("changes", () => refreshDay());
    events.addEventListener("error", () => { if (events.readyState !== EventSource.OPEN) probe(); });
    events.addEventListener("open", async () => {
      setReachable(true);
      if (waiting(await all(STORE).catch(() => [])).length > 0 && (await flush())) refreshDay();
    });
  }
}

// The service worker keeps the app shell and the pages last seen, so Forkcast opens offline.
if ("serviceWorker" in navigator && document.querySelector('meta[name="csrf-token"]')) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* works without */ });
}
