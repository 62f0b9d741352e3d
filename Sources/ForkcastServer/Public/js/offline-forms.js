// A logging form is sent as usual; when the server cannot be reached, what it says goes to the
// outbox as entries. Loaded by offline.js.
import { request, announce, showError, clearError, swapFragment } from "/js/app.js";
import { PLATE_LIMIT, knownFood } from "/js/outbox.js";
import { queueEntries, queueEaten, markPlanned } from "/js/outbox-status.js";

// --- Turning forms into outbox entries when the server cannot be reached ---

// What a field says, as typed ("1,5"): the server reads it as a number when the change is sent.
const typed = (text) => {
  const t = String(text ?? "").trim();
  return t === "" ? null : t;
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
    const typedQuantity = typed(row.querySelector("[name=ingredientQuantity]").value);
    const typedUnit = row.querySelector("[name=ingredientUnit]").value;
    if (typedQuantity === null && typedUnit === "") {
      entries.push({ record: { ...base, foodId }, display: { name, amount: usual ? `${usual.quantity} ${usual.unit}` : "usual portion", date, mealType } });
      continue;
    }
    if (typedQuantity === null) { problems.push(`How much ${name}?`); continue; }
    // A named portion goes as its option says ("portion:128"); the server logs its grams.
    const portion = typedUnit.startsWith("portion:") ? typedUnit.slice(8) : null;
    const record = { quantity: typedQuantity, ...(typedUnit ? { unit: typedUnit } : {}) };
    entries.push({ record: { ...base, foodId, ...record },
                   display: { name, amount: portion ? `${typedQuantity} × ${portion} g` : `${typedQuantity} ${typedUnit || basis || "g or ml"}`, date, mealType } });
  }
  const mealSelect = form.elements.mealId;
  if (mealSelect?.value) {
    // No servings typed: the server logs its default (shown from the page's data-default-servings).
    const servings = typed(form.elements.mealServings?.value);
    const shown = servings ?? form.dataset.defaultServings;
    entries.push({ record: { ...base, mealId: mealSelect.value, ...(servings === null ? {} : { servings }) },
                   display: { name: mealSelect.selectedOptions[0].textContent, amount: `${shown} serving${shown === "1" ? "" : "s"}`, date, mealType } });
  }
  // Anything typed in the quick add is sent as one: the server decides what it needs (its
  // calories), so macros typed without them are refused when it answers, not dropped here.
  const quickAdd = {};
  for (const key of ["energyKcal", "protein", "carbohydrates", "fat"]) {
    const v = typed(form.elements[`quick.${key}`]?.value);
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
    if (kind === "eaten") {
      // Kept as the call it is: the server logs each eater and takes from the pantry when it is back.
      try {
        await queueEaten({ assignmentId: form.dataset.assignment, display: { name: form.dataset.name, amount: "· we ate this", date: form.dataset.date,
                                                                          mealType: form.dataset.mealType, assignmentId: form.dataset.assignment } });
      } catch (problem) {
        showError(`Forkcast cannot be reached, and this cannot be kept for later: ${problem.message}`);
        return;
      }
      clearError();
      form.replaceWith(Object.assign(document.createElement("p"), { id: "ate-kept", className: "offline-note", role: "status",
        textContent: "Forkcast cannot be reached: “We ate this” is kept on this device and logged when it is back. Nobody is logged twice." }));
      announce("Kept on this device until Forkcast can be reached.");
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
