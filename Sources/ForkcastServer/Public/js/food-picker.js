// A food field that searches all your foods as you type (the API's food search, which also
// matches inside words), then the food catalogue (USDA foods nobody has to type in), offers your
// usual foods first when empty, and fills in the chosen food's id. A catalogue food becomes one of
// your foods when chosen (the same one every time). The suggestions are buttons under the field
// (announced as they change): Arrow Down moves into them, arrows move between them, Escape goes
// back to the field. Used by the plate and the meal form.
import { request, announce, failureMessage } from "/js/app.js";
import { apiPath } from "/js/api.js";
import { rememberFoods } from "/js/offline.js";

let counter = 0;

/** `usual`: [{id, name, usualPortion}] offered when the field is empty. `onPick(food)` after a choice. */
export function attachFoodPicker(input, { usual = [], onPick = () => {} } = {}) {
  if (input.dataset.picker) return;
  input.dataset.picker = "on";
  const idInput = input.parentElement.querySelector("[name=ingredientFoodId]");
  const list = document.createElement("ul");
  list.className = "suggestions";
  list.id = `food-suggestions-${++counter}`;
  list.setAttribute("aria-label", "Matching foods");
  list.hidden = true;
  input.after(list);
  let foods = [];
  let timer = null;
  let controller = null;

  const buttons = () => [...list.querySelectorAll("button")];
  const close = () => { list.hidden = true; };
  const show = (items, heading) => {
    foods = items;
    list.replaceChildren();
    items.forEach((food, i) => {
      const li = document.createElement("li");
      const button = Object.assign(document.createElement("button"), { type: "button", className: "suggestion" });
      button.append(Object.assign(document.createElement("span"), { className: "suggestion-name", textContent: food.name }));
      if (food.brand) button.append(Object.assign(document.createElement("span"), { className: "muted", textContent: ` ${food.brand}` }));
      if (food.catalogId && !food.id) {
        button.dataset.catalog = "";
        const part = { survey: "USDA survey", branded: "USDA branded" }[food.source] ?? "USDA";
        button.append(Object.assign(document.createElement("span"), { className: "catalog-tag", textContent: part }));
      }
      if (i === 0 && heading) li.dataset.heading = heading;
      if (food.catalogId && !food.id && (i === 0 || !(foods[i - 1].catalogId && !foods[i - 1].id))) li.dataset.heading = "catalog";
      // pointerdown keeps the focus in the field (no blur before the choice), click serves keyboards.
      button.addEventListener("pointerdown", (event) => { event.preventDefault(); pick(i); });
      button.addEventListener("click", () => pick(i));
      li.append(button);
      list.append(li);
    });
    if (items.length === 0) { close(); return; }
    list.hidden = false;
    announce(`${items.length} ${heading === "usual" ? "usual foods" : "foods"} to choose from below.`);
  };
  const pick = async (index) => {
    let food = foods[index];
    if (!food || list.hidden) return;
    if (!food.id) {
      // A catalogue food: made one of yours now (the same food if it already is).
      input.value = food.name;
      close();
      try {
        const response = await request(apiPath("importFood"), { method: "POST", body: { catalogId: food.catalogId } });
        if (!response.ok) { announce(await failureMessage(response)); return; }
        food = await response.json();
        rememberFoods([food]);
      } catch {
        announce("Could not reach Forkcast to add this food; try again when online.");
        return;
      }
      list.hidden = false;
    }
    input.value = food.name;
    if (idInput) idInput.value = food.id;
    if (food.usualPortion) {
      input.dataset.usualQuantity = food.usualPortion.quantity;
      input.dataset.usualUnit = food.usualPortion.unit;
    }
    close();
    input.removeAttribute("aria-invalid");
    input.dispatchEvent(new Event("change", { bubbles: true }));
    onPick(food);
  };
  const search = () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (idInput && !foods.some((f) => f.name === input.value && f.id === idInput.value)) idInput.value = "";
    if (q === "") { show(usual, "usual"); return; }
    timer = setTimeout(async () => {
      controller?.abort();
      controller = new AbortController();
      try {
        const response = await request(`${apiPath("listFoods")}?q=${encodeURIComponent(q)}&per=8`, { signal: controller.signal });
        if (!response.ok) return;
        const { items } = await response.json();
        rememberFoods(items);
        if (input.value.trim() !== q) return;
        show(items);
        if (q.length < 2) return;
        // Then the catalogue: its foods you have not made yours yet, after your own.
        const more = await request(`${apiPath("searchFoodCatalog")}?q=${encodeURIComponent(q)}&per=${Math.max(4, 10 - items.length)}`, { signal: controller.signal });
        if (!more.ok || input.value.trim() !== q) return;
        const own = new Set(items.map((f) => f.id));
        const catalog = (await more.json()).items.filter((c) => !own.has(c.foodId))
          .map((c) => (c.foodId ? { id: c.foodId, name: c.name } : { catalogId: c.catalogId, name: c.name, source: c.source }));
        show([...items, ...catalog]);
      } catch { /* offline: the typed name is matched when logging */ }
    }, 120);
  };
  const leaveSoon = () => setTimeout(() => {
    if (document.activeElement !== input && !list.contains(document.activeElement)) close();
  }, 150);

  input.addEventListener("input", search);
  input.addEventListener("focus", () => { if (input.value.trim() === "" && usual.length) show(usual, "usual"); });
  input.addEventListener("blur", leaveSoon);
  list.addEventListener("focusout", leaveSoon);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" && !list.hidden) { event.preventDefault(); buttons()[0]?.focus(); }
    else if (event.key === "Escape") close();
  });
  list.addEventListener("keydown", (event) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement);
    if (event.key === "ArrowDown") { event.preventDefault(); all[Math.min(all.length - 1, at + 1)]?.focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); if (at <= 0) input.focus(); else all[at - 1].focus(); }
    else if (event.key === "Escape") { close(); input.focus(); }
  });
}
