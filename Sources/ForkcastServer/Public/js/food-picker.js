// A food field that searches all your foods as you type (the API's food search, which also
// matches inside words), offers your usual foods first when empty, and fills in the chosen food's
// id. The suggestions are buttons under the field (announced as they change): Arrow Down moves into
// them, arrows move between them, Escape goes back to the field. Used by the plate and the meal form.
import { request, announce } from "/js/app.js";
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
      if (i === 0 && heading) li.dataset.heading = heading;
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
  const pick = (index) => {
    const food = foods[index];
    if (!food || list.hidden) return;
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
        if (input.value.trim() === q) show(items);
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
