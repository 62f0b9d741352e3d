// Creating a food in place, from the food picker's "Create …": a small dialog that sends its fields
// as typed to the Foods page's own form (read there, "12,5" included) and hands the food back, the
// row and its form kept as they are.
import { request, failureMessage } from "/js/app.js";

let createDialog = null;

/** One dialog per page: name, brand, energy and macros per 100 g or ml, an optional serving. */
function dialogElement() {
  if (createDialog) return createDialog;
  createDialog = document.createElement("dialog");
  createDialog.id = "create-food-dialog";
  createDialog.setAttribute("aria-labelledby", "create-food-title");
  const field = (name, label, attrs = "") => `<div class="field"><label for="create-food-${name}">${label}</label>` +
    `<input id="create-food-${name}" name="${name}" ${attrs}></div>`;
  createDialog.innerHTML = `<form method="dialog" class="create-food" novalidate>
    <div class="dialog-head"><h2 id="create-food-title">New food</h2></div>
    <p class="muted">Saved to your foods, then put on this row. Numbers are per 100 g (or 100 ml).</p>
    ${field("name", "Name", 'required maxlength="200" autocomplete="off"')}
    ${field("brand", "Brand (optional)", 'maxlength="200" autocomplete="off"')}
    <div class="field"><label for="create-food-basis">Measured in</label><select id="create-food-basis" name="basis"><option value="g">grams</option><option value="ml">millilitres</option></select></div>
    <div class="grid-2">
      ${field("energy", "Energy (kcal per 100)", 'inputmode="decimal" autocomplete="off"')}
      ${field("protein", "Protein (g per 100)", 'inputmode="decimal" autocomplete="off"')}
      ${field("carbohydrates", "Carbs (g per 100)", 'inputmode="decimal" autocomplete="off"')}
      ${field("fat", "Fat (g per 100)", 'inputmode="decimal" autocomplete="off"')}
      ${field("servingSize", "One serving (g or ml, optional)", 'inputmode="decimal" autocomplete="off"')}
    </div>
    <p class="field-error" id="create-food-problem" role="alert" hidden></p>
    <div class="dialog-actions"><button type="button" class="button secondary" data-cancel>Cancel</button>
    <button type="submit" class="button primary" value="save">Save food</button></div></form>`;
  document.body.append(createDialog);
  return createDialog;
}

export function openCreateDialog(name, onCreated, onCancel) {
  const dialog = dialogElement();
  const form = dialog.querySelector("form");
  const problem = dialog.querySelector("#create-food-problem");
  form.reset();
  form.elements.name.value = name;
  problem.hidden = true;
  form.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
  let created = false;
  const cancel = () => dialog.close();
  form.querySelector("[data-cancel]").onclick = cancel;
  dialog.onclose = () => { if (!created) onCancel(); };
  form.oninput = () => { problem.hidden = true; };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const submit = form.querySelector("[type=submit]");
    submit.disabled = true;
    try {
      // The server's rules decide (names, plausible ranges); its problem is shown as it is.
      const response = await request("/foods", { method: "POST", fragment: "created", body: new FormData(form) });
      if (!response.ok) {
        problem.textContent = await failureMessage(response);
        problem.hidden = false;
        return;
      }
      created = true;
      dialog.close();
      onCreated(await response.json());
    } catch {
      problem.textContent = "Forkcast cannot be reached; the food was not created. Your plate is kept.";
      problem.hidden = false;
    } finally {
      submit.disabled = false;
    }
  };
  dialog.showModal();
  (name ? form.elements.energy : form.elements.name).focus();
}
