// The meal library (/meals): live filters kept in the URL, delete with confirmation.
import { request, showError, clearError, announce, failureMessage, swapFragment, unexpectedAnswerMessage } from "/js/app.js";

const filters = document.getElementById("meal-filters");
const results = document.getElementById("meal-results");
if (filters && results) {
  let controller = null;
  let typingTimer = null;

  const queryFromForm = () => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(filters)) if (value.trim() !== "") params.append(name, value.trim());
    return params.toString();
  };

  const syncFormFromURL = () => {
    const params = new URLSearchParams(location.search);
    filters.elements.q.value = params.get("q") ?? "";
    filters.elements.protein.value = params.get("protein") ?? "";
    filters.elements.carb.value = params.get("carb") ?? "";
    const chosen = params.getAll("component").map((c) => c.toLowerCase());
    for (const box of filters.querySelectorAll('input[name="component"]')) box.checked = chosen.includes(box.value.toLowerCase());
  };

  async function refresh(query, { push = true, quiet = false } = {}) {
    const url = "/meals" + (query ? "?" + query : "");
    if (push && url !== location.pathname + location.search) history.pushState({ filters: true }, "", url);
    controller?.abort();
    controller = new AbortController();
    results.setAttribute("aria-busy", "true");
    try {
      const response = await request(url, { fragment: "meal-list", signal: controller.signal });
      if (!response.ok) { showError(await failureMessage(response)); return; }
      if (!(await swapFragment(results, response))) { showError(unexpectedAnswerMessage); return; }
      clearError();
      const count = document.getElementById("meal-count")?.textContent ?? (document.getElementById("no-match") ? "No meals match" : "");
      if (!quiet) announce(count);
      updateClearLink(query);
    } catch (error) {
      if (error.name !== "AbortError") showError("Forkcast could not be reached; the list was not updated.");
    } finally {
      results.removeAttribute("aria-busy");
    }
  }

  const updateClearLink = (query) => {
    const actions = filters.querySelector(".filter-actions");
    let clear = actions.querySelector("[data-clear-filters]");
    if (query && !clear) {
      const link = Object.assign(document.createElement("a"), { className: "button subtle", href: "/meals", textContent: "Clear filters" });
      link.dataset.clearFilters = "";
      actions.append(link);
    } else if (!query && clear) {
      clear.remove();
    }
  };

  filters.addEventListener("change", (event) => {
    if (event.target.name === "q") return;
    refresh(queryFromForm());
  });
  filters.addEventListener("input", (event) => {
    if (event.target.name !== "q") return;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => refresh(queryFromForm()), 150);
  });
  filters.addEventListener("submit", (event) => { event.preventDefault(); refresh(queryFromForm()); });
  document.addEventListener("click", (event) => {
    const clear = event.target.closest("[data-clear-filters]");
    if (!clear) return;
    event.preventDefault();
    filters.reset();
    for (const el of filters.elements) { if (el.type === "checkbox") el.checked = false; else if (el.name) el.value = ""; }
    refresh("");
    filters.elements.q.focus();
  });
  window.addEventListener("popstate", () => { syncFormFromURL(); refresh(location.search.slice(1), { push: false }); });

  // Delete asks first, in a dialog; the card then leaves the list in place.
  const dialog = document.getElementById("delete-dialog");
  let deleting = null;
  results.addEventListener("click", (event) => {
    const link = event.target.closest("[data-delete-meal]");
    if (!link || !dialog?.showModal) return;
    event.preventDefault();
    deleting = link.closest(".meal");
    dialog.querySelector("#delete-text").textContent = `“${deleting.dataset.description}” will be removed from your library and from any day it is planned on.`;
    dialog.querySelector("form").action = link.getAttribute("href");
    dialog.showModal();
    dialog.querySelector("[data-close]").focus();
  });
  dialog?.querySelector("[data-close]").addEventListener("click", () => dialog.close());
  dialog?.querySelector("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const card = deleting;
    const name = card.dataset.description;
    dialog.close();
    card.classList.add("removing");
    try {
      const response = await request(event.target.action, { method: "POST", fragment: "delete", body: new FormData(event.target) });
      if (!response.ok) { card.classList.remove("removing"); showError(await failureMessage(response)); return; }
      card.remove();
      clearError();
      announce(`Deleted ${name}.`);
      await refresh(location.search.slice(1), { push: false, quiet: true });
    } catch {
      card.classList.remove("removing");
      showError("Forkcast could not be reached, so the meal was not deleted.");
    }
  });
}
