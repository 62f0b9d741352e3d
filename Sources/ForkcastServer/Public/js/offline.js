// Logging without a connection: what is logged while Forkcast cannot be reached waits in an outbox
// (IndexedDB) and goes out through the sync push (/api/v1/sync/push) when the server is back.
// The page shows the sync status, pending entries in the day's list, and changes made on another
// device (the sync event stream). Every rule (amounts, meal types, which day) is the server's: this
// file only carries what the page says and what the server answers.
import { request, announce, showError, clearError, swapFragment } from "/js/app.js";

const DB_NAME = "forkcast";
const STORE = "outbox";
const META = "meta";
const FOODS = "foods";

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

/** This browser's sync device id (one per browser profile). */
async function deviceId() {
  let id = await getMeta("deviceId");
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    await setMeta("deviceId", id);
  }
  return id;
}

/** Foods seen in suggestions and chips, so a food row can be logged offline by name. */
export async function rememberFoods(foods) {
  try {
    await transact(FOODS, "readwrite", (s) => {
      for (const f of foods) s.put({ key: f.name.trim().toLowerCase(), id: f.id, name: f.name, usualPortion: f.usualPortion ?? null });
    });
  } catch { /* a cache only */ }
}

async function knownFood(name) {
  try { return await transact(FOODS, "readonly", (s) => s.get(name.trim().toLowerCase())); } catch { return undefined; }
}

/** Puts entries in the outbox. Each: { record, display: { name, amount, date, mealType } }. */
export async function queueEntries(entries) {
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    for (const { record, display } of entries) {
      s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display, queuedAt: now });
    }
  });
  await showStatus();
  showPending();
}

/**
 * Puts a photo entry in the outbox: the photo (and its thumbnail) upload first when the server is
 * back, then the entry goes through the sync push with the photo's id.
 */
export async function queuePhoto({ photo, thumbnail, capturedAt, record, display }) {
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display,
            queuedAt: now, photo: { photo, thumbnail, capturedAt } });
  });
  await showStatus();
  showPending();
}

/** Uploads the photos of queued entries that have none on the server yet; false when offline. */
async function uploadPhotos(items) {
  for (const item of items) {
    if (!item.photo || item.record.photoId) continue;
    const body = new FormData();
    body.append("photo", item.photo.photo, "photo");
    if (item.photo.thumbnail) body.append("thumbnail", item.photo.thumbnail, "thumbnail");
    if (item.photo.capturedAt) body.append("capturedAt", item.photo.capturedAt);
    let response;
    try {
      response = await fetch("/api/v1/photos", { method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]')?.content ?? "" } });
    } catch { return false; }
    if (response.status >= 500) return false;
    if (!response.ok) {
      // Refused for good (not an image, too large): the entry goes without it and says so.
      let detail = `HTTP ${response.status}`;
      try { detail = (await response.json()).detail || detail; } catch { /* keep */ }
      await transact(STORE, "readwrite", (s) => s.delete(item.mutationId));
      await setMeta("lastFailure", `${item.display?.name ?? "A photo"}: ${detail}`);
      continue;
    }
    item.record.photoId = (await response.json()).id;
    await transact(STORE, "readwrite", (s) => s.put(item));
  }
  return true;
}

// --- Sync status in the header ---

const statusElement = () => document.getElementById("sync-status");

async function showStatus(state) {
  const element = statusElement();
  if (!element) return;
  const waiting = (await all(STORE).catch(() => [])).length;
  const failure = await getMeta("lastFailure").catch(() => null);
  const synced = await getMeta("lastSynced").catch(() => null);
  let text = "";
  let kind = "ok";
  if (failure) {
    text = `Not saved: ${failure}`;
    kind = "failed";
  } else if (waiting > 0) {
    text = `${waiting} change${waiting === 1 ? "" : "s"} waiting${state === "unreachable" ? " — Forkcast cannot be reached" : ""}`;
    kind = "waiting";
  } else if (synced) {
    text = `Synced ${new Date(synced).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
  }
  element.textContent = text;
  element.dataset.state = kind;
  element.hidden = text === "";
}

// --- Pending entries in the day's list ---

function showPending() {
  const groups = document.getElementById("meal-groups");
  if (!groups) return;
  const date = groups.dataset.date;
  all(STORE).then((items) => {
    groups.querySelectorAll(".entry.pending").forEach((e) => e.remove());
    for (const item of items) {
      if (item.display?.date !== date) continue;
      const list = groups.querySelector(`[data-meal-type="${CSS.escape(item.display.mealType)}"] .entries`);
      if (!list) continue;
      const li = document.createElement("li");
      li.className = "entry pending";
      li.dataset.mutationId = item.mutationId;
      const text = document.createElement("div");
      const name = Object.assign(document.createElement("span"), { className: "entry-name", textContent: item.display.name });
      const amount = Object.assign(document.createElement("span"), { className: "muted", textContent: ` ${item.display.amount}` });
      text.append(name, amount);
      const badge = Object.assign(document.createElement("span"), { className: "pending-badge", textContent: "not yet saved" });
      li.append(text, badge);
      list.append(li);
      list.closest(".meal-group")?.querySelector(":scope > .muted")?.setAttribute("hidden", "");
    }
    // Planned meals waiting in the outbox are not offered again.
    for (const item of items) {
      const card = item.display?.assignmentId && document.getElementById(`plan-${item.display.assignmentId}`);
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

/** Sends the outbox through the sync push; true when something was saved. */
export async function flush() {
  if (flushing) return false;
  flushing = true;
  try {
    let items = await all(STORE);
    if (items.length === 0) { await showStatus(); return false; }
    if (!(await uploadPhotos(items))) { await showStatus("unreachable"); return false; }
    items = (await all(STORE)).filter((i) => !i.photo || i.record.photoId);
    if (items.length === 0) { await showStatus(); return false; }
    const mutations = items.slice(0, 500).map(({ mutationId, kind, id, op, updatedAt, record }) => ({ mutationId, kind, id, op, updatedAt, record }));
    let response;
    try {
      response = await request("/api/v1/sync/push", { method: "POST", body: { deviceId: await deviceId(), mutations } });
    } catch {
      await showStatus("unreachable");
      return false;
    }
    if (!response.ok) {
      // The server is there but refused the whole batch (signed out, or a bad batch): say why, keep it.
      let detail = `HTTP ${response.status}`;
      try { detail = (await response.json()).detail || detail; } catch { /* keep */ }
      if (response.status >= 500) { await showStatus("unreachable"); return false; }
      await setMeta("lastFailure", detail);
      await showStatus();
      return false;
    }
    const { results } = await response.json();
    const failures = [];
    await transact(STORE, "readwrite", (s) => {
      for (const result of results) {
        s.delete(result.mutationId);
        if (result.status === "rejected") {
          const item = items.find((i) => i.mutationId === result.mutationId);
          failures.push(`${item?.display?.name ?? "an entry"}: ${result.problem?.detail ?? "refused"}`);
        }
      }
    });
    await setMeta("lastFailure", failures.length ? failures.join("; ") : null);
    await setMeta("lastSynced", new Date().toISOString());
    await showStatus();
    const saved = results.length - failures.length;
    if (saved > 0) announce(`${saved} entr${saved === 1 ? "y" : "ies"} logged while offline ${saved === 1 ? "is" : "are"} saved.`);
    return results.length > 0;
  } finally {
    flushing = false;
  }
}

// --- Refreshing the day (after a sync, or a change from another device) ---

let refreshTimer = null;

function refreshDay() {
  const groups = document.getElementById("meal-groups");
  if (!groups) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(async () => {
    // Not while the person is choosing something on the page.
    if (document.activeElement?.closest("main form")) return;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const main = document.getElementById("main");
      // The photo capture keeps its own element (its script, a photo being chosen, its message).
      const capture = document.getElementById("capture");
      if (await swapFragment(main, response, "replace-self", { pick: "#main" })) {
        if (capture) document.getElementById("capture")?.replaceWith(capture);
        clearError();
        showPending();
      }
    } catch { /* stays as it is until the next change */ }
  }, 250);
}

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
    let usual = nameInput.dataset.usualQuantity ? { quantity: nameInput.dataset.usualQuantity, unit: nameInput.dataset.usualUnit } : null;
    if (!foodId) {
      const known = await knownFood(name);
      if (!known) { problems.push(`“${name}” is not among the foods this device has seen; pick it from the list when Forkcast is back.`); continue; }
      foodId = known.id;
      usual = known.usualPortion;
    }
    const typedQuantity = number(row.querySelector("[name=ingredientQuantity]").value);
    const typedUnit = row.querySelector("[name=ingredientUnit]").value;
    const quantity = typedQuantity ?? (typedUnit === "" && usual ? Number(usual.quantity) : null);
    const unit = typedUnit || usual?.unit;
    if (quantity === null || !unit) { problems.push(`How much ${name}?`); continue; }
    entries.push({ record: { ...base, foodId, quantity, unit }, display: { name, amount: `${quantity} ${unit}`, date, mealType } });
  }
  const mealSelect = form.elements.mealId;
  if (mealSelect?.value) {
    const servings = number(form.elements.mealServings?.value) ?? 1;
    entries.push({ record: { ...base, mealId: mealSelect.value, servings },
                   display: { name: mealSelect.selectedOptions[0].textContent, amount: `${servings} serving${servings === 1 ? "" : "s"}`, date, mealType } });
  }
  const kcal = number(form.elements["quick.energyKcal"]?.value);
  if (kcal !== null) {
    const quickAdd = { energyKcal: kcal };
    for (const key of ["protein", "carbohydrates", "fat"]) {
      const v = number(form.elements[`quick.${key}`]?.value);
      if (v !== null) quickAdd[key] = v;
    }
    const name = form.elements["quick.name"]?.value.trim() || "Quick add";
    entries.push({ record: { ...base, quickAdd, name }, display: { name, amount: `quick add, ${kcal} kcal`, date, mealType } });
  }
  if (problems.length) throw new Error(problems.join(" "));
  if (entries.length === 0) throw new Error("Add a food, a meal or a quick add first.");
  return entries;
}

function entriesFromPlanned(form) {
  const date = form.dataset.date;
  const mealType = form.elements.mealType.value;
  return [{
    record: { mealId: form.dataset.mealId, servings: 1, mealType, ...when(date, form.dataset.today) },
    display: { name: form.dataset.name, amount: "1 serving", date, mealType, assignmentId: form.elements.assignmentId.value },
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
        location.assign(response.url);
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
    } catch (problem) {
      showError(`Forkcast cannot be reached, and this cannot be kept for later: ${problem.message}`);
      return;
    }
    await queueEntries(entries);
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

if (document.querySelector('meta[name="csrf-token"]') && "indexedDB" in window) {
  showStatus();
  showPending();
  flush().then((sent) => { if (sent) refreshDay(); });
  window.addEventListener("online", () => flush().then((sent) => { if (sent) refreshDay(); }));
  setInterval(async () => {
    const waiting = (await all(STORE).catch(() => [])).length;
    if (waiting > 0 && (await flush())) refreshDay();
  }, 5000);

  // Changes from another device appear without a reload.
  if (document.getElementById("meal-groups") && "EventSource" in window) {
    const events = new EventSource("/api/v1/sync/events");
    events.addEventListener("changes", () => refreshDay());
    events.addEventListener("open", async () => {
      if ((await all(STORE).catch(() => [])).length > 0 && (await flush())) refreshDay();
    });
  }
}

// The service worker keeps the app shell and the pages last seen, so Forkcast opens offline.
if ("serviceWorker" in navigator && document.querySelector('meta[name="csrf-token"]')) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* works without */ });
}
