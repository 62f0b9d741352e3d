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
import { request, announce, showError, clearError, swapFragment, pageAccount, failureMessage } from "/js/app.js";
import { apiPath } from "/js/api.js";

const DB_NAME = "forkcast";
const STORE = "outbox";
const META = "meta";
const FOODS = "foods";
/** The server's limits and windows, as the page states them (ForkcastCore decides them; the page
 *  only says so early): items on one plate (one group of a push), mutations in one push; seconds a
 *  deletion stays under Undo, a deletion left with its page is kept, and sign-out waits for them. */
const PLATE_LIMIT = Number(document.body.dataset.plateLimit) || Infinity;
const PUSH_LIMIT = Number(document.body.dataset.pushLimit) || 100;
// A page saved (for offline) before the page stated its windows still has Undo and keeps what was left.
const UNDO_SECONDS = Number(document.body.dataset.undoSeconds) || 6;
const LEFT_DELETE_SECONDS = Number(document.body.dataset.leftDeleteSeconds) || 86_400;
const SIGN_OUT_WAIT_SECONDS = Number(document.body.dataset.signOutWaitSeconds) || 5;

/** The account this page is for; null on pages that name none (nothing is queued or sent there). */
const account = pageAccount();

function openDatabase() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore(STORE, { keyPath: "mutationId" });
      db.createObjectStore(META);
      db.createObjectStore(FOODS, { keyPath: "key" });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

let databasePromise = null;
const database = () => (databasePromise ??= openDatabase());

async function transact(store, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const result = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(result instanceof IDBRequest ? result.result : result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const all = (store) => transact(store, "readonly", (s) => s.getAll());
const getMeta = (key) => transact(META, "readonly", (s) => s.get(key));
const setMeta = (key, value) => transact(META, "readwrite", (s) => s.put(value, key));
// The last problem and the last sync are the account's own.
const FAILURE = `lastFailure:${account}`;
const SYNCED = `lastSynced:${account}`;

/** This account's items, in the order they were queued (a plate's items in its order). */
const mine = (items) => items.filter((i) => account && i.account === account)
  .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || (a.position ?? 0) - (b.position ?? 0));
const unowned = (items) => items.filter((i) => !i.account);
const waiting = (items) => mine(items).filter((i) => !i.refused);

/** This browser's sync device id (one per browser profile). */
async function deviceId() {
  let id = await getMeta("deviceId");
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    await setMeta("deviceId", id);
  }
  return id;
}

/** Foods seen in suggestions and chips, so a food row can be logged offline by name (this account's). */
const foodKey = (name) => `${account}\n${name.trim().toLowerCase()}`;

export async function rememberFoods(foods) {
  if (!account) return;
  try {
    await transact(FOODS, "readwrite", (s) => {
      for (const f of foods) s.put({ key: foodKey(f.name), account, id: f.id, name: f.name, usualPortion: f.usualPortion ?? null, basis: f.basis ?? null });
    });
  } catch { /* a cache only */ }
}

async function knownFood(name) {
  try { return await transact(FOODS, "readonly", (s) => s.get(foodKey(name))); } catch { return undefined; }
}

/**
 * Puts entries in the outbox. Each: { record, display: { name, amount, date, mealType } }. A plate's
 * entries (`plate: true`) share a group: the server saves all of them or none.
 */
export async function queueEntries(entries, { plate = false } = {}) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  const group = plate ? crypto.randomUUID() : undefined;
  await transact(STORE, "readwrite", (s) => {
    entries.forEach(({ record, display }, position) => {
      s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display,
              queuedAt: now, position, account, ...(group ? { group } : {}) });
    });
  });
  await render();
  showPending();
}

/**
 * Puts one change of any synced kind in the outbox (a shopping item checked off in the shop):
 * { kind, id, record, display: { name } }. Two changes of one record keep only the later.
 */
export async function queueChange({ kind, id, record, display }) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    const read = s.getAll();
    read.onsuccess = () => {
      for (const item of read.result) if (item.account === account && item.kind === kind && item.id === id && !item.refused) s.delete(item.mutationId);
      s.put({ mutationId: crypto.randomUUID(), kind, id, op: "upsert", updatedAt: now, record, display, queuedAt: now, account });
    };
  });
  await render();
}

/** The changes of one record waiting in this account's outbox (the shopping page shows them as made). */
export async function waitingChanges(kind) {
  return waiting(await all(STORE).catch(() => [])).filter((i) => i.kind === kind);
}

/**
 * Puts a photo entry in the outbox: the photo (and its thumbnail) upload first when the server is
 * back, then the entry goes through the sync push with the photo's id.
 */
export async function queuePhoto({ photo, thumbnail, capturedAt, record, display }) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display,
            queuedAt: now, account, photo: { photo, thumbnail, capturedAt } });
  });
  await render();
  showPending();
}

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

// --- What waits: the status in the header, what was refused, the note beside Sign out ---

const statusElement = () => document.getElementById("sync-status");
/** One line per change: a plate's items together. */
const changes = (items) => {
  const byKey = new Map();
  for (const item of items) {
    const key = item.group ?? item.mutationId;
    byKey.set(key, [...(byKey.get(key) ?? []), item]);
  }
  return [...byKey.entries()].map(([key, members]) => ({ key, members }));
};
const names = (members) => members.map((i) => i.display?.name ?? "an entry").join(", ");
/** The server's reasons for a refused change (a group's other members only say "nothing was saved"). */
const reasons = (members) => {
  const details = [...new Set(members.map((i) => i.refused?.detail).filter(Boolean))];
  const own = details.filter((d) => !d.startsWith("Nothing of this group was saved"));
  return (own.length ? own : details).join(" ") || "refused";
};

/** Shows this account's outbox everywhere it appears on the page. */
// Whether the server answered lately ("Synced" is not said while it cannot be reached).
let reachable = !document.querySelector("[data-saved-copy]") && navigator.onLine !== false;
function setReachable(value) {
  if (reachable === value) return;
  reachable = value;
  render();
}

async function render(state) {
  if (state === "unreachable") reachable = false;
  const items = await all(STORE).catch(() => []);
  const own = mine(items);
  const refused = own.filter((i) => i.refused);
  await showStatus(own.length - refused.length, refused, state);
  showHeld(refused, unowned(items).length);
  showSignOutNote(own.length - refused.length, refused.length);
}

async function showStatus(count, refused, state) {
  const element = statusElement();
  if (!element) return;
  const failure = await getMeta(FAILURE).catch(() => null);
  const synced = await getMeta(SYNCED).catch(() => null);
  let text = "";
  let kind = "ok";
  if (refused.length) {
    text = `Not saved: ${changes(refused).map(({ members }) => `${names(members)}: ${reasons(members)}`).join("; ")}`;
    kind = "failed";
  } else if (failure && count > 0) {
    text = `Not sent yet: ${failure}`;
    kind = "failed";
  } else if (count > 0) {
    text = `${count} change${count === 1 ? "" : "s"} waiting${state === "unreachable" || !reachable ? " · offline" : ""}`;
    kind = "waiting";
  } else if (!reachable) {
    text = synced ? `Offline · last synced ${syncedText(synced)}` : "Offline";
    kind = "waiting";
  } else if (synced) {
    text = `Synced ${syncedText(synced)}`;
  }
  element.textContent = text;
  element.dataset.state = kind;
  element.hidden = text === "";
}

/** When the outbox was last sent: a time today, else a date and time (the person's own format). */
function syncedText(iso) {
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return today ? at.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })
    : at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** What the server refused, and what nobody can be sent as, each with a Discard button (top of the page). */
function showHeld(refused, unownedCount) {
  const main = document.getElementById("main");
  let section = document.getElementById("outbox-held");
  if (!main || (refused.length === 0 && unownedCount === 0)) { section?.remove(); return; }
  if (!section) {
    section = Object.assign(document.createElement("section"), { id: "outbox-held", className: "card outbox-held" });
    section.setAttribute("aria-labelledby", "outbox-held-title");
    main.prepend(section);
  }
  const title = Object.assign(document.createElement("h2"), { id: "outbox-held-title", textContent: "Kept on this device, not saved" });
  const list = Object.assign(document.createElement("ul"), { className: "held-list" });
  const row = (text, detail, button) => {
    const li = document.createElement("li");
    const words = Object.assign(document.createElement("p"), { className: "held-text" });
    words.append(Object.assign(document.createElement("strong"), { textContent: text }));
    if (detail) words.append(Object.assign(document.createElement("span"), { className: "held-detail", textContent: ` ${detail}` }));
    li.append(words, button);
    list.append(li);
  };
  const discardButton = (label, dataset) => {
    const button = Object.assign(document.createElement("button"), { type: "button", className: "button small", textContent: "Discard" });
    button.setAttribute("aria-label", label);
    Object.assign(button.dataset, dataset);
    return button;
  };
  for (const { key, members } of changes(refused)) {
    const first = members[0].display ?? {};
    const where = [first.mealType, first.date].filter(Boolean).join(", ");
    row(`${names(members)}${where ? ` (${where})` : ""}:`, reasons(members), discardButton(`Discard ${names(members)}`, { discard: key }));
  }
  if (unownedCount > 0) {
    row(`${unownedCount} change${unownedCount === 1 ? "" : "s"} kept by an earlier version of Forkcast on this device`,
        "cannot be matched to an account, so they are never sent.", discardButton("Discard the changes kept by an earlier version", { discardUnowned: "" }));
  }
  section.replaceChildren(title, list);
}

/** Signing out keeps the account's outbox on this device: the Sign out form says so first. */
function showSignOutNote(count, refusedCount) {
  const form = document.querySelector('form[action="/logout"]');
  if (!form) return;
  let note = document.getElementById("sign-out-outbox");
  const button = form.querySelector("button");
  if (count + refusedCount === 0) {
    note?.remove();
    button?.removeAttribute("aria-describedby");
    return;
  }
  if (!note) {
    note = Object.assign(document.createElement("p"), { id: "sign-out-outbox", className: "hint sign-out-note" });
    form.append(note);
    button?.setAttribute("aria-describedby", note.id);
  }
  const parts = [];
  if (count > 0) {
    parts.push(`${count} entr${count === 1 ? "y is" : "ies are"} waiting to be sent; ${count === 1 ? "it stays" : "they stay"} on this device and ${count === 1 ? "is" : "are"} sent when you sign in again.`);
  }
  if (refusedCount > 0) parts.push(`${refusedCount} refused ${refusedCount === 1 ? "entry stays" : "entries stay"} on this device until you discard ${refusedCount === 1 ? "it" : "them"}.`);
  note.textContent = parts.join(" ");
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest?.("#outbox-held [data-discard], #outbox-held [data-discard-unowned]");
  if (!button) return;
  const items = await all(STORE).catch(() => []);
  let doomed;
  let question;
  if (button.dataset.discard !== undefined) {
    doomed = mine(items).filter((i) => i.refused && (i.group ?? i.mutationId) === button.dataset.discard);
    question = `Discard ${names(doomed)}? ${doomed.some((i) => i.photo) ? "The photo is only on this device. " : ""}It will not be saved.`;
  } else {
    doomed = unowned(items);
    question = `Discard ${doomed.length} change${doomed.length === 1 ? "" : "s"} that this device kept without knowing whose they are? They will not be saved.`;
  }
  if (doomed.length === 0 || !window.confirm(question)) return;
  await transact(STORE, "readwrite", (s) => { for (const i of doomed) s.delete(i.mutationId); });
  announce(`Discarded ${doomed.length} change${doomed.length === 1 ? "" : "s"}.`);
  await render();
  showPending();
});

// --- Pending entries in the day's list ---

function showPending() {
  const groups = document.getElementById("meal-groups");
  if (!groups) return;
  const date = groups.dataset.date;
  all(STORE).then((stored) => {
    const items = mine(stored);
    groups.querySelectorAll(".entry.pending").forEach((e) => e.remove());
    for (const item of items) {
      if (item.display?.date !== date) continue;
      const list = groups.querySelector(`[data-meal-type="${CSS.escape(item.display.mealType)}"] .entries`);
      if (!list) continue;
      const li = document.createElement("li");
      li.className = item.refused ? "entry pending refused" : "entry pending";
      li.dataset.mutationId = item.mutationId;
      const text = document.createElement("div");
      const name = Object.assign(document.createElement("span"), { className: "entry-name", textContent: item.display.name });
      const amount = Object.assign(document.createElement("span"), { className: "muted", textContent: ` ${item.display.amount}` });
      text.append(name, amount);
      const badge = Object.assign(document.createElement("span"), { className: "pending-badge", textContent: item.refused ? "not saved" : "not yet saved" });
      li.append(text, badge);
      list.append(li);
      list.closest(".meal-group")?.querySelector(":scope > .muted")?.setAttribute("hidden", "");
    }
    // Planned meals waiting in the outbox are not offered again.
    for (const item of items) {
      const card = !item.refused && item.display?.assignmentId && document.getElementById(`plan-${item.display.assignmentId}`);
      if (card) markPlanned(card, "Logged — not yet saved");
    }
  }).catch(() => {});
}

function markPlanned(card, text) {
  card.classList.add("logged");
  const form = card.querySelector("form");
  if (form) form.replaceWith(Object.assign(document.createElement("span"), { className: "logged-mark", textContent: text }));
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
    const items = waiting(await all(STORE)).filter((i) => !i.photo || i.record.photoId);
    if (items.length === 0) { await render(); return false; }
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
    reachable = true;
    await render();
    const saved = results.filter((r) => r.status !== "rejected").length;
    const entries = results.filter((r) => r.status !== "rejected" && sent.get(r.mutationId)?.kind === "diaryEntry").length;
    if (entries > 0) announce(`${entries} entr${entries === 1 ? "y" : "ies"} logged while offline ${entries === 1 ? "is" : "are"} saved.`);
    else if (saved > 0) announce(`${saved} change${saved === 1 ? "" : "s"} made while offline ${saved === 1 ? "is" : "are"} saved.`);
    return results.length > 0;
  } finally {
    flushing = false;
  }
}

// --- Refreshing the day (after a sync, or a change from another device) ---

let refreshTimer = null;

function refreshDay() {
  // The planner follows changes itself (its week is swapped in place by planner.js).
  if (document.getElementById("week")) { document.dispatchEvent(new CustomEvent("forkcast:changes")); return; }
  // Today's meals, or any other part of a page that follows changes (a shopping list: [data-live]).
  const groups = document.getElementById("meal-groups") ?? document.querySelector("[data-live]");
  if (!groups) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(async () => {
    // Not while the person is choosing something on the page (on a shopping list: while typing;
    // a row just tapped keeps the focus there and must not stop the list from following).
    const active = document.activeElement;
    const typing = active?.matches?.("input:not([type=hidden]), select, textarea");
    if (document.getElementById("meal-groups") ? active?.closest("main form") : typing) return;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const main = document.getElementById("main");
      // The photo capture keeps its own element (its script, a photo being chosen, its message).
      const capture = document.getElementById("capture");
      if (await swapFragment(main, response, "replace-self", { pick: "#main" })) {
        if (capture) document.getElementById("capture")?.replaceWith(capture);
        document.dispatchEvent(new CustomEvent("forkcast:refreshed"));
        clearError();
        showPending();
        render();
      }
    } catch { /* stays as it is until the next change */ }
  }, 250);
}

// --- Deleting an entry with Undo: no question first; a few seconds to take it back ---

const LEFT_DELETES = "forkcast:deletes-left";
const undoing = new Map(); // entry element id -> { form, timer }

function undoToast() {
  let toast = document.getElementById("undo-toast");
  if (!toast) {
    toast = Object.assign(document.createElement("div"), { id: "undo-toast", className: "undo-toast", hidden: true });
    toast.setAttribute("role", "status");
    toast.append(Object.assign(document.createElement("span"), { className: "undo-text" }),
      Object.assign(document.createElement("button"), { type: "button", className: "button small", textContent: "Undo" }));
    document.body.append(toast);
  }
  return toast;
}

/** Sends a delete now (its seconds are up, or the page is being left). */
async function sendDelete(key, { leaving = false } = {}) {
  const pending = undoing.get(key);
  if (!pending) return;
  undoing.delete(key);
  clearTimeout(pending.timer);
  const body = new URLSearchParams(new FormData(pending.form));
  if (leaving) {
    // The next page of this tab sends it (a request may not outlive this page); a keepalive
    // request tries now too. Sent twice, the second finds it gone (404), which is fine.
    // Each names its account: a page of another account (after signing out and in) leaves it be.
    try {
      const kept = JSON.parse(sessionStorage.getItem(LEFT_DELETES) ?? "[]");
      sessionStorage.setItem(LEFT_DELETES, JSON.stringify([...kept, { account, at: Date.now(), action: pending.form.action, body: body.toString() }]));
    } catch { /* the keepalive request alone */ }
    request(pending.form.action, { method: "POST", fragment: "delete", body, keepalive: true }).catch(() => {});
    return;
  }
  try {
    const response = await request(pending.form.action, { method: "POST", fragment: "delete", body });
    if (!response.ok && response.status !== 404) throw new Error(await failureMessage(response));
    document.getElementById(key)?.remove();
    refreshDay();
  } catch (problem) {
    const row = document.getElementById(key);
    if (row) row.hidden = false;
    showError(problem instanceof TypeError ? "Forkcast could not be reached, so the entry was not deleted." : problem.message);
  }
  if (undoing.size === 0) undoToast().hidden = true;
}

document.addEventListener("submit", (event) => {
  const form = event.target.closest?.("form[data-undo]");
  const row = form?.closest("li[id]");
  if (!form || !row) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const key = row.id;
  row.hidden = true;
  const toast = undoToast();
  toast.querySelector(".undo-text").textContent = form.dataset.undo;
  toast.hidden = false;
  toast.querySelector("button").onclick = () => {
    const pending = undoing.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    undoing.delete(key);
    row.hidden = false;
    toast.hidden = true;
    announce("Kept.");
    row.querySelector("a, button")?.focus();
  };
  undoing.set(key, { form, timer: setTimeout(() => sendDelete(key), UNDO_SECONDS * 1000) });
  toast.querySelector("button").focus();
}, true);
// Leaving the page sends what is waiting (Undo is only for while the page is open).
window.addEventListener("pagehide", () => { for (const key of [...undoing.keys()]) sendDelete(key, { leaving: true }); });
// Deletes whose page was left before they were sent go now, by a page of the same account; those
// of another account wait in this tab for a page of theirs (a day at most).
let leftDeletesSent = Promise.resolve();
if (account) {
  let left = [];
  try { left = JSON.parse(sessionStorage.getItem(LEFT_DELETES) ?? "[]"); } catch { /* none */ }
  const ours = left.filter((d) => d.account === account);
  const theirs = left.filter((d) => d.account !== account && d.account && Date.now() - (d.at ?? 0) < LEFT_DELETE_SECONDS * 1000);
  try { sessionStorage.setItem(LEFT_DELETES, JSON.stringify(theirs)); } catch { /* sent once more at most */ }
  if (ours.length) {
    leftDeletesSent = Promise.all(ours.map(({ action, body }) =>
      request(action, { method: "POST", fragment: "delete", body: new URLSearchParams(body) }).catch(() => null)))
      .then(() => refreshDay());
  }
}
// Signing out waits for this account's deletes (those under Undo go at once): sent after it, they
// would be refused, and the entries would be back.
document.addEventListener("submit", async (event) => {
  const form = event.target.closest?.('form[action="/logout"]');
  if (!form || form.dataset.deletesSent) return;
  event.preventDefault();
  // At most a few seconds: a server that takes the request and never answers does not keep the
  // person signed in. (Sign-out is on Settings, where nothing is under Undo; a form placed on a page
  // with deletions under Undo would send them first.)
  const sent = Promise.all([leftDeletesSent, ...[...undoing.keys()].map((key) => sendDelete(key))]);
  await Promise.race([sent, new Promise((resolve) => { setTimeout(resolve, SIGN_OUT_WAIT_SECONDS * 1000); })]);
  form.dataset.deletesSent = "yes";
  // In a task of its own: while this submit event is still being handled the form takes no other.
  setTimeout(() => form.requestSubmit(event.submitter ?? undefined));
});
// A refresh of the day (another device's change) keeps rows waiting for their delete hidden.
document.addEventListener("forkcast:refreshed", () => {
  for (const key of undoing.keys()) { const row = document.getElementById(key); if (row) row.hidden = true; }
});

// --- Turning forms into outbox entries when the server cannot be reached ---

const number = (text) => {
  const t = String(text ?? "").trim().replace(",", ".");
  return t === "" ? null : Number(t);
};

/** When: now for today, else the server picks noon of that day (the `date` field). */
function when(date, today) {
  return date === today ? { loggedAt: new Date().toISOString() } : { date };
}

async function entriesFromPlate(form) {
  const date = form.elements.date.value;
  const mealType = form.elements.mealType.value;
  const today = form.dataset.today;
  const note = form.elements.note?.value.trim() || undefined;
  const base = { mealType, ...when(date, today), ...(note ? { note } : {}) };
  const entries = [];
  const problems = [];
  for (const row of form.querySelectorAll("[data-ingredient-row]")) {
    const nameInput = row.querySelector("[name=ingredientFood]");
    const name = nameInput.value.trim();
    let foodId = row.querySelector("[name=ingredientFoodId]").value;
    if (!name && !foodId) continue;
    let basis = nameInput.dataset.basis || null;
    let usual = null;
    if (!foodId) {
      const known = await knownFood(name);
      if (!known) { problems.push(`“${name}” is not among the foods this device has seen; pick it from the list when Forkcast is back.`); continue; }
      foodId = known.id;
      usual = known.usualPortion;
      basis = known.basis ?? basis;
    }
    // What the row says, as typed: the server decides what an empty amount means (the food's
    // usual portion) and what a number without a unit is in (the food's g or ml).
    const typedQuantity = number(row.querySelector("[name=ingredientQuantity]").value);
    const typedUnit = row.querySelector("[name=ingredientUnit]").value;
    if (typedQuantity === null && typedUnit === "") {
      entries.push({ record: { ...base, foodId }, display: { name, amount: usual ? `${usual.quantity} ${usual.unit}` : "usual portion", date, mealType } });
      continue;
    }
    if (typedQuantity === null) { problems.push(`How much ${name}?`); continue; }
    // A named portion is sent as the grams its option says it is ("portion:128": 128 g each).
    const portion = typedUnit.startsWith("portion:") ? Number(typedUnit.slice(8)) : null;
    const record = portion ? { quantity: typedQuantity * portion, unit: "g" } : { quantity: typedQuantity, ...(typedUnit ? { unit: typedUnit } : {}) };
    entries.push({ record: { ...base, foodId, ...record },
                   display: { name, amount: `${record.quantity} ${record.unit || basis || "g or ml"}`, date, mealType } });
  }
  const mealSelect = form.elements.mealId;
  if (mealSelect?.value) {
    // No servings typed: the server logs its default (shown from the page's data-default-servings).
    const typed = number(form.elements.mealServings?.value);
    const servings = typed ?? Number(form.dataset.defaultServings);
    entries.push({ record: { ...base, mealId: mealSelect.value, ...(typed === null ? {} : { servings: typed }) },
                   display: { name: mealSelect.selectedOptions[0].textContent, amount: `${servings} serving${servings === 1 ? "" : "s"}`, date, mealType } });
  }
  // Anything typed in the quick add is sent as one: the server decides what it needs (its
  // calories), so macros typed without them are refused when it answers, not dropped here.
  const quickAdd = {};
  for (const key of ["energyKcal", "protein", "carbohydrates", "fat"]) {
    const v = number(form.elements[`quick.${key}`]?.value);
    if (v !== null) quickAdd[key] = v;
  }
  const typedName = form.elements["quick.name"]?.value.trim();
  if (Object.keys(quickAdd).length > 0 || typedName) {
    const kcal = quickAdd.energyKcal;
    // No name typed: the server names it (shown from the page's data-quick-add-name).
    entries.push({ record: { ...base, quickAdd, ...(typedName ? { name: typedName } : {}) },
                   display: { name: typedName || form.dataset.quickAddName, amount: kcal === undefined ? "quick add" : `quick add, ${kcal} kcal`, date, mealType } });
  }
  if (problems.length) throw new Error(problems.join(" "));
  if (entries.length === 0) throw new Error("Add a food, a meal or a quick add first.");
  if (entries.length > PLATE_LIMIT) throw new Error(`A plate holds at most ${PLATE_LIMIT} items; this one has ${entries.length}.`);
  return entries;
}

function entriesFromPlanned(form) {
  const date = form.dataset.date;
  const mealType = form.elements.mealType.value;
  return [{
    record: { mealId: form.dataset.mealId, mealType, ...when(date, form.dataset.today) },
    display: { name: form.dataset.name, amount: `${form.dataset.defaultServings} serving`, date, mealType, assignmentId: form.elements.assignmentId.value },
  }];
}

/** A logging form is sent as usual; when the server cannot be reached it goes to the outbox. */
document.addEventListener("submit", async (event) => {
  const form = event.target;
  const kind = form.dataset?.offline;
  if (!kind || event.defaultPrevented) return;
  const submitter = event.submitter;
  const action = submitter?.getAttribute("formaction") || form.getAttribute("action");
  event.preventDefault();
  const body = new FormData(form);
  if (submitter?.name) body.append(submitter.name, submitter.value);
  submitter?.setAttribute("aria-busy", "true");
  if (submitter) submitter.disabled = true;
  try {
    let response = null;
    try {
      response = await request(action, { method: "POST", body });
    } catch { /* unreachable: below */ }
    if (response && response.status < 500) {
      if (response.redirected || response.ok) {
        // The answer (already read here) carried the confirmation; the page it sends us to keeps
        // it (app.js shows it), opened at the meal the entries went to.
        const html = await response.text().catch(() => "");
        const flash = new DOMParser().parseFromString(html, "text/html").querySelector("#main > .flash")?.textContent;
        try { if (flash) sessionStorage.setItem("forkcast:flash", flash); } catch { /* shown without it */ }
        const url = new URL(response.url);
        const mealType = form.elements.mealType?.value;
        if (mealType && url.pathname === "/diary" && !url.hash) url.hash = `group-${mealType}`;
        if (url.pathname + url.search === location.pathname + location.search) {
          history.replaceState(history.state, "", url.href);
          location.reload();
        } else {
          location.assign(url.href);
        }
        return;
      }
      // The form with its errors, as typed: only its card is replaced.
      const card = form.closest(".card");
      if (card && (await swapFragment(card, response, "replace-self", { pick: `.${[...card.classList].join(".")}` }))) {
        document.dispatchEvent(new CustomEvent("forkcast:form-replaced"));
        return;
      }
      showError(`Forkcast answered HTTP ${response.status}; nothing was saved. Your input is still here.`);
      return;
    }
    if (kind === "copy" || submitter?.hasAttribute("data-copy")) {
      showError("Copying a meal needs a connection to Forkcast. Nothing was changed; try again when it is back.");
      return;
    }
    let entries;
    try {
      entries = kind === "plate" ? await entriesFromPlate(form) : entriesFromPlanned(form);
      // A plate is one change: its entries are saved together or not at all.
      await queueEntries(entries, { plate: kind === "plate" });
    } catch (problem) {
      showError(`Forkcast cannot be reached, and this cannot be kept for later: ${problem.message}`);
      return;
    }
    clearError();
    if (kind === "planned") {
      markPlanned(form.closest(".plan-card"), "Logged — not yet saved");
    } else {
      form.reset();
      form.querySelectorAll("[name=ingredientFoodId]").forEach((i) => { i.value = ""; });
      const message = document.getElementById("form-message");
      if (message) {
        message.textContent = `Forkcast cannot be reached: ${entries.length} item${entries.length === 1 ? " is" : "s are"} kept on this device and will be sent when it is back.`;
        message.hidden = false;
        message.classList.add("offline-note");
      }
    }
    announce(`Kept ${entries.length} item${entries.length === 1 ? "" : "s"} on this device until Forkcast can be reached.`);
  } finally {
    submitter?.removeAttribute("aria-busy");
    if (submitter) submitter.disabled = false;
  }
});

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
  setInterval(() => { if (!reachable) probe(); }, 15000);
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
