// An entry's page: a photo entry's food row searches your foods as you type (as on the plate), and
// a changed amount shows what it comes to before it is saved (added up by the server).
import { attachFoodPicker } from "/js/food-picker.js";
import { request, swapFragment } from "/js/app.js";

for (const input of document.querySelectorAll("#count-as [name=ingredientFood]")) attachFoodPicker(input);

const form = document.getElementById("entry-form");
const totals = document.getElementById("entry-totals");
let timer = null;
form?.addEventListener("input", (event) => {
  if (!totals || !/^(quantity|unit|servings|quick\.)/.test(event.target.name)) return;
  clearTimeout(timer);
  timer = setTimeout(async () => {
    try {
      const response = await request(form.getAttribute("action"), { method: "POST", fragment: "entry-totals", body: new FormData(form) });
      if (response.ok) await swapFragment(totals, response, "replace-self");
    } catch { /* offline: the totals wait */ }
  }, 200);
});
form?.addEventListener("change", (event) => { if (event.target.name === "unit") event.target.dispatchEvent(new Event("input", { bubbles: true })); });
