// A food field that searches all your foods as you type (the API's food search, which also
// matches inside words), offers your usual foods first when empty, and fills in the chosen food's
// id. Keyboard: arrows move, Enter picks, Escape closes. Used by the plate and the meal form.
import { request } from "/js/app.js";
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
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Foods");
  list.hidden = true;
  input.after(list);
  input.setAttribute("aria-controls", list.id);
  let foods = [];
  let active = -1;
  let timer = null;
  let controller = null;

  const close = () => { list.hidden = true; input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant"); active = -1; };
  const highlight = (index) => {
    active = index;
    [...list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === index)));
    if (index >= 0 && list.children[index]) {
      input.setAttribute("aria-activedescendant", list.children[index].id);
      list.children[index].scrollIntoView({ block: "nearest" });
    }
  };
  const show = (items, heading) => {
    foods = items;
    list.replaceChildren();
    items.forEach((food, i) => {
      const li = document.createElement("li");
      li.id = `${list.id}-${i}`;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.className = "suggestion";
      const name = Object.assign(document.createElement("span"), { className: "suggestion-name", textContent: food.name });
      li.append(name);
      if (food.brand) li.append(Object.assign(document.createElement("span"), { className: "muted", textContent: ` ${food.brand}` }));
      if (i === 0 && heading) li.dataset.heading = heading;
      li.addEventListener("pointerdown", (event) => { event.preventDefault(); pick(i); });
      list.append(li);
    });
    if (items.length === 0) { close(); return; }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    highlight(-1);
  };
  const pick = (index) => {
    const food = foods[index];
    if (!food) return;
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
        const response = await request(`/api/v1/foods?q=${encodeURIComponent(q)}&per=8`, { signal: controller.signal });
        if (!response.ok) return;
        const { items } = await response.json();
        rememberFoods(items);
        if (input.value.trim() === q) show(items);
      } catch { /* offline: the typed name is matched when logging */ }
    }, 120);
  };

  input.addEventListener("input", search);
  input.addEventListener("focus", () => { if (input.value.trim() === "" && usual.length) show(usual, "usual"); });
  input.addEventListener("blur", () => setTimeout(close, 100));
  input.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    if (event.key === "ArrowDown") { event.preventDefault(); highlight(Math.min(foods.length - 1, active + 1)); }
    else if (event.key === "ArrowUp") { event.preventDefault(); highlight(Math.max(0, active - 1)); }
    else if (event.key === "Enter" && active >= 0) { event.preventDefault(); pick(active); }
    else if (event.key === "Escape") { close(); }
  });
}
