// The food form: scan a barcode with the camera where the browser can (BarcodeDetector), fill the
// form from Open Food Facts, and keep the "per 100 g/ml" label in step with the basis.
import { request, failureMessage } from "/js/app.js";
import { apiPath } from "/js/api.js";

const form = document.getElementById("food-form");
const barcode = document.getElementById("field-barcode");
const status = document.getElementById("barcode-status");
const scanButton = form.querySelector("[data-scan]");
const lookupButton = form.querySelector("[data-lookup-barcode]");
const video = document.getElementById("scanner");

lookupButton.hidden = false;
form.elements.basis.addEventListener("change", () => {
  for (const label of form.querySelectorAll("[data-basis-label]")) label.textContent = form.elements.basis.value;
});

const set = (name, value) => {
  const field = form.elements[name];
  if (field && value !== null && value !== undefined && value !== "") field.value = value;
};

async function lookup() {
  // Which digits make a barcode is the server's rule: it answers with what is wrong.
  const code = barcode.value.trim();
  if (code === "") { status.textContent = "Type or scan the barcode first."; return; }
  status.textContent = "Looking the barcode up…";
  try {
    const response = await request(apiPath("lookupBarcode", { code }));
    if (!response.ok) { status.textContent = await failureMessage(response); return; }
    const { origin, food } = await response.json();
    if (origin === "local") {
      const link = Object.assign(document.createElement("a"), { href: `/foods/${food.id}/edit`, textContent: `“${food.name}” already has this barcode — edit it` });
      status.replaceChildren(link);
      return;
    }
    set("name", food.name); set("brand", food.brand); set("basis", food.basis); set("source", "openfoodfacts");
    set("energy", food.per100.energyKcal); form.elements.energyUnit.value = "kcal";
    for (const key of ["protein", "carbohydrates", "fat", "fiber", "sugars", "saturatedFat", "salt"]) set(key, food.per100[key]);
    // Minerals and vitamins the product states (the others are left as typed).
    for (const [key, value] of Object.entries(food.per100)) if (key !== "energyKcal" && form.elements[key] && value != null) set(key, value);
    if (Object.keys(food.per100).some((key) => form.elements[key]?.closest("#micro-fields"))) document.getElementById("micro-fields").open = true;
    if (food.serving) { set("servingSize", food.serving.size); set("servingLabel", food.serving.label); }
    form.elements.basis.dispatchEvent(new Event("change"));
    status.textContent = `Filled in from Open Food Facts: ${food.name || "unnamed product"}. Check the values before saving.`;
  } catch {
    status.textContent = "Forkcast could not be reached.";
  }
}
lookupButton.addEventListener("click", lookup);

// Camera scanning where the browser offers BarcodeDetector; otherwise typing the digits works.
if ("BarcodeDetector" in window && navigator.mediaDevices?.getUserMedia) {
  scanButton.hidden = false;
  scanButton.addEventListener("click", async () => {
    let stream;
    try {
      const detector = new window.BarcodeDetector({ formats: ["ean_13", "ean_8", "upc_a", "upc_e"] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      status.textContent = "Point the camera at the barcode…";
      const started = Date.now();
      while (Date.now() - started < 30000) {
        const codes = await detector.detect(video);
        if (codes.length) { barcode.value = codes[0].rawValue; status.textContent = `Scanned ${codes[0].rawValue}.`; await lookup(); break; }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } catch (error) {
      status.textContent = "The camera is not available; type the digits instead.";
    } finally {
      stream?.getTracks().forEach((t) => t.stop());
      video.hidden = true;
    }
  });
}
