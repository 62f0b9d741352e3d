// The plate: your usual foods one tap away, food rows that search all your foods, rows added and
// removed, and live totals (added up by the server, nothing saved) that include the quick add.
import { request, swapFragment } from "/js/app.js";
import { attachFoodPicker } from "/js/food-picker.js";
import { rememberFoods } from "/js/offline.js";

function enhance(form) {
  const rows = form.querySelector("#ingredient-rows");
  const addButton = form.querySelector("[data-add-ingredient]");
  const totals = document.getElementById("plate-totals");
  const usualBox = form.querySelector(".usual-foods");
  const usual = [...form.querySelectorAll(".food-chip")].map((chip) => ({
    id: chip.dataset.foodId, name: chip.dataset.name,
    usualPortion: { quantity: chip.dataset.usualQuantity, unit: chip.dataset.usualUnit },
  }));
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
  const setUp = (row) => attachFoodPicker(row.querySelector("[name=ingredientFood]"), { usual, onPick: refreshTotals });
  const addRow = () => {
    const template = rows.querySelector("[data-ingredient-row]");
    const row = template.cloneNode(true);
    row.querySelectorAll(".suggestions").forEach((s) => s.remove());
    row.querySelectorAll("input").forEach((input) => {
      input.value = "";
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      delete input.dataset.picker;
      delete input.dataset.usualQuantity;
      delete input.dataset.usualUnit;
    });
    row.querySelectorAll(".field-error").forEach((e) => e.remove());
    row.querySelector("select").value = "";
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
    input.dataset.usualQuantity = chip.dataset.usualQuantity;
    input.dataset.usualUnit = chip.dataset.usualUnit;
    refreshTotals();
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
      const chips = [...usualBox.querySelectorAll(".food-chip")].map((chip) => ({
        id: chip.dataset.foodId, name: chip.dataset.name,
        usualPortion: { quantity: chip.dataset.usualQuantity, unit: chip.dataset.usualUnit },
      }));
      usual.splice(0, usual.length, ...chips);
      rememberFoods(chips);
    } catch { /* offline: the chips stay as they were */ }
  });

  form.addEventListener("input", (event) => { if (/^(ingredient|quick\.|mealServings)/.test(event.target.name)) refreshTotals(); });
  form.addEventListener("change", refreshTotals);
  refreshTotals();
}

const start = () => { const form = document.getElementById("plate-form"); if (form) enhance(form); };
start();
// After a refused save the form comes back with its errors (offline.js swaps the card in).
document.addEventListener("forkcast:form-replaced", start);
