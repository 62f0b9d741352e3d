// A shopping list in the shop: a tap checks an item off (or back on) at once and it sinks to the
// basket; the server's list then replaces the rows. Without a connection the owner's checks wait
// in the outbox (offline.js) and go out through the sync push when Forkcast is back; a shared
// link's page keeps them on the phone (localStorage) and sends them when the signal is back. The
// shared page reads the list again every few seconds, so the owner's checks show there too. Which
// rows go where, the amounts and the aisles are the server's: this file only moves a row until the
// server's answer arrives.
import { request, announce, showError, clearError, swapFragment, pageAccount } from "/js/app.js";

const rows = () => document.getElementById("shopping-items");

/** Shows a row as checked (or not) and moves it: checked ones to the basket at the bottom. */
function show(item, checked) {
  item.classList.toggle("checked", checked);
  item.querySelector(".shop-row")?.setAttribute("aria-pressed", String(checked));
  const next = item.querySelector("input[name=checked]");
  if (next) next.value = String(!checked);
  const list = rows();
  if (!list) return;
  if (checked) {
    let basket = list.querySelector(".basket .shop-rows");
    if (!basket) {
      const li = Object.assign(document.createElement("li"), { className: "aisle basket" });
      li.append(Object.assign(document.createElement("h2"), { className: "aisle-title", textContent: "In the basket" }),
                Object.assign(document.createElement("ul"), { className: "shop-rows" }));
      list.append(li);
      basket = li.querySelector(".shop-rows");
    }
    basket.prepend(item);
  } else {
    const firstAisle = list.querySelector(".aisle:not(.basket) .shop-rows");
    if (firstAisle) firstAisle.append(item); else list.prepend(item);
  }
}

/** Checks waiting in the outbox are shown as made (after a reload offline, too). */
async function showWaiting() {
  if (!pageAccount()) return;
  try {
    const { waitingChanges } = await import("/js/offline.js");
    for (const change of await waitingChanges("shoppingItem")) {
      const item = document.getElementById(`item-${change.id.toUpperCase()}`) ?? document.getElementById(`item-${change.id}`);
      if (item && typeof change.record?.checked === "boolean") {
        show(item, change.record.checked);
        item.classList.add("pending");
      }
    }
  } catch { /* nothing waits */ }
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest("[data-shopping-check]");
  if (!form || event.defaultPrevented) return;
  event.preventDefault();
  const item = form.closest(".shop-item");
  const checked = form.elements.checked.value === "true";
  const name = item.querySelector(".shop-name")?.textContent ?? "Item";
  const body = new FormData(form); // before the row is shown checked (which sets the next tap's value)
  show(item, checked);
  let response = null;
  try {
    response = await request(form.action, { method: "POST", body, fragment: "items" });
  } catch { /* unreachable: below */ }
  if (response && response.ok) {
    const current = rows();
    if (current) await swapFragment(current, response, "replace-self");
    clearError();
    announce(`${name} ${checked ? "checked off" : "back on the list"}.`);
    await showWaiting();
    return;
  }
  if (response && response.status < 500) {
    show(item, !checked);
    showError(response.status === 404 ? "This item or list is no longer there; reload the page." : `Forkcast answered HTTP ${response.status}; nothing was changed.`);
    return;
  }
  if (shared) {
    keepShared(item.dataset.itemId, checked);
    item.classList.add("pending");
    announce(`${name} ${checked ? "checked off" : "back on the list"} on this phone; it is sent when Forkcast can be reached.`);
    return;
  }
  if (form.hasAttribute("data-offline-check") && pageAccount()) {
    try {
      const { queueChange } = await import("/js/offline.js");
      await queueChange({ kind: "shoppingItem", id: item.dataset.itemId.toLowerCase(), record: { listId: form.dataset.listId, checked },
                          display: { name } });
      item.classList.add("pending");
      announce(`${name} ${checked ? "checked off" : "back on the list"} on this device; it is sent when Forkcast can be reached.`);
      return;
    } catch { /* below */ }
  }
  show(item, !checked);
  showError("Forkcast cannot be reached, so this was not checked off. Try again in a moment.");
});

document.addEventListener("forkcast:refreshed", showWaiting);
showWaiting();

// --- A shared link's page: live, and checks kept on the phone while there is no signal ---

const shared = !pageAccount() && /^\/s\//.test(location.pathname);
const sharedKey = `forkcast-shared:${location.pathname}`;
const keptShared = () => { try { return JSON.parse(localStorage.getItem(sharedKey) ?? "{}"); } catch { return {}; } };
function keepShared(id, checked) {
  const kept = keptShared();
  kept[id] = checked;
  try { localStorage.setItem(sharedKey, JSON.stringify(kept)); } catch { /* private mode: not kept */ }
}

/** Checks kept on this phone, shown as made and sent; true when all of them went. */
async function sendShared() {
  const kept = keptShared();
  for (const [id, checked] of Object.entries(kept)) {
    const form = document.querySelector(`#item-${CSS.escape(id)} form[data-shopping-check]`);
    if (!form) { delete kept[id]; continue; }
    const body = new FormData(form);
    body.set("checked", String(checked));
    try {
      const response = await request(form.action, { method: "POST", body });
      if (response.status >= 500) break;
      delete kept[id]; // done, or refused for good (an item no longer there)
    } catch { break; }
  }
  try { localStorage.setItem(sharedKey, JSON.stringify(kept)); } catch { /* not kept */ }
  return Object.keys(kept).length === 0;
}

let reading = false;
async function readShared() {
  if (reading || document.hidden) return;
  reading = true;
  try {
    await sendShared();
    const response = await request(location.pathname, { fragment: "items" });
    const current = rows();
    if (response.ok && current && !document.querySelector(".shop-item[aria-busy=true]")) await swapFragment(current, response, "replace-self");
  } catch { /* no signal: the next round tries again */ } finally {
    for (const [id, checked] of Object.entries(keptShared())) {
      const item = document.getElementById(`item-${id}`);
      if (item) { show(item, checked); item.classList.add("pending"); }
    }
    reading = false;
  }
}

if (shared && rows()) {
  setInterval(readShared, 4000);
  window.addEventListener("online", readShared);
  document.addEventListener("visibilitychange", readShared);
  readShared();
}
