// The plate: your usual foods one tap away, food rows that search all your foods, rows added and
// removed, and live totals (added up by the server, nothing saved) that include the quick add.
import { request, swapFragment } from "/js/app.js";
import { attachFoodPicker } from "/js/food-picker.js";
import { apiPath } from "/js/api.js";
import { rememberFoods } from "/js/offline.js";

function enhance(form) {
  const rows = form.querySelector("#ingredient-rows");
  const addButton = form.querySelector("[data-add-ingredient]");
  const totals = document.getElementById("plate-totals");
  const usualBox = form.querySelector(".usual-foods");
  const fromChip = (chip) => ({
    id: chip.dataset.foodId, name: chip.dataset.name, basis: chip.dataset.basis, catalogId: chip.dataset.catalogId,
    fill: { quantity: chip.dataset.quantity, unit: chip.dataset.unit }, servingLabel: chip.dataset.serving,
  });
  const usual = [...form.querySelectorAll(".food-chip")].map(fromChip);
  rememberFoods(usual);
  if (usualBox) usualBox.hidden = false;
  addButton.hidden = false;
  let totalsTimer = null;

  const refreshTotals = () => {
    clearTimeout(totalsTimer);
    totalsTimer = setTimeout(async () => {
      try {
        const response = await request(form.getAttribute("action"), { method: "POST", fragment: "plate-totals", body: new FormData(form) });
        if (response.ok) await swapFragment(totals, response);
      } catch { /* offline: the totals wait */ }
    }, 200);
  };

  const renumber = () => {
    [...rows.querySelectorAll("[data-ingredient-row]")].forEach((row, i) => {
      const n = i + 1;
      for (const [selector, prefix] of [["[name=ingredientFood]", "ingredient-food-"], ["[name=ingredientQuantity]", "ingredient-qty-"], ["[name=ingredientUnit]", "ingredient-unit-"]]) {
        const input = row.querySelector(selector);
        input.id = prefix + n;
        input.closest(".field").querySelector("label").htmlFor = prefix + n;
      }
      row.querySelector('label[for^="ingredient-food"]').textContent = `Food ${n}`;
      row.querySelector("[data-remove-ingredient]").setAttribute("aria-label", `Remove food ${n}`);
      row.querySelector("[data-remove-ingredient]").hidden = false;
    });
  };
  // A chosen food's row says what its number means: the food's own unit (g or ml) or its serving
  // by name, chosen; an amount the page filled in is the one last eaten (or the usual portion).
  const showAmount = (row, food) => {
    const amount = row.querySelector("[name=ingredientQuantity]");
    const select = row.querySelector("[name=ingredientUnit]");
    const basis = food.basis === "ml" ? "ml" : "g";
    const serving = food.servingLabel ?? (food.serving ? (food.serving.label ? `${food.serving.label} (${food.serving.size} ${food.serving.unit})` : `${food.serving.size} ${food.serving.unit}`) : "");
    select.querySelectorAll("option[data-portion]").forEach((o) => o.remove());
    // The food's unit is offered once: "g/ml" (no food yet) and the other unit go from the menu.
    for (const option of select.options) {
      if (option.value === "serving") { option.textContent = serving ? `× ${serving}` : "serving"; option.disabled = !serving; }
      else option.disabled = option.value !== basis;
      option.hidden = option.disabled && option.value !== "serving";
    }
    // The catalogue's other named portions ("1 cup, chopped (128 g)"), chosen, never implied.
    for (const p of (food.portions ?? []).slice(1)) {
      if (basis !== "g" || !(p.grams > 0)) continue;
      const option = Object.assign(document.createElement("option"), { value: `portion:${p.grams}`, textContent: `× ${p.name}` });
      option.dataset.portion = "";
      select.append(option);
    }
    // A food not eaten lately: its usual portion, shown in its own unit (one serving's grams).
    const fill = food.fill ?? { quantity: food.serving?.size ?? 100, unit: basis };
    if (amount.value.trim() === "" || amount.value === amount.dataset.filled) {
      amount.value = amount.dataset.filled = String(fill.quantity);
      select.value = fill.unit === "serving" && !serving ? basis : fill.unit;
    } else if (select.value === "" || select.selectedOptions[0]?.disabled) {
      select.value = basis;
    }
  };
  const setUp = (row) => {
    // An amount the page filled in is selected when the field is entered: typing replaces it
    // ("150" over a filled 54 made 54150).
    row.querySelector("[name=ingredientQuantity]").addEventListener("focus", (event) => {
      const amount = event.target;
      if (amount.dataset.filled && amount.value === amount.dataset.filled) amount.select();
    });
    attachFoodPicker(row.querySelector("[name=ingredientFood]"), {
      usual, onPick: (food) => { showAmount(row, food); refreshTotals(); },
    });
  };
  const addRow = () => {
    const template = rows.querySelector("[data-ingredient-row]");
    const row = template.cloneNode(true);
    row.querySelectorAll(".suggestions").forEach((s) => s.remove());
    row.querySelectorAll("input").forEach((input) => {
      input.value = "";
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      delete input.dataset.picker;
      delete input.dataset.basis;
      delete input.dataset.filled;
    });
    row.querySelectorAll(".field-error").forEach((e) => e.remove());
    row.querySelector("select").value = "";
    for (const option of row.querySelector("select").options) option.disabled = option.hidden = false;
    rows.append(row);
    renumber();
    setUp(row);
    return row;
  };
  rows.querySelectorAll("[data-ingredient-row]").forEach(setUp);
  renumber();

  addButton.addEventListener("click", () => addRow().querySelector("[name=ingredientFood]").focus());
  rows.addEventListener("click", (event) => {
    const button = event.target.closest("[data-remove-ingredient]");
    if (!button) return;
    const row = button.closest("[data-ingredient-row]");
    if (rows.querySelectorAll("[data-ingredient-row]").length === 1) {
      row.querySelectorAll("input").forEach((i) => { i.value = ""; });
    } else {
      row.remove();
    }
    renumber();
    addButton.focus();
    refreshTotals();
  });

  // A usual food goes into the first empty row (a new row when all are taken).
  usualBox?.addEventListener("click", (event) => {
    const chip = event.target.closest(".food-chip");
    if (!chip) return;
    const empty = [...rows.querySelectorAll("[data-ingredient-row]")].find((r) => r.querySelector("[name=ingredientFood]").value.trim() === "");
    const row = empty ?? addRow();
    const input = row.querySelector("[name=ingredientFood]");
    input.value = chip.dataset.name;
    row.querySelector("[name=ingredientFoodId]").value = chip.dataset.foodId;
    input.dataset.basis = chip.dataset.basis;
    const food = fromChip(chip);
    showAmount(row, food);
    refreshTotals();
    // A catalogue food's other named portions, offered when they arrive.
    if (food.catalogId) {
      request(apiPath("getCatalogFood", { catalogId: food.catalogId }))
        .then(async (answer) => { if (answer.ok) showAmount(row, { ...food, portions: (await answer.json()).portions }); })
        .catch(() => { /* offline: the serving alone */ });
    }
  });

  // The usual foods follow the meal type chosen (Breakfast's are not Dinner's).
  form.elements.mealType?.addEventListener("change", async () => {
    const query = new URLSearchParams({ date: form.elements.date?.value ?? "", mealType: form.elements.mealType.value });
    try {
      const response = await request(`${form.getAttribute("action")}?${query}`, { fragment: "usual-foods" });
      if (!response.ok) return;
      const current = usualBox?.querySelector("ul.chips");
      if (!current) return;
      if (!(await swapFragment(current, response, "replace-self"))) return;
      const chips = [...usualBox.querySelectorAll(".food-chip")].map(fromChip);
      usual.splice(0, usual.length, ...chips);
      rememberFoods(chips);
    } catch { /* offline: the chips stay as they were */ }
  });

  // An amount the page filled in is replaced by what is typed, not added to.
  rows.addEventListener("focusin", (event) => {
    const input = event.target;
    if (input.name === "ingredientQuantity" && input.value !== "" && input.value === input.dataset.filled) input.select();
  });
  form.addEventListener("input", (event) => { if (/^(ingredient|quick\.|mealServings)/.test(event.target.name)) refreshTotals(); });
  form.addEventListener("change", refreshTotals);
  refreshTotals();
}

const start = () => { const form = document.getElementById("plate-form"); if (form) enhance(form); };
start();
// After a refused save the form comes back with its errors (offline.js swaps the card in).
document.addEventListener("forkcast:form-replaced", start);
