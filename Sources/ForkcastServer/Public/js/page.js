// Small things every page does: Share buttons for the links Forkcast makes, times in the
// browser's own clock, and links within a page that take the focus where they point.
import { announce } from "/js/app.js";

// Every link Forkcast makes to send to someone (a shared list, an invitation) has a Share button:
// the phone's own share sheet where the browser has one, else the link copied.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-share-from]");
  if (!button) return;
  const field = document.getElementById(button.dataset.shareFrom);
  if (!field) return;
  const url = field.value;
  if (navigator.share) {
    try { await navigator.share({ title: document.title, url }); return; } catch (error) { if (error?.name === "AbortError") return; }
  }
  try {
    await navigator.clipboard.writeText(url);
    announce("Link copied.");
    button.textContent = "Copied";
  } catch {
    field.focus();
    field.select();
    announce("Copy the selected link.");
  }
});

// Times follow the browser's own clock (12 or 24 hours, as its locale has it), in the person's zone.
const showClocks = (root = document) => root.querySelectorAll("time[data-clock]").forEach((t) => {
  try {
    t.textContent = new Date(t.dateTime).toLocaleTimeString([], { hour: "numeric", minute: "2-digit", timeZone: t.dataset.zone || undefined });
  } catch { /* an unknown zone: the server's text stays */ }
});
showClocks();
document.addEventListener("forkcast:refreshed", () => showClocks());

// A link to a part of the page ("Quick add") takes the focus to that part's first field.
document.addEventListener("click", (event) => {
  const link = event.target.closest(".jump-links a[href^='#']");
  const target = link && document.getElementById(link.getAttribute("href").slice(1));
  const field = target?.querySelector("input:not([type=hidden]), select, textarea");
  if (!field) return;
  event.preventDefault();
  target.scrollIntoView({ block: "start" });
  field.focus({ preventScroll: true });
  history.replaceState(history.state, "", link.getAttribute("href"));
});
