// The meal form: components as chips, and saving without a page load. When saving fails the
// form stays as typed and says why (002 Req 7.4).
import { request, offlineMessage } from "/js/app.js";

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

  const addFromInput = () => {
    const existing = new Set([...chips.querySelectorAll('input[name="component"]')].map((i) => i.value.trim().toLowerCase()));
    for (const raw of input.value.split(",")) {
      const name = raw.trim();
      if (!name || existing.has(name.toLowerCase())) continue;
      existing.add(name.toLowerCase());
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

function enhance(form) {
  enhanceChips(form);
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
      const contentType = response.headers.get("Content-Type") || "";
      if (contentType.includes("text/html")) {
        // The server sent the form back with its errors and the input as typed.
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const card = page.querySelector(".form-card");
        if (card) {
          document.querySelector(".form-card").replaceWith(document.adoptNode(card));
          const fresh = document.getElementById("meal-form");
          enhance(fresh);
          (fresh.querySelector('[aria-invalid="true"]') || document.getElementById("form-message")).focus();
          return;
        }
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
