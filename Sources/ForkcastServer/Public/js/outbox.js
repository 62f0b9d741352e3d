// The outbox: what is logged or changed while Forkcast cannot be reached, kept in IndexedDB per
// account until the sync push takes it (offline.js). Storage only: outbox-status.js shows it.
import { pageAccount } from "/js/app.js";

const DB_NAME = "forkcast";
export const STORE = "outbox";
export const META = "meta";
export const FOODS = "foods";
/** An outbox item that is a "We ate this" call, not a synced record. */
export const EATEN = "eaten";
/** The server's limits and windows, as the page states them (ForkcastCore decides them; the page
 *  only says so early): items on one plate (one group of a push), mutations in one push; seconds a
 *  deletion stays under Undo, a deletion left with its page is kept, and sign-out waits for them. */
export const PLATE_LIMIT = Number(document.body.dataset.plateLimit) || Infinity;
export const PUSH_LIMIT = Number(document.body.dataset.pushLimit) || 100;
// A page saved (for offline) before the page stated its windows still has Undo and keeps what was left.
export const UNDO_SECONDS = Number(document.body.dataset.undoSeconds) || 6;
export const LEFT_DELETE_SECONDS = Number(document.body.dataset.leftDeleteSeconds) || 86_400;
export const SIGN_OUT_WAIT_SECONDS = Number(document.body.dataset.signOutWaitSeconds) || 5;

/** The account this page is for; null on pages that name none (nothing is queued or sent there). */
export const account = pageAccount();

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

export async function transact(store, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const result = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(result instanceof IDBRequest ? result.result : result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const all = (store) => transact(store, "readonly", (s) => s.getAll());
export const getMeta = (key) => transact(META, "readonly", (s) => s.get(key));
export const setMeta = (key, value) => transact(META, "readwrite", (s) => s.put(value, key));
// The last problem and the last sync are the account's own.
export const FAILURE = `lastFailure:${account}`;
export const SYNCED = `lastSynced:${account}`;

/** This account's items, in the order they were queued (a plate's items in its order). */
export const mine = (items) => items.filter((i) => account && i.account === account)
  .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || (a.position ?? 0) - (b.position ?? 0));
export const unowned = (items) => items.filter((i) => !i.account);
export const waiting = (items) => mine(items).filter((i) => !i.refused);

/** This browser's sync device id (one per browser profile). */
export async function deviceId() {
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

export async function knownFood(name) {
  try { return await transact(FOODS, "readonly", (s) => s.get(foodKey(name))); } catch { return undefined; }
}

/**
 * Puts entries in the outbox. Each: { record, display: { name, amount, date, mealType } }. A plate's
 * entries (`plate: true`) share a group: the server saves all of them or none.
 */
export async function putEntries(entries, { plate = false } = {}) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  const group = plate ? crypto.randomUUID() : undefined;
  await transact(STORE, "readwrite", (s) => {
    entries.forEach(({ record, display }, position) => {
      s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display,
              queuedAt: now, position, account, ...(group ? { group } : {}) });
    });
  });
}

/**
 * Puts one change of any synced kind in the outbox (a shopping item checked off in the shop):
 * { kind, id, record, display: { name } }. Two changes of one record keep only the later.
 */
export async function putChange({ kind, id, record, display }) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    const read = s.getAll();
    read.onsuccess = () => {
      for (const item of read.result) if (item.account === account && item.kind === kind && item.id === id && !item.refused) s.delete(item.mutationId);
      s.put({ mutationId: crypto.randomUUID(), kind, id, op: "upsert", updatedAt: now, record, display, queuedAt: now, account });
    };
  });
}

/** The changes of one record waiting in this account's outbox (the shopping page shows them as made). */
export async function waitingChanges(kind) {
  return waiting(await all(STORE).catch(() => [])).filter((i) => i.kind === kind);
}

/**
 * Puts "We ate this" for a plan entry in the outbox: { assignmentId, display }. It is no synced
 * record (it writes several diaries and the pantry), so offline.js sends it as the API call it is;
 * the server logs nobody twice, so sending it again is harmless. Once per plan entry.
 */
export async function putEaten({ assignmentId, display }) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    const read = s.getAll();
    read.onsuccess = () => {
      if (read.result.some((i) => i.account === account && i.kind === EATEN && i.id === assignmentId && !i.refused)) return;
      s.put({ mutationId: crypto.randomUUID(), kind: EATEN, id: assignmentId, display, queuedAt: now, account });
    };
  });
}

/**
 * Puts a photo entry in the outbox: the photo (and its thumbnail) upload first when the server is
 * back, then the entry goes through the sync push with the photo's id.
 */
export async function putPhoto({ photo, thumbnail, capturedAt, record, display }) {
  if (!account) throw new Error("This page is not signed in.");
  const now = new Date().toISOString();
  await transact(STORE, "readwrite", (s) => {
    s.put({ mutationId: crypto.randomUUID(), kind: "diaryEntry", id: crypto.randomUUID(), op: "upsert", updatedAt: now, record, display,
            queuedAt: now, account, photo: { photo, thumbnail, capturedAt } });
  });
}


/** One line per change: a plate's items together. */
export const changes = (items) => {
  const byKey = new Map();
  for (const item of items) {
    const key = item.group ?? item.mutationId;
    byKey.set(key, [...(byKey.get(key) ?? []), item]);
  }
  return [...byKey.entries()].map(([key, members]) => ({ key, members }));
};
