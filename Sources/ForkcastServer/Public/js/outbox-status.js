// What the page shows of this account's outbox: the status in the header, what the server refused
// (with Discard), the note beside Sign out, pending entries in the day's list; and the day
// refreshed after a sync or another device's change.
import { announce, clearError, swapFragment } from "/js/app.js";
import { STORE, transact, all, getMeta, FAILURE, SYNCED, mine, unowned, changes, putEntries, putChange, putPhoto, putEaten } from "/js/outbox.js";

// --- What waits: the status in the header, what was refused, the note beside Sign out ---

const statusElement = () => document.getElementById("sync-status");
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
export function setReachable(value) {
  if (reachable === value) return;
  reachable = value;
  render();
}

export async function render(state) {
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

export function showPending() {
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

export function markPlanned(card, text) {
  card.classList.add("logged");
  const form = card.querySelector("form");
  if (form) form.replaceWith(Object.assign(document.createElement("span"), { className: "logged-mark", textContent: text }));
}

/** Whether the server answered lately. */
export const isReachable = () => reachable;

// --- Refreshing the day (after a sync, or a change from another device) ---

let refreshTimer = null;

/** Entries deleted on this page whose Undo is still offered: the server leaves them out of the day. */
export const hiddenEntries = new Set();

// A form being sent the usual way (the page is about to go): a form taken out of the page before
// its submission starts is not sent at all, so the page is not drawn again meanwhile.
let leaving = false;
let leavingTimer = null;
document.addEventListener("submit", (event) => {
  setTimeout(() => {
    if (event.defaultPrevented) return;
    leaving = true;
    clearTimeout(leavingTimer);
    leavingTimer = setTimeout(() => { leaving = false; }, 10_000); // still here (a download): drawn again as usual
  }, 0);
}, true);
window.addEventListener("pageshow", () => { leaving = false; });

export function refreshDay() {
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
    if (leaving) return;
    if (document.getElementById("meal-groups") ? active?.closest("main form") : typing) return;
    try {
      const url = new URL(location.href);
      const hidden = [...hiddenEntries].filter(Boolean);
      if (hidden.length) url.searchParams.set("hidden", hidden.join(","));
      const response = await fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const main = document.getElementById("main");
      // The photo capture keeps its own element (its script, a photo being chosen, its message).
      const capture = document.getElementById("capture");
      if (leaving) return; // a form went out while this was asked for
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

// --- Queueing: kept on this device, then shown ---

/**
 * Puts entries in the outbox. Each: { record, display: { name, amount, date, mealType } }. A plate's
 * entries (`plate: true`) share a group: the server saves all of them or none.
 */
export async function queueEntries(entries, options) {
  await putEntries(entries, options);
  await render();
  showPending();
}

/** One change of any synced kind (a shopping item checked off in the shop); the later of two wins. */
export async function queueChange(change) {
  await putChange(change);
  await render();
}

/** A photo entry: the photo uploads first when the server is back, then the entry is pushed. */
export async function queuePhoto(photo) {
  await putPhoto(photo);
  await render();
  showPending();
}

/** "We ate this" for a plan entry, sent when the server is back. */
export async function queueEaten(eaten) {
  await putEaten(eaten);
  await render();
  showPending();
}
