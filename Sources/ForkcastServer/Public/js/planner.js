// The weekly planner: week changes and day changes in place, a searchable meal picker, and drag
// and drop from the library panel on wide screens.
import { request, failureMessage, showError, clearError, announce, swapFragment, unexpectedAnswerMessage } from "/js/app.js";

const week = document.getElementById("week");
const startOfWeek = () => week.querySelector(".days")?.dataset.start ?? "";

/** A selector that finds the same control again after the week is swapped. */
function focusSelector(element) {
  if (element.id) return `#${CSS.escape(element.id)}`;
  if (element.dataset.pickDay) return `[data-pick-day="${CSS.escape(element.dataset.pickDay)}"]`;
  const label = element.getAttribute("aria-label");
  return label ? `[aria-label="${CSS.escape(label)}"]` : null;
}

/** Whether the week was brought up to date (a quiet reload that was not is tried again). */
async function loadWeek(url, { push = true, quiet = false } = {}) {
  if (push) history.pushState({}, "", url);
  week.setAttribute("aria-busy", "true");
  try {
    const response = await request(url, { fragment: "week" });
    if (!response.ok) { if (!quiet) showError(await failureMessage(response)); return false; }
    // A quiet reload (a change from another device) keeps the focus where it was.
    const focused = document.activeElement;
    const focusKey = week.contains(focused) ? focusSelector(focused) : null;
    // A quiet reload changes only what changed: a tap under way on the rest is not lost.
    if (!(await swapFragment(week, response, quiet ? "merge-children" : "replace-children"))) { if (!quiet) showError(unexpectedAnswerMessage); return false; }
    if (focusKey) week.querySelector(focusKey)?.focus();
    if (quiet) return true;
    clearError();
    announce(document.getElementById("week-title")?.textContent ?? "");
    return true;
  } catch {
    if (!quiet) showError("Forkcast could not be reached; the week was not changed.");
    return false;
  } finally {
    week.removeAttribute("aria-busy");
  }
}

week.addEventListener("click", (event) => {
  const link = event.target.closest("[data-week-nav]");
  if (!link) return;
  event.preventDefault();
  loadWeek(link.getAttribute("href"));
});
window.addEventListener("popstate", () => loadWeek(location.pathname + location.search, { push: false }));

// Changes from another device (the event stream, offline.js) appear without a reload; not while
// this page is itself changing a day, choosing a meal or dragging one.
// A quiet reload that failed (a busy server, a dropped connection) is tried again a few times, a
// second apart: no other change may come to bring the week up to date.
let dragging = false;
let liveTimer = null;
document.addEventListener("forkcast:changes", () => {
  clearTimeout(liveTimer);
  let tries = 0;
  liveTimer = setTimeout(async function follow() {
    if (dragging || document.getElementById("picker-dialog")?.open || week.querySelector("[aria-busy=true]") || week.getAttribute("aria-busy")) {
      liveTimer = setTimeout(follow, 1000);
      return;
    }
    const timer = liveTimer;
    const done = await loadWeek(location.pathname + location.search, { push: false, quiet: true });
    if (!done && ++tries < 5 && liveTimer === timer) liveTimer = setTimeout(follow, 1000);
  }, 300);
});

/** The week's totals line follows day changes. */
async function refreshWeekTotals() {
  try {
    const response = await request(`/plan?start=${startOfWeek()}`, { fragment: "week-totals" });
    if (!response.ok) return;
    // An empty answer removes the line; a non-HTML answer is treated like a failed one.
    const current = document.getElementById("week-line");
    if (current) await swapFragment(current, response, "replace-self");
    else await swapFragment(week.querySelector(".days"), response, "insert-before");
  } catch { /* the line catches up on the next load */ }
}

/** Sends a day change and swaps the returned day in place. */
async function changeDay(url, body, date, message) {
  const day = document.getElementById(`day-${date}`);
  day?.setAttribute("aria-busy", "true");
  try {
    const response = await request(url, { method: "POST", fragment: "day", body });
    if (!response.ok) { showError(await failureMessage(response)); return false; }
    const current = document.getElementById(`day-${date}`);
    if (current) {
      // The change is saved either way; only showing it needs an HTML answer.
      if (!(await swapFragment(current, response, "replace-self"))) { showError(unexpectedAnswerMessage); return true; }
    }
    clearError();
    announce(message);
    refreshWeekTotals();
    return true;
  } catch {
    showError("Forkcast could not be reached, so the plan was not changed. Try again in a moment.");
    return false;
  } finally {
    document.getElementById(`day-${date}`)?.removeAttribute("aria-busy");
  }
}

// Remove a meal from a day.
week.addEventListener("submit", (event) => {
  const form = event.target.closest("[data-day-action]");
  if (!form) return;
  event.preventDefault();
  const day = form.closest(".day");
  const name = form.closest(".planned-meal")?.querySelector(".planned-name")?.firstChild?.textContent ?? "Meal";
  if (form.dataset.dayAction === "servings") {
    // The stepper: the button pressed says how many portions.
    const servings = event.submitter?.value;
    const body = new FormData(form);
    if (servings) body.set("servings", servings);
    changeDay(form.action, body, day.dataset.date, `${name}: ${servings} portion${servings === "1" ? "" : "s"}.`);
    return;
  }
  form.closest(".planned-meal")?.classList.add("removing");
  changeDay(form.action, new FormData(form), day.dataset.date, `Removed ${name}.`);
});

// The picker dialog: search the library, add to the chosen day.
const dialog = document.getElementById("picker-dialog");
const search = document.getElementById("picker-search");
const resultsList = document.getElementById("picker-results");
const slot = document.getElementById("picker-slot");
let pickDate = null;
let pickTimer = null;

/** A plain-text line in the picker list. */
const mutedItem = (text) => Object.assign(document.createElement("li"), { className: "muted", textContent: text });

async function loadPicker() {
  const url = `/plan/add?date=${encodeURIComponent(pickDate)}&q=${encodeURIComponent(search.value.trim())}`;
  try {
    const response = await request(url, { fragment: "picker" });
    if (!response.ok) { showError(await failureMessage(response)); return; }
    if (!(await swapFragment(resultsList, response))) resultsList.replaceChildren(mutedItem(unexpectedAnswerMessage));
  } catch {
    resultsList.replaceChildren(mutedItem("Forkcast could not be reached."));
  }
}

week.addEventListener("click", (event) => {
  const link = event.target.closest("[data-pick-day]");
  if (!link || !dialog.showModal) return;
  event.preventDefault();
  pickDate = link.dataset.pickDay;
  dialog.querySelector("#picker-title").textContent = `Add a meal to ${link.dataset.dayName}`;
  search.value = "";
  // Each add starts as one day; Repeat is chosen for it.
  for (const box of dialog.querySelectorAll("[name=weekday]")) box.checked = false;
  dialog.querySelector("[name=everyWeeks]").value = "1";
  dialog.querySelector("[name=until]").value = "";
  dialog.querySelector(".repeat-choice").open = false;
  resultsList.replaceChildren();
  dialog.showModal();
  search.focus();
  loadPicker();
});
search.addEventListener("input", () => { clearTimeout(pickTimer); pickTimer = setTimeout(loadPicker, 120); });
dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => {
  document.querySelector(`#day-${pickDate} [data-pick-day]`)?.focus();
});
resultsList.addEventListener("submit", async (event) => {
  const form = event.target.closest("[data-pick-form]");
  if (!form) return;
  event.preventDefault();
  const body = new FormData(form);
  body.set("start", startOfWeek());
  // The slot chosen in the dialog ("For"); the result forms only carry the no-JavaScript page's.
  body.set("mealType", slot?.value ?? "");
  // The dialog's Repeat: with a weekday ticked, the meal goes on every day it falls on.
  const repeats = [...dialog.querySelectorAll("[name=weekday]:checked")].map((box) => box.value);
  for (const day of repeats) body.append("weekday", day);
  if (repeats.length) {
    body.set("everyWeeks", dialog.querySelector("[name=everyWeeks]").value);
    body.set("until", dialog.querySelector("[name=until]").value);
  }
  const name = form.querySelector("span")?.firstChild?.textContent?.trim() ?? "Meal";
  const added = await changeDay(form.action, body, pickDate, `Added ${name}${repeats.length ? " on every day it repeats" : ""}.`);
  if (!added) return;
  dialog.close();
  // A repeat reaches other days of the week: the whole week is read again.
  if (repeats.length) loadWeek(location.pathname + location.search, { push: false, quiet: true });
});
// "Mon–Fri": the five weekdays in one tap (the picker dialog and the picker page).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-workdays]");
  if (!button) return;
  for (const box of button.closest(".repeat-choice").querySelectorAll("[name=weekday]")) box.checked = Number(box.value) <= 5;
});

// Drag and drop from the library panel (wide screens).
const panel = document.querySelector(".library-panel");
const panelSearch = document.querySelector("[data-panel-search]");
let panelTimer = null;
panel?.addEventListener("dragstart", (event) => {
  const item = event.target.closest(".panel-meal");
  if (!item) return;
  event.dataTransfer.setData("text/forkcast-meal", item.dataset.mealId);
  event.dataTransfer.setData("text/plain", item.textContent);
  event.dataTransfer.effectAllowed = "copy";
  dragging = true;
});
panel?.addEventListener("dragend", () => { dragging = false; });
week.addEventListener("dragover", (event) => {
  const day = event.target.closest(".day");
  if (!day || !event.dataTransfer.types.includes("text/forkcast-meal")) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = "copy";
  day.classList.add("drop-target");
});
week.addEventListener("dragleave", (event) => event.target.closest(".day")?.classList.remove("drop-target"));
week.addEventListener("drop", (event) => {
  const day = event.target.closest(".day");
  if (!day) return;
  event.preventDefault();
  day.classList.remove("drop-target");
  const mealId = event.dataTransfer.getData("text/forkcast-meal");
  if (!mealId) return;
  const body = new URLSearchParams({ mealId, date: day.dataset.date, start: startOfWeek() });
  changeDay("/plan/assignments", body, day.dataset.date, `Added ${event.dataTransfer.getData("text/plain")}.`);
});
panelSearch?.addEventListener("input", () => {
  clearTimeout(panelTimer);
  panelTimer = setTimeout(async () => {
    try {
      const response = await request(`/plan/add?q=${encodeURIComponent(panelSearch.value.trim())}`, { fragment: "panel" });
      if (response.ok) await swapFragment(document.getElementById("panel-list"), response);
    } catch { /* the panel keeps its list */ }
  }, 120);
});
