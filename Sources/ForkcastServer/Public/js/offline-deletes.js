// Deleting an entry with Undo (a few seconds to take it back), deletes left with their page, and
// signing out after them. Loaded by offline.js.
import { request, announce, showError, failureMessage } from "/js/app.js";
import { account, UNDO_SECONDS, LEFT_DELETE_SECONDS, SIGN_OUT_WAIT_SECONDS } from "/js/outbox.js";
import { refreshDay, hiddenEntries } from "/js/outbox-status.js";

// --- Deleting an entry with Undo: no question first; a few seconds to take it back ---

const LEFT_DELETES = "forkcast:deletes-left";
const undoing = new Map(); // entry element id -> { form, timer, row, group, after }
// A diary entry's id from its row's (the planner's rows are assignments: not the day's figures).
const entryId = (key) => (key.startsWith("entry-") ? key.slice(6) : "");

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
    hiddenEntries.delete(entryId(key));
    refreshDay();
  } catch (problem) {
    hiddenEntries.delete(entryId(key));
    const row = document.getElementById(key);
    if (row) row.hidden = false;
    refreshDay();
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
  // The day's totals, chart and plan are the server's, without it (the rest of the page stays).
  hiddenEntries.add(entryId(key));
  refreshDay();
  const toast = undoToast();
  toast.querySelector(".undo-text").textContent = form.dataset.undo;
  toast.hidden = false;
  toast.querySelector("button").onclick = () => {
    const pending = undoing.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    undoing.delete(key);
    hiddenEntries.delete(entryId(key));
    (document.getElementById(key) ?? row).hidden = false;
    toast.hidden = true;
    announce("Kept.");
    // Back in the figures; its row, if the page was read again meanwhile, is the new one.
    document.addEventListener("forkcast:refreshed", () => document.getElementById(key)?.querySelector("a, button")?.focus(), { once: true });
    refreshDay();
    (document.getElementById(key) ?? row).querySelector("a, button")?.focus();
  };
  undoing.set(key, { form, timer: setTimeout(() => sendDelete(key), UNDO_SECONDS * 1000), row,
                     group: row.closest(".meal-group")?.id, after: row.previousElementSibling?.id });
  toast.querySelector("button").focus();
}, true);
// The day read again leaves out the rows waiting for their Undo: each goes back where it was,
// still hidden, so that Undo shows it at once.
document.addEventListener("forkcast:refreshed", () => {
  for (const [key, pending] of undoing) {
    if (document.getElementById(key)) continue;
    const list = document.getElementById(pending.group)?.querySelector("ul.entries");
    if (!list) continue;
    const after = pending.after && document.getElementById(pending.after);
    if (after?.parentElement === list) after.after(pending.row); else list.prepend(pending.row);
  }
});
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
