// The food library: search as you type (your own foods only), list/grid, delete with confirmation,
// and Open Food Facts search as an explicit action with "Add" buttons.
import { request, failureMessage, showError, clearError, announce, swapFragment, unexpectedAnswerMessage } from "/js/app.js";

const form = document.getElementById("food-search");
const results = document.getElementById("food-results");
let typing = null;
let controller = null;

const params = () => {
  const p = new URLSearchParams();
  const q = form.elements.q.value.trim();
  if (q) p.set("q", q);
  if (form.elements.view.value === "grid") p.set("view", "grid");
  return p.toString();
};

async function refresh({ push = false } = {}) {
  const url = "/foods" + (params() ? "?" + params() : "");
  history[push ? "pushState" : "replaceState"]({}, "", url);
  controller?.abort();
  controller = new AbortController();
  try {
    const response = await request(url, { fragment: "food-list", signal: controller.signal });
    if (!response.ok) { showError(await failureMessage(response)); return; }
    if (!(await swapFragment(results, response))) { showError(unexpectedAnswerMessage); return; }
    clearError();
    announce(document.getElementById("food-count")?.textContent ?? "No foods match");
  } catch (error) {
    if (error.name !== "AbortError") showError("Forkcast could not be reached; the list was not updated.");
  }
}

// Remember the view choice on this device too.
const savedView = localStorage.getItem("forkcast.foodView");
if (savedView && !new URLSearchParams(location.search).has("view") && savedView === "grid") {
  form.querySelector('input[value="grid"]').checked = true;
  refresh();
}
form.addEventListener("input", (event) => {
  if (event.target.name !== "q") return;
  clearTimeout(typing);
  typing = setTimeout(refresh, 120);
});
form.addEventListener("change", (event) => {
  if (event.target.name !== "view") return;
  localStorage.setItem("forkcast.foodView", event.target.value);
  document.getElementById("food-list")?.classList.toggle("grid", event.target.value === "grid");
  history.replaceState({}, "", "/foods" + (params() ? "?" + params() : ""));
});
form.addEventListener("submit", (event) => { event.preventDefault(); refresh({ push: true }); });

// Delete asks first.
const dialog = document.getElementById("delete-food-dialog");
let deleting = null;
results.addEventListener("click", (event) => {
  const link = event.target.closest("[data-delete-food]");
  if (!link || !dialog.showModal) return;
  event.preventDefault();
  deleting = link.closest(".food");
  dialog.querySelector("#delete-food-text").textContent = `“${deleting.dataset.name}” will be removed from your foods.`;
  dialog.querySelector("form").action = link.getAttribute("href");
  dialog.showModal();
  dialog.querySelector("[data-close]").focus();
});
dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
dialog.querySelector("form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const card = deleting;
  dialog.close();
  try {
    const response = await request(event.target.action, { method: "POST", fragment: "delete", body: new FormData(event.target) });
    if (!response.ok) { showError(await failureMessage(response)); return; }
    card.remove();
    clearError();
    announce(`Deleted ${card.dataset.name}.`);
    refresh();
  } catch {
    showError("Forkcast could not be reached, so the food was not deleted.");
  }
});

// Open Food Facts: only when asked.
const offForm = document.getElementById("off-form");
const offResults = document.getElementById("off-results");
/** Puts one plain-text paragraph in the Open Food Facts area. */
const offMessage = (text, { error = false } = {}) => {
  const p = document.createElement("p");
  p.className = error ? "form-error" : "muted";
  if (error) p.setAttribute("role", "alert");
  p.textContent = text;
  offResults.replaceChildren(p);
};
offForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const q = offForm.elements.q.value.trim();
  offMessage("Asking Open Food Facts…");
  try {
    const response = await request(`/foods/openfoodfacts?q=${encodeURIComponent(q)}`, { fragment: "off-results" });
    if (!response.ok) offMessage(await failureMessage(response), { error: true });
    else if (!(await swapFragment(offResults, response))) offMessage(unexpectedAnswerMessage, { error: true });
    announce(offResults.textContent.trim().slice(0, 120));
  } catch {
    offMessage("Forkcast could not be reached.", { error: true });
  }
});
offResults.addEventListener("submit", async (event) => {
  const importForm = event.target.closest("[data-import-form]");
  if (!importForm) return;
  event.preventDefault();
  try {
    const response = await request(importForm.action, { method: "POST", fragment: "import", body: new FormData(importForm) });
    if (response.status === 204) { location.assign(response.headers.get("X-Redirect") || "/foods"); return; }
    showError(await failureMessage(response));
  } catch {
    showError("Forkcast could not be reached, so nothing was added.");
  }
});
