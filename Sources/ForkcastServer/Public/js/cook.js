// Cooking mode: one step at a time (Back and Next, or the arrow keys), the screen kept on while the
// page is shown (the Screen Wake Lock, taken again when the cook comes back to it), and timers that
// outlive the page: each is kept as its end time in localStorage, so after a reload, or with the
// phone locked and opened again, it is still running, or ringing once it is due.
import { announce } from "/js/app.js";

const root = document.getElementById("cook");
const TIMERS = "forkcast-cook-timers";

const load = () => {
  try {
    const timers = JSON.parse(localStorage.getItem(TIMERS) ?? "[]");
    return Array.isArray(timers) ? timers.filter((t) => t && typeof t.id === "string" && Number.isFinite(t.endsAt)) : [];
  } catch { return []; }
};
const save = (timers) => { try { localStorage.setItem(TIMERS, JSON.stringify(timers)); } catch { /* private mode: this page only */ } };

/** "4:05", "1:02:09". */
const clock = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s % 60).padStart(2, "0")}`;
};

if (root) {
  const meal = root.dataset.meal, mealName = root.dataset.mealName;
  const steps = [...root.querySelectorAll(".cook-step")];
  const nav = document.getElementById("cook-nav");
  const [back, next] = nav.querySelectorAll("[data-cook-move]");
  const STEP = `forkcast-cook-step:${meal}`;

  // --- One step at a time, where the cook left it ---
  let current = 0;
  const show = (index, focus) => {
    current = Math.min(Math.max(index, 0), steps.length - 1);
    steps.forEach((step, i) => { step.hidden = i !== current; });
    back.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    try { localStorage.setItem(STEP, String(current)); } catch { /* not kept */ }
    if (focus) steps[current].querySelector("h2")?.focus();
  };
  nav.hidden = false;
  try { show(Number(localStorage.getItem(STEP)) || 0); } catch { show(0); }
  // Cooked and eaten: the next time starts at the first step.
  document.getElementById("ate-form")?.addEventListener("submit", () => { try { localStorage.removeItem(STEP); } catch { /* kept */ } });
  nav.addEventListener("click", (event) => {
    const button = event.target.closest("[data-cook-move]");
    if (button) show(current + Number(button.dataset.cookMove), true);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, summary") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") show(current + 1, true);
    if (event.key === "ArrowLeft") show(current - 1, true);
  });

  // --- The screen stays on ---
  const awake = document.getElementById("cook-awake");
  let lock = null;
  const keepAwake = async () => {
    if (!("wakeLock" in navigator)) {
      awake.textContent = "This browser cannot keep the screen on: touch it now and then.";
      return;
    }
    if (lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      root.dataset.awake = "on";
      awake.textContent = "The screen stays on while you cook.";
      lock.addEventListener("release", () => { lock = null; root.dataset.awake = "off"; });
    } catch {
      root.dataset.awake = "refused";
      awake.textContent = "The screen could not be kept on (a battery saver may refuse it).";
    }
  };
  keepAwake();

  // --- Timers ---
  const list = document.getElementById("cook-timers");
  let audio = null;
  const wakeAudio = () => {
    try { audio ??= new AudioContext(); audio.resume(); } catch { /* no sound: the row still rings */ }
  };
  // Sound and vibration need a tap on the page first (after a reload, the row rings alone until then).
  const beep = () => {
    if (navigator.userActivation ? !navigator.userActivation.hasBeenActive : !audio) return;
    try {
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.25;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch { /* no sound before a tap after a reload */ }
    try { navigator.vibrate?.([300, 150, 300]); } catch { /* no vibration */ }
  };
  const announced = new Set();
  let shown = "";
  const update = () => {
    const now = Date.now(), timers = load().sort((a, b) => a.endsAt - b.endsAt);
    const shape = timers.map((t) => `${t.id}:${t.endsAt <= now}`).join(",");
    if (shape !== shown) {
      shown = shape;
      list.replaceChildren(...timers.map((t) => {
        const due = t.endsAt <= now, row = document.createElement("div");
        row.className = "cook-timer-row" + (due ? " ringing" : "");
        row.dataset.timerId = t.id;
        const label = document.createElement("span");
        label.textContent = t.meal === meal ? t.label : `${t.label} (${t.mealName})`;
        const left = document.createElement("time");
        const stop = document.createElement("button");
        stop.type = "button";
        stop.className = "button small";
        stop.dataset.stopTimer = t.id;
        stop.textContent = due ? "Dismiss" : "Stop";
        stop.setAttribute("aria-label", `${due ? "Dismiss" : "Stop"} ${label.textContent}`);
        row.append(label, left, stop);
        return row;
      }));
    }
    for (const t of timers) {
      const row = list.querySelector(`[data-timer-id="${CSS.escape(t.id)}"] time`);
      if (row) row.textContent = t.endsAt <= now ? "Done" : clock(t.endsAt - now);
      if (t.endsAt <= now && !announced.has(t.id)) { announced.add(t.id); announce(`Timer done: ${t.label}`); }
    }
    return timers.some((t) => t.endsAt <= now);
  };
  let ticks = 0;
  setInterval(() => { if (update() && ticks++ % 2 === 0) beep(); }, 1000);
  update();

  root.addEventListener("click", (event) => {
    wakeAudio();
    const start = event.target.closest("[data-timer]");
    if (start) {
      const seconds = Number(start.dataset.timer);
      const id = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
      save([...load(), { id, meal, mealName, label: start.dataset.timerLabel, endsAt: Date.now() + seconds * 1000 }]);
      announce(`Timer started: ${start.dataset.timerLabel}`);
    }
    const stop = event.target.closest("[data-stop-timer]");
    if (stop) save(load().filter((t) => t.id !== stop.dataset.stopTimer));
    if (start || stop) update();
  });
  // Another tab's timers, and the page shown again (the phone unlocked): the lock is taken again
  // and what came due meanwhile rings now.
  window.addEventListener("storage", (event) => { if (event.key === TIMERS) update(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    keepAwake();
    if (update()) beep();
  });
}
