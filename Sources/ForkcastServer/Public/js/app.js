// Forkcast's shared page behaviour: requests with CSRF and loading feedback, errors, announcements,
// instant pressed feedback, and the meal library's live filters and delete dialog.
document.documentElement.classList.add("js");

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";
/** The account this page was made for (the server names it on signed-in pages); null elsewhere. */
export const pageAccount = () => document.querySelector('meta[name="forkcast-account"]')?.content || null;
let pending = 0;
let loadingTimer = null;

/**
 * fetch() with the CSRF token, an `X-Fragment` name, and a loading bar after 200 ms. It also says
 * which account the page is for (`X-Forkcast-Account`): the service worker keeps answers per account.
 */
export async function request(url, { method = "GET", fragment, body, signal, keepalive = false } = {}) {
  const headers = { "X-CSRF-Token": csrf() };
  if (pageAccount()) headers["X-Forkcast-Account"] = pageAccount();
  if (fragment) headers["X-Fragment"] = fragment;
  if (body && !(body instanceof FormData) && !(body instanceof URLSearchParams)) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(body);
  }
  if (body instanceof FormData) body = new URLSearchParams(body);
  pending += 1;
  if (!loadingTimer) loadingTimer = setTimeout(() => { document.getElementById("loading").hidden = false; }, 200);
  try {
    // keepalive: the request may outlive its page (a deletion sent as the page is left).
    return await fetch(url, { method, headers, body, signal, keepalive, credentials: "same-origin" });
  } finally {
    pending -= 1;
    if (pending === 0) {
      clearTimeout(loadingTimer);
      loadingTimer = null;
      document.getElementById("loading").hidden = true;
    }
  }
}

/** The message a failed response carries (problem+json detail, or a plain fallback). */
export async function failureMessage(response) {
  try {
    const problem = await response.json();
    if (problem.detail) return problem.detail;
  } catch { /* not JSON */ }
  return `Something went wrong (HTTP ${response.status}). Nothing was changed.`;
}

export const offlineMessage = "Forkcast could not be reached, so nothing was saved. Check your connection and try again — what you typed is still here.";

export function showError(message) {
  const banner = document.getElementById("error-banner");
  banner.textContent = message;
  banner.hidden = false;
}

export function clearError() {
  const banner = document.getElementById("error-banner");
  banner.hidden = true;
  banner.textContent = "";
}

export function announce(message) {
  const region = document.getElementById("announcer");
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = message; });
}

/** Shown when a fragment request succeeded but did not answer HTML, so nothing could be swapped in. */
export const unexpectedAnswerMessage = "Forkcast sent an answer this page cannot show. Reload the page to see the latest.";

const fragmentModes = new Set(["replace-children", "replace-self", "insert-before", "merge-children"]);

/** Removes <script> elements and on* attributes from parsed markup (also inside <template>s). */
function defuse(root) {
  for (const script of root.querySelectorAll("script")) script.remove();
  for (const element of root.querySelectorAll("*")) {
    for (const { name } of [...element.attributes]) if (name.toLowerCase().startsWith("on")) element.removeAttribute(name);
    if (element.content instanceof DocumentFragment) defuse(element.content);
  }
}

/** Makes `current`'s children those of `next`, replacing only the nodes that differ. */
function mergeChildren(current, next) {
  const now = [...current.childNodes], wanted = [...next.childNodes];
  if (now.length !== wanted.length) { current.replaceChildren(...wanted); return; }
  wanted.forEach((node, index) => {
    const here = now[index];
    if (here.isEqualNode(node)) return;
    if (here.nodeType === Node.ELEMENT_NODE && node.nodeType === Node.ELEMENT_NODE && here.localName === node.localName
        && sameAttributes(here, node)) mergeChildren(here, node);
    else here.replaceWith(node);
  });
}

function sameAttributes(a, b) {
  if (a.attributes.length !== b.attributes.length) return false;
  return [...a.attributes].every(({ name, value }) => b.getAttribute(name) === value);
}

/**
 * The one place scripts turn markup into nodes: puts a server-rendered HTML fragment (already
 * escaped by the server) on the page. Text from people or from error responses never comes here —
 * that goes in with textContent.
 *
 * `source` is the fragment's text or the Response carrying it; a Response whose Content-Type is not
 * text/html is left unread and nothing is swapped. `mode` is "replace-children" (the target's
 * contents), "replace-self" (the target itself), "insert-before" (just before the target) or
 * "merge-children" (the target's contents, keeping every node that is already as the fragment has
 * it: a reload that brings what the page shows leaves its elements, their focus and a tap under
 * way alone).
 * `pick` keeps only the first element matching a selector (one part out of a whole page).
 *
 * The markup is parsed in an inert document (no scripts run, nothing loads) in the context of the
 * element it will live in; <script> elements and on* attributes are removed before the nodes are
 * imported. Returns the inserted top-level nodes (for "merge-children", the target's children), or
 * null when nothing was swapped.
 */
export async function swapFragment(target, source, mode = "replace-children", { pick } = {}) {
  if (!fragmentModes.has(mode)) throw new TypeError(`swapFragment: unknown mode "${mode}"`);
  let html = source;
  if (source instanceof Response) {
    const type = (source.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "text/html") return null;
    html = await source.text();
  }
  const inert = document.implementation.createHTMLDocument("");
  const parent = mode === "replace-children" ? target : target.parentElement;
  const isHTMLElement = parent?.namespaceURI === "http://www.w3.org/1999/xhtml";
  const context = isHTMLElement ? inert.createElement(parent.localName) : inert.body;
  const range = inert.createRange();
  range.selectNodeContents(context);
  let parsed = range.createContextualFragment(String(html ?? "").trim());
  defuse(parsed);
  if (pick) {
    const chosen = parsed.querySelector(pick);
    if (!chosen) return null;
    parsed = inert.createDocumentFragment();
    parsed.append(chosen);
  }
  const fragment = document.importNode(parsed, true);
  const nodes = [...fragment.childNodes];
  if (mode === "replace-children") target.replaceChildren(fragment);
  else if (mode === "merge-children") { mergeChildren(target, fragment); return [...target.childNodes]; }
  else if (mode === "replace-self") target.replaceWith(fragment);
  else target.before(fragment);
  return nodes;
}

// Deleting asks first: forms marked data-confirm say what will go (capture phase, so nothing else
// sends the form when the answer is no).
document.addEventListener("submit", (event) => {
  const form = event.target.closest?.("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) { event.preventDefault(); event.stopImmediatePropagation(); }
}, true);

// Visual feedback within a frame of any tap (seed 002 Req 8.1).
document.addEventListener("pointerdown", (event) => {
  const target = event.target.closest(".button, .icon-button, .chip.toggle, [data-pressable]");
  if (target) target.classList.add("pressed");
});
for (const type of ["pointerup", "pointercancel", "pointerleave", "dragstart"]) {
  document.addEventListener(type, () => document.querySelectorAll(".pressed").forEach((el) => el.classList.remove("pressed")), true);
}

// A button that counts ticked boxes (`data-counts="<name>"` and `data-label`: "Plan the ticked
// meals (3)") follows the boxes of its form, and cannot be pressed with none ticked.
document.addEventListener("change", (event) => {
  const form = event.target.form;
  if (!form || event.target.type !== "checkbox") return;
  for (const button of form.querySelectorAll(`[data-counts="${CSS.escape(event.target.name)}"]`)) {
    const ticked = form.querySelectorAll(`input[name="${CSS.escape(event.target.name)}"]:checked`).length;
    button.textContent = `${button.dataset.label} (${ticked})`;
    button.disabled = ticked === 0;
  }
});

// The setup form sends the browser's time zone.
for (const input of document.querySelectorAll('[data-fill="time-zone"]')) {
  try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch { /* keep UTC */ }
}

// --- After an action: the confirmation where the page opens ---
// A save sends the page to the place it concerns (/diary#group-lunch); its confirmation goes
// there too, not only to the top of the page, out of view.
{
  let flash = document.querySelector("#main > .flash");
  // A confirmation a script read on its way here (a form sent with fetch, then this page opened).
  let kept = null;
  try { kept = sessionStorage.getItem("forkcast:flash"); sessionStorage.removeItem("forkcast:flash"); } catch { /* none */ }
  if (!flash && kept && document.getElementById("main")) {
    flash = Object.assign(document.createElement("p"), { className: "flash", textContent: kept });
    flash.setAttribute("role", "status");
    document.getElementById("main").prepend(flash);
  }
  const id = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : "";
  const target = id ? document.getElementById(id) : null;
  if (flash && target && target.closest("#main") && !target.contains(flash) && target.tagName === "SECTION") {
    (target.querySelector(".group-head") ?? target.firstElementChild)?.after(flash);
    flash.classList.add("in-place");
    // A reload would restore the old scroll position: the place and its confirmation come into view.
    history.scrollRestoration = "manual";
    requestAnimationFrame(() => flash.scrollIntoView({ block: "center" }));
  }
}

/**
 * The keys of a search field and the list of suggestions under it (the food picker, a searchable
 * select): Arrow Down goes into the list and moves down it, Arrow Up moves up and from the first
 * back to the field, Escape closes the list.
 */
export function suggestionKeys(input, list, close = () => { list.hidden = true; }) {
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" && !list.hidden) { event.preventDefault(); list.querySelector("button")?.focus(); }
    else if (event.key === "Escape") close();
  });
  list.addEventListener("keydown", (event) => {
    const all = [...list.querySelectorAll("button")];
    const at = all.indexOf(document.activeElement);
    if (event.key === "ArrowDown") { event.preventDefault(); all[Math.min(all.length - 1, at + 1)]?.focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); if (at <= 0) input.focus(); else all[at - 1].focus(); }
    else if (event.key === "Escape") { close(); input.focus(); }
  });
}

// --- A long list to choose from becomes a search (200 meals in a select) ---
// The select stays in the form (what is sent, and what a page without scripts shows); a search
// field with matching buttons stands in front of it.
let searchables = 0;
function enhanceSearchable(select) {
  if (select.dataset.enhanced) return;
  const choices = [...select.options].filter((o) => o.value);
  if (choices.length < 8) return;
  select.dataset.enhanced = "on";
  const n = ++searchables;
  const input = document.createElement("input");
  input.setAttribute("type", "text");
  input.setAttribute("enterkeyhint", "search");
  input.setAttribute("id", `${select.id}-search`);
  input.setAttribute("autocomplete", "off");
  input.setAttribute("placeholder", `Search ${select.dataset.searchable || "the list"}`);
  input.value = select.value ? select.selectedOptions[0]?.text ?? "" : "";
  const list = Object.assign(document.createElement("ul"), { className: "suggestions", id: `searchable-${n}`, hidden: true });
  list.setAttribute("aria-label", `Matching ${select.dataset.searchable || "choices"}`);
  document.querySelector(`label[for="${select.id}"]`)?.setAttribute("for", input.id);
  select.hidden = true;
  select.tabIndex = -1;
  select.after(input, list);
  const choose = (option) => {
    select.value = option?.value ?? "";
    input.value = option?.text ?? "";
    list.hidden = true;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    if (option) announce(`${option.text} chosen.`);
  };
  const show = () => {
    const q = input.value.trim().toLocaleLowerCase();
    if (q === "") { if (select.value) choose(null); list.hidden = true; return; }
    const matches = choices.filter((o) => o.text.toLocaleLowerCase().includes(q)).slice(0, 8);
    list.replaceChildren(...matches.map((option) => {
      const li = document.createElement("li");
      const button = Object.assign(document.createElement("button"), { type: "button", className: "suggestion", textContent: option.text });
      button.addEventListener("pointerdown", (event) => { event.preventDefault(); choose(option); });
      button.addEventListener("click", () => choose(option));
      li.append(button);
      return li;
    }));
    if (matches.length === 0) list.replaceChildren(Object.assign(document.createElement("li"), { className: "muted", textContent: "Nothing by that name." }));
    list.hidden = false;
  };
  input.addEventListener("input", show);
  suggestionKeys(input, list);
}
const enhanceSearchables = () => document.querySelectorAll("select[data-searchable]").forEach(enhanceSearchable);
enhanceSearchables();
document.addEventListener("forkcast:form-replaced", enhanceSearchables);

// Share buttons, clocks and links within a page (page.js).
import "/js/page.js";
