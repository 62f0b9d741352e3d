"""Pages kept for offline use by the service worker, and the outbox's rounds as a page reports them."""
from selenium.webdriver.support import expected_conditions as EC

from browser import browser_errors, wait_for
from conftest import Server, base_env


def kept_for_offline(driver, server, paths):
    """Opens the pages while the server is there, so the service worker keeps them."""
    for path in paths:
        driver.get(server.url(path))
        # A page opened while the worker is still installing (a fresh server is also loading the
        # food catalogue then) may stay uncontrolled until opened again, as a person would.
        for attempt in range(3):
            try:
                wait_for(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=5,
                         message="the service worker controls the page")
                break
            except Exception:
                if attempt == 2: raise
                driver.get(server.url(path))
    for path in paths:
        driver.get(server.url(path))


# --- Waiting on what the page does, instead of sleeping ------------------------------------------

# offline.js tries to send its outbox every 5 s (the setInterval in its "Start" section).
OUTBOX_ROUND_MS = 5000

WATCH_PAGE = """
(() => {
  // Each setInterval timer's rounds, by its delay: how many started, and how many finished (an
  // async round once its promise settled).
  const rounds = window.__rounds = {};
  const every = window.setInterval;
  window.setInterval = function (callback, delay, ...rest) {
    if (typeof callback !== "function") return every.call(this, callback, delay, ...rest);
    return every.call(this, function (...args) {
      const count = rounds[delay] ??= { started: 0, finished: 0 };
      count.started += 1;
      let result;
      try {
        result = callback.apply(this, args);
      } finally {
        Promise.resolve(result).finally(() => { count.finished += 1; }).catch(() => {});
      }
      return result;
    }, delay, ...rest);
  };
  // What the page hears: its event stream opening, the changes it brings, the day drawn again.
  const heard = window.__heard = { streamOpened: 0, changes: 0, refreshed: 0 };
  if (window.EventSource) {
    window.EventSource = class extends window.EventSource {
      constructor(...args) {
        super(...args);
        this.addEventListener("open", () => { heard.streamOpened += 1; });
      }
    };
  }
  document.addEventListener("forkcast:changes", () => { heard.changes += 1; });
  document.addEventListener("forkcast:refreshed", () => { heard.refreshed += 1; });
})();
"""


def watch_page(driver):
    """Every page opened from now on counts its timers' rounds and what it hears (WATCH_PAGE), so a
    test can wait for the outbox's next round or the event stream instead of sleeping."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_PAGE})


def outbox_rounds(driver):
    return driver.execute_script("return (window.__rounds || {})[arguments[0]] || {started: 0, finished: 0}", OUTBOX_ROUND_MS)


def heard(driver):
    return driver.execute_script("return window.__heard || {streamOpened: 0, changes: 0, refreshed: 0}")


def wait_for_outbox_round(driver, timeout=20, message="a round of the outbox"):
    """Waits until a round of the page's outbox that started after this call has finished: what that
    round would send has been sent, and what it would not, was not (watch_page must be on)."""
    started = outbox_rounds(driver)["started"]
    wait_for(driver, lambda d: outbox_rounds(d)["finished"] > started, timeout, message)


def start_with_signup(data_dir):
    """A Forkcast that lets a second person register (two accounts share one browser)."""
    return Server(base_env(data_dir, FORKCAST_ALLOW_SIGNUP="true"), data_dir).start()


def entries_on(s, server, date):
    day = s.get(server.url(f"/api/v1/diary?date={date}")).json()
    return [dict(e, group=g["mealType"]) for g in day["entries"] for e in g["entries"]]


def outbox(driver):
    """The browser's outbox (IndexedDB), without the photos' bytes."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const open = indexedDB.open("forkcast");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("outbox")) { done([]); return; }
          const read = db.transaction("outbox").objectStore("outbox").getAll();
          read.onsuccess = () => done(read.result.map(({ photo, ...item }) => ({ ...item, hasPhoto: !!photo })));
          read.onerror = () => done(null);
        };
        open.onerror = () => done(null);
    """)


def alert(driver):
    """The confirm() the page shows (after reading the outbox, so a moment after the tap)."""
    return wait_for(driver, lambda d: EC.alert_is_present()(d), timeout=5, message="the page asks first")


def script_errors(driver):
    return [e for e in browser_errors(driver) if "sync/events" not in e["message"] and "sw.js" not in e["message"]
            and "/api/v1/" not in e["message"]]
