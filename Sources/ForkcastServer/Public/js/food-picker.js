// A food field for the plate and the meal form: searches your foods as you type, then the food
// catalogue (a catalogue food becomes yours when chosen), offers your usual foods when empty, and
// fills in the chosen food's id. Suggestions are buttons under the field (announced; Arrow Down goes
// in, Escape back). It never dead-ends: "Search Open Food Facts for …" and "Create …" close the list.
import { request, announce, failureMessage, suggestionKeys } from "/js/app.js";
import { apiPath, minimumSearchLength } from "/js/api.js";
import { openCreateDialog } from "/js/food-create.js";
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

  const close = () => { list.hidden = true; };
  // A problem with this row shows under its field, where the person is looking (and is announced).
  const problemId = `${input.id || list.id}-problem`;
  const showProblem = (message) => {
    let p = document.getElementById(problemId);
    if (!p) {
      p = Object.assign(document.createElement("p"), { className: "field-error", id: problemId });
      list.after(p);
    }
    p.textContent = message;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", problemId);
    announce(message);
  };
  const clearProblem = () => {
    document.getElementById(problemId)?.remove();
    if (input.getAttribute("aria-describedby") === problemId) { input.removeAttribute("aria-describedby"); input.removeAttribute("aria-invalid"); }
  };
  // The actions after the matches ({kind, label, run}), each keeping its list element when shown
  // again (the catalogue answering later), so a tap or the focus on it is not lost.
  let actionNodes = new Map();
  const actionNode = (action) => {
    const key = `${action.kind}\n${action.label}`;
    let li = actionNodes.get(key);
    if (!li) {
      li = document.createElement("li");
      li.className = "suggestion-action";
      const button = Object.assign(document.createElement("button"), { type: "button", className: "suggestion", textContent: action.label });
      button.dataset.action = action.kind;
      // pointerdown keeps the focus in the field; the action runs once, on click (touch, mouse, keys).
      button.addEventListener("pointerdown", (event) => event.preventDefault());
      button.addEventListener("click", () => li.action.run());
      li.append(button);
    }
    li.action = action;
    return [key, li];
  };
  const show = (items, heading, offered = []) => {
    foods = items;
    const next = new Map(offered.map(actionNode));
    actionNodes = next;
    const kept = new Set(next.values());
    for (const li of [...list.children]) if (!kept.has(li)) li.remove();
    const firstAction = list.firstElementChild;
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
      if (food.offBarcode && !food.id) {
        button.dataset.off = "";
        button.append(Object.assign(document.createElement("span"), { className: "catalog-tag", textContent: "Open Food Facts" }));
      }
      if (i === 0 && heading) li.dataset.heading = heading;
      if (food.catalogId && !food.id && (i === 0 || !(foods[i - 1].catalogId && !foods[i - 1].id))) li.dataset.heading = "catalog";
      // pointerdown keeps the focus in the field (no blur before the choice), click serves keyboards.
      button.addEventListener("pointerdown", (event) => { event.preventDefault(); pick(i); });
      button.addEventListener("click", () => pick(i));
      li.append(button);
      list.insertBefore(li, firstAction);
    });
    // Kept actions stay where they are (in the order offered); new ones follow them.
    for (const li of next.values()) if (li.parentNode !== list) list.append(li);
    if (items.length === 0 && offered.length === 0) { close(); return; }
    list.hidden = false;
    const what = items.length === 0 ? "No food by this name yet" : `${items.length} ${heading === "usual" ? "usual foods" : "foods"} to choose from below`;
    announce(offered.length ? `${what}; or search Open Food Facts, or create it.` : `${what}.`);
  };

  /** The actions for a typed name that is not exactly one of the foods shown. */
  const actionsFor = (q, items) => {
    if (q.length < minimumSearchLength) return [];
    const key = q.toLocaleLowerCase();
    const exact = items.some((f) => f.name.toLocaleLowerCase() === key);
    const offered = [{ kind: "openfoodfacts", label: `Search Open Food Facts for “${q}”`, run: () => searchOpenFoodFacts(q, items) }];
    if (!exact) offered.push({ kind: "create", label: `Create “${q}”…`, run: () => createFood(q) });
    return offered;
  };

  // The query Open Food Facts was asked for: the catalogue's answer, coming later, does not replace it.
  let offFor = null;
  const searchOpenFoodFacts = async (q, shown) => {
    offFor = q;
    announce("Asking Open Food Facts…");
    try {
      const response = await request(`${apiPath("searchOpenFoodFacts")}?q=${encodeURIComponent(q)}`);
      if (!response.ok) { showProblem(await failureMessage(response)); return; }
      // Products are imported by their barcode when chosen; one without a barcode cannot be.
      const products = (await response.json()).items.filter((p) => p.barcode)
        .map((p) => ({ offBarcode: p.barcode, name: p.name, brand: p.brand }));
      if (input.value.trim() !== q) return;
      show([...shown, ...products], undefined, actionsFor(q, shown).filter((a) => a.kind === "create"));
      if (products.length === 0) announce(`Open Food Facts has no product called “${q}”; create it instead.`);
    } catch {
      showProblem("Could not reach Open Food Facts; create the food instead.");
    }
  };

  const createFood = (q) => {
    close();
    openCreateDialog(q, (food) => {
      rememberFoods([food]);
      foods = [food];
      list.hidden = false;
      pick(0);
      announce(`Created ${food.name}.`);
      input.focus();
    }, () => input.focus());
  };
  const pick = async (index) => {
    let food = foods[index];
    if (!food || list.hidden) return;
    if (!food.id) {
      // A catalogue food or an Open Food Facts product: made one of yours now (the same food if it already is).
      input.value = food.name;
      close();
      try {
        const body = food.offBarcode ? { barcode: food.offBarcode } : { catalogId: food.catalogId };
        const response = await request(apiPath("importFood"), { method: "POST", body });
        if (!response.ok) { showProblem(`${food.name} could not be added: ${await failureMessage(response)}`); return; }
        // The catalogue's named portions go with it to the row (a person's food keeps only the first).
        food = { ...(await response.json()), portions: food.portions };
        rememberFoods([food]);
      } catch {
        showProblem("Could not reach Forkcast to add this food; try again when online.");
        return;
      }
      list.hidden = false;
    }
    input.value = food.name;
    if (idInput) idInput.value = food.id;
    if (food.basis) input.dataset.basis = food.basis;
    // One of your foods from the catalogue: its named portions, to choose from on the row.
    if (food.catalogId && !food.portions) {
      try {
        const answer = await request(apiPath("getCatalogFood", { catalogId: food.catalogId }));
        if (answer.ok) food = { ...food, portions: (await answer.json()).portions };
      } catch { /* offline: the serving alone */ }
    }
    close();
    clearProblem();
    input.removeAttribute("aria-invalid");
    input.dispatchEvent(new Event("change", { bubbles: true }));
    onPick(food);
  };
  const search = () => {
    clearTimeout(timer);
    const q = input.value.trim();
    offFor = null;
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
        show(items, undefined, actionsFor(q, items));
        if (q.length < minimumSearchLength) return;
        // Then the catalogue: its foods you have not made yours yet, after your own.
        const more = await request(`${apiPath("searchFoodCatalog")}?q=${encodeURIComponent(q)}&per=${Math.max(4, 10 - items.length)}`, { signal: controller.signal });
        if (!more.ok || input.value.trim() !== q || offFor === q) return;
        const own = new Set(items.map((f) => f.id));
        const catalog = (await more.json()).items.filter((c) => !own.has(c.foodId))
          .map((c) => (c.foodId ? { id: c.foodId, name: c.name, portions: c.portions }
            : { catalogId: c.catalogId, name: c.name, source: c.source, portions: c.portions }));
        show([...items, ...catalog], undefined, actionsFor(q, [...items, ...catalog]));
      } catch { /* offline: the typed name is matched when logging */ }
    }, 120);
  };
  const leaveSoon = () => setTimeout(() => {
    if (document.activeElement !== input && !list.contains(document.activeElement)) close();
  }, 150);

  input.addEventListener("input", search);
  // A row the server could not match (a save refused) offers its matches and actions at once.
  if (input.getAttribute("aria-invalid") === "true" && input.value.trim() !== "" && !(idInput?.value)) search();
  input.addEventListener("focus", () => { if (input.value.trim() === "" && usual.length) show(usual, "usual"); });
  input.addEventListener("blur", leaveSoon);
  list.addEventListener("focusout", leaveSoon);
  suggestionKeys(input, list, close);
}
