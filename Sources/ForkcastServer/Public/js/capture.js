// Photo-first capture on Today (seed 004 §7): choosing a photo shows it with the suggested meal
// type; Save sends it with a small thumbnail (the server checks both and strips their metadata);
// without a connection it waits in the outbox. Then the form is ready for the next photo.
import { announce } from "/js/app.js";
import { queuePhoto, flush } from "/js/offline.js";

const form = document.getElementById("capture-form");
const input = document.getElementById("capture-file");
const preview = document.getElementById("capture-preview");
const status = document.getElementById("capture-status");
const save = document.getElementById("capture-save");

/** The image drawn at most `side` px on its longer side, as a JPEG; null when the browser cannot read it (HEIC). */
async function scaled(file, side, quality) {
  try {
    const bitmap = await createImageBitmap(file);
    const ratio = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * ratio));
    canvas.height = Math.max(1, Math.round(bitmap.height * ratio));
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close?.();
    return await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
  } catch {
    return null;
  }
}

let shown = null;

function reset() {
  form.reset();
  if (shown) URL.revokeObjectURL(shown);
  shown = null;
  preview.hidden = true;
  preview.removeAttribute("src");
  form.classList.remove("has-photo");
}

async function refreshToday() {
  try {
    const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ["meal-groups", "rings-title", "nutrients"]) {
      const fresh = page.getElementById(id), current = document.getElementById(id);
      if (id === "rings-title") {
        const freshCard = fresh?.closest(".rings-card"), currentCard = current?.closest(".rings-card");
        if (freshCard && currentCard) currentCard.replaceWith(document.importNode(freshCard, true));
      } else if (fresh && current) {
        current.replaceWith(document.importNode(fresh, true));
      }
    }
  } catch { /* the next visit shows it */ }
}

if (form && input) {
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    if (!file) return;
    if (shown) URL.revokeObjectURL(shown);
    shown = URL.createObjectURL(file);
    preview.src = shown;
    preview.hidden = false;
    form.classList.add("has-photo");
    status.textContent = "Check the meal, then save.";
    // Save in view above the tab bar, the photo shown small enough beside it.
    save.focus({ preventScroll: true });
    preview.addEventListener("load", () => save.scrollIntoView({ block: "nearest" }), { once: true });
  });

  form.addEventListener("submit", async (event) => {
    const file = input.files?.[0];
    if (!file) { event.preventDefault(); status.textContent = "Take or choose a photo first."; input.click(); return; }
    event.preventDefault();
    save.disabled = true;
    save.setAttribute("aria-busy", "true");
    const mealType = form.elements.mealType.value;
    const typeName = form.elements.mealType.selectedOptions[0]?.textContent ?? mealType;
    const date = form.elements.date.value;
    const capturedAt = new Date().toISOString();
    const [large, thumbnail] = await Promise.all([scaled(file, 2048, 0.85), scaled(file, 320, 0.7)]);
    const photo = large && large.size < file.size ? large : file;
    const body = new FormData();
    body.append("photo", photo, "photo");
    if (thumbnail) body.append("thumbnail", thumbnail, "thumbnail");
    body.append("capturedAt", capturedAt);
    body.append("mealType", mealType);
    body.append("date", date);
    let message;
    try {
      const response = await fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.status >= 500) throw new Error("unavailable");
      if (!response.ok) {
        let detail = `HTTP ${response.status}`;
        try { detail = (await response.json()).detail || detail; } catch { /* keep */ }
        status.textContent = `Not saved: ${detail}`;
        return;
      }
      message = `Saved to ${typeName}. Ready for the next photo.`;
      reset();
      await refreshToday();
    } catch {
      // Today's photo is logged when it was taken, not when the connection came back (as the
      // plate's queued entries are); another day's at that day's noon, the server's choice.
      const at = date === form.dataset.today ? { loggedAt: capturedAt } : { date };
      await queuePhoto({ photo, thumbnail, capturedAt, record: { ...at, mealType, photoId: null },
                         display: { name: "Photo", amount: "not counted yet", date, mealType } });
      message = `No connection: the photo for ${typeName} waits and is sent when Forkcast is back.`;
      reset();
      flush();
    } finally {
      save.disabled = false;
      save.removeAttribute("aria-busy");
    }
    if (message) { status.textContent = message; announce(message); }
  });
}
