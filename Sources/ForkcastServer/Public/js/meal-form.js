// The meal form: components as chips, and saving without a page load. When saving fails the
// form stays as typed and says why (seed 002 Req 7.4).
import { request, offlineMessage, swapFragment } from "/js/app.js";
import { attachFoodPicker } from "/js/food-picker.js";

function enhanceChips(form) {
  const chips = form.querySelector("#component-chips");
  const input = form.querySelector("#field-newComponents");
  const addButton = form.querySelector("[data-add-component]");
  if (!chips || !input) return;
  addButton.hidden = false;

  // With scripts a chip is its name, a hidden input and a remove button (without them it is a checkbox).
  const decorate = (label) => {
    if (label.querySelector(".chip-remove")) return;
    const box = label.querySelector("input");
    const name = box.value;
    box.replaceWith(Object.assign(document.createElement("input"), { type: "hidden", name: "component", value: name }));
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-remove";
    remove.setAttribute("aria-label", `Remove ${name}`);
    remove.textContent = "×";
    remove.addEventListener("click", () => {
      label.remove();
      input.focus();
    });
    label.append(remove);
  };
  chips.querySelectorAll(".chip").forEach(decorate);

  // Chips show what was typed, comma by comma; which names count as the same component (case,
  // spaces) is the server's rule, applied when the meal is saved (ForkcastCore's MealDraft).
  const addFromInput = () => {
    for (const name of input.value.split(",")) {
      if (name === "") continue;
      const label = document.createElement("span");
      label.className = "chip removable";
      const box = Object.assign(document.createElement("input"), { type: "hidden", name: "component", value: name });
      const text = document.createElement("span");
      text.textContent = name;
      label.append(box, text);
      chips.append(label);
      decorate(label);
      form.querySelector("#no-components")?.remove();
    }
    input.value = "";
  };
  addButton.addEventListener("click", addFromInput);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === ",") { event.preventDefault(); addFromInput(); }
  });
}

/** Ingredient rows: add and remove rows, suggestions from your foods as you type, live totals. */
function enhanceIngredients(form) {
  const rows = form.querySelector("#ingredient-rows");
  if (!rows) return;
  const options = form.querySelector("#food-options");
  const totals = form.querySelector("#meal-totals");
  const addButton = form.querySelector("[data-add-ingredient]");
  addButton.hidden = false;
  let totalsTimer = null;

  const renumber = () => {
    [...rows.querySelectorAll("[data-ingredient-row]")].forEach((row, i) => {
      const n = i + 1;
      row.querySelector('label[for^="ingredient-food"]').textContent = `Food ${n}`;
      for (const [selector, prefix] of [["[name=ingredientFood]", "ingredient-food-"], ["[name=ingredientQuantity]", "ingredient-qty-"], ["[name=ingredientUnit]", "ingredient-unit-"]]) {
        const input = row.querySelector(selector);
        input.id = prefix + n;
        input.closest(".field").querySelector("label").htmlFor = prefix + n;
      }
      row.querySelector("[data-remove-ingredient]").setAttribute("aria-label", `Remove ingredient ${n}`);
    });
  };
  const showRemove = () => rows.querySelectorAll("[data-remove-ingredient]").forEach((b) => { b.hidden = false; });
  showRemove();

  const chooseFood = (input) => {
    const match = [...options.options].find((o) => o.value.toLowerCase() === input.value.trim().toLowerCase());
    if (match) input.parentElement.querySelector("[name=ingredientFoodId]").value = match.dataset.id;
  };

  const refreshTotals = () => {
    clearTimeout(totalsTimer);
    totalsTimer = setTimeout(async () => {
      try {
        const response = await request("/meals/totals", { method: "POST", fragment: "meal-totals", body: new FormData(form) });
        if (response.ok) await swapFragment(totals, response);
      } catch { /* totals stay as they were */ }
    }, 200);
  };

  // Lines kept as written have no food to pick: only food rows get suggestions.
  const pickers = () => rows.querySelectorAll("[data-ingredient-row] [name=ingredientFood]").forEach((input) => attachFoodPicker(input, { onPick: refreshTotals }));
  pickers();

  addButton.addEventListener("click", () => {
    const template = rows.querySelector("[data-ingredient-row]");
    const row = template.cloneNode(true);
    row.querySelectorAll(".suggestions").forEach((s) => s.remove());
    row.querySelectorAll("input").forEach((input) => { input.value = ""; input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); delete input.dataset.picker; });
    row.querySelectorAll(".field-error").forEach((e) => e.remove());
    row.querySelector("select").value = "g";
    rows.append(row);
    renumber();
    showRemove();
    pickers();
    row.querySelector("[name=ingredientFood]").focus();
  });
  rows.addEventListener("click", (event) => {
    const button = event.target.closest("[data-remove-ingredient]");
    if (!button) return;
    const all = rows.querySelectorAll("[data-ingredient-row]");
    const row = button.closest("[data-ingredient-row]");
    if (all.length === 1) { row.querySelectorAll("input").forEach((i) => { i.value = ""; }); } else { row.remove(); }
    renumber();
    addButton.focus();
    refreshTotals();
  });
  form.addEventListener("input", (event) => {
    if (event.target.name === "ingredientFood" && event.target.closest("[data-ingredient-row]")) chooseFood(event.target);
    if (/^(ingredient|servings|nutrition\.)/.test(event.target.name)) refreshTotals();
  });
  form.addEventListener("change", (event) => {
    if (event.target.name === "ingredientFood" && event.target.closest("[data-ingredient-row]")) chooseFood(event.target);
    if (/^(ingredient|servings|nutrition\.)/.test(event.target.name)) refreshTotals();
  });
}

function enhance(form) {
  enhanceChips(form);
  enhanceIngredients(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const message = document.getElementById("form-message");
    const submit = form.querySelector('button[type="submit"]');
    submit.disabled = true;
    submit.setAttribute("aria-busy", "true");
    try {
      const response = await request(form.action, { method: "POST", fragment: "form", body: new FormData(form) });
      if (response.status === 204) {
        location.assign(response.headers.get("X-Redirect") || "/meals");
        return;
      }
      // An HTML answer is the whole page with the form's errors and the input as typed: only its
      // form card replaces ours (swapFragment leaves any other answer unread for the message below).
      if (await swapFragment(document.querySelector(".form-card"), response, "replace-self", { pick: ".form-card" })) {
        const fresh = document.getElementById("meal-form");
        enhance(fresh);
        (fresh.querySelector('[aria-invalid="true"]') || document.getElementById("form-message")).focus();
        return;
      }
      let detail = `Could not save (HTTP ${response.status}). Nothing was saved — your input is still here.`;
      try { detail = (await response.json()).detail || detail; } catch { /* keep */ }
      message.textContent = detail;
      message.hidden = false;
      message.focus();
    } catch {
      message.textContent = offlineMessage;
      message.hidden = false;
      message.setAttribute("tabindex", "-1");
      message.focus();
    } finally {
      submit.disabled = false;
      submit.removeAttribute("aria-busy");
    }
  });
}

const form = document.getElementById("meal-form");
if (form) enhance(form);
