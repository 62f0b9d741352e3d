"""Layouts: every page at phone, tablet and desktop widths, light and dark, with a library
of real long names (USDA and Open Food Facts style, a 120-character one, combining marks and
right-to-left text). On each page, measured in the browser at every width:

1. nothing overflows sideways;
2. no box showing a name is squeezed narrower than about four characters (40 px);
3. nothing marked `hidden` shows;
4. every control is at least 44 x 44 px below 700 px wide, 24 x 24 px from there;
5. no two cards touch (at least 8 px between them);

and axe finds nothing serious or critical in the phone layout (390 px, light) and in the desktop
layout (1440 px, dark), AXE_AT: the markup is the same at every width, and each scheme's colours are
checked once (in the dark, only axe's rules about colour run: the rest saw the same markup).

The boxes are measured once per width, in the light scheme: the dark one changes only colours
(test_the_dark_scheme_changes_only_colours holds to that). One driver is reused and resized through
CDP; every failure is collected and reported together, and screenshots of each page and width that
failed a check, in both schemes, go to ARTIFACTS/screenshots/layout/.
"""
import datetime
import glob
import os
import re
import time


from browser import (ARTIFACTS, PHONE_BREAKPOINT, axe_violations, browser_errors, css, make_driver,
                     screenshot_file, set_dark, set_viewport, sign_in, wait_for)
from conftest import ROOT
from layout_seed import seed

WIDTHS = [360, 390, 768, 1024, 1440]
HEIGHT = 900
SCHEMES = ["light", "dark"]
AXE_AT = {(390, "light"), (1440, "dark")}
# Only colour differs between the schemes; these two rules take a fifth of a whole axe run (planner).
DARK_RULES = ["color-contrast", "link-in-text-block"]
# axe needs about 30 s for 300 meal cards, and 30-45 s for the API reference's 15,000 elements: before
# it runs, lists are cut to their first 20 items and the reference to the operations and schemas that
# are open plus the first three closed ones of each (the rest repeat the same markup). The measurements
# and screenshots see the whole page.
TRIM_LISTS = """
for (const list of document.querySelectorAll('ul, ol')) {
  while (list.children.length > 20) list.lastElementChild.remove();
}
for (const kind of ['details.api-op', 'details.api-schema']) {
  [...document.querySelectorAll(kind)].filter(d => !d.open).slice(3).forEach(d => d.remove());
}
"""
SHOTS = os.path.join(ARTIFACTS, "screenshots", "layout")
# Pages whose screenshots are kept even when they pass, to look at: FORKCAST_SWEEP_KEEP=recipe,recipe-import
KEEP = set(filter(None, os.environ.get("FORKCAST_SWEEP_KEEP", "").split(",")))
# What is measured in the page (layout_measure.js): a list of {check, what, size} for one page,
# width and scheme.
MEASURE = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "layout_measure.js"), encoding="utf-8").read()


def test_every_page_at_every_width_and_scheme(start_server):
    started = time.time()
    server = start_server(FORKCAST_ALLOW_SIGNUP="false")
    driver = make_driver("layout")
    driver.set_script_timeout(120)
    failures = []
    exempt = set()  # links inside running text, exempt from the target size (listed in the report)
    timings = {}

    def sweep(name, url, prepare=None):
        t0 = time.time()
        for width in WIDTHS:
            set_viewport(driver, width, HEIGHT)
            driver.get(server.url(url))
            wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
            if prepare:
                prepare()
            # The boxes are measured once: the schemes differ only in colours (see below).
            set_dark(driver, False)
            driver.execute_script("window.scrollTo(0, 0)")
            failed = False
            for f in driver.execute_script(MEASURE, width < PHONE_BREAKPOINT, width):
                if f["check"] == "exempt":
                    exempt.add(f"{name}: {f['what']}")
                else:
                    failures.append(f"{name} @{width}: [{f['check']}] {f['what']} {f['size']}".rstrip())
                    failed = True
            for scheme in SCHEMES if failed or name in KEEP else []:
                set_dark(driver, scheme == "dark")
                screenshot_file(driver, os.path.join(SHOTS, f"{name}-{width}-{scheme}.png"))
            axe_schemes = [scheme for scheme in SCHEMES if (width, scheme) in AXE_AT]
            if axe_schemes:
                driver.execute_script(TRIM_LISTS)  # after the measurements: they see the whole page
            for scheme in axe_schemes:
                set_dark(driver, scheme == "dark")
                violations = axe_violations(driver, rules=DARK_RULES if scheme == "dark" else None)
                for v in violations:
                    targets = [n["target"] for n in v["nodes"][:4]]
                    failures.append(
                        f"{name} @{width} {scheme}: [axe {v['impact']}] {v['id']}: {v['help']} at {targets}")
                if violations:  # the page as axe saw it (its lists cut to 20 items)
                    screenshot_file(driver, os.path.join(SHOTS, f"{name}-{width}-{scheme}-axe.png"))
        for e in browser_errors(driver):
            failures.append(f"{name}: [script error] {e['message'][:200]}")
        timings[name] = round(time.time() - t0, 1)

    try:
        # Signed out: first-visit setup exists only before the first account.
        sweep("setup", "/setup")
        t0 = time.time()
        seeded = seed(server)
        timings["seeding"] = round(time.time() - t0, 1)
        assert timings["seeding"] < 60, timings
        sweep("login", "/login")

        set_viewport(driver, 1440, HEIGHT)
        sign_in(driver, server)
        other_day = (seeded["today"] - datetime.timedelta(days=3)).isoformat()

        def grid_view():
            if not driver.find_elements("css selector", "#food-list.grid"):
                css(driver, "input[name=view][value=grid]").click()
            wait_for(driver, lambda d: d.find_elements("css selector", "#food-list.grid"))

        photo_entry = seeded["photo_entry"]
        photo_path = os.path.join(ROOT, "Tests", "Fixtures", "photos", "photo.jpg")

        def photo_chosen():
            css(driver, "#capture-file").send_keys(photo_path)
            wait_for(driver, lambda d: d.execute_script(
                "const i = document.getElementById('capture-preview'); return !i.hidden && i.complete && i.naturalWidth > 0"))

        def move_asked():
            driver.execute_script("document.getElementById('field-date').value = arguments[0]", other_day)
            css(driver, "#save-entry").click()
            wait_for(driver, lambda d: d.find_elements("css selector", "#confirm-move"))

        def open_operations():
            # The reference with a few operations open, one of them tried.
            for op in ("op-listWeights", "op-addWeight", "op-putBodyProfile"):
                driver.execute_script("document.getElementById(arguments[0]).open = true", op)
            css(driver, "#op-listWeights form.api-try button[type=submit]").click()
            wait_for(driver, lambda d: "200" in css(d, "#op-listWeights .api-result").text)

        pages = [
            ("today", "/", None),
            ("today-photo-chosen", "/", photo_chosen),
            ("history", "/history", None),
            ("occasion", f"/history/{photo_entry['occasionId'].lower()}", None),
            ("edit-photo-entry", f"/diary/entries/{photo_entry['id']}/edit", None),
            ("confirm-move", f"/diary/entries/{photo_entry['id']}/edit", move_asked),
            ("meal-types", "/settings/meal-types", None),
            ("today-other-day", f"/diary?date={other_day}", None),
            ("today-month", f"/diary?date={other_day}&range=month", None),
            ("diary-add", f"/diary/add?date={other_day}&mealType=lunch", None),
            ("edit-entry", f"/diary/entries/{seeded['entry_id']}/edit", None),
            ("meals", "/meals", None),
            ("meal-edit", f"/meals/{seeded['meal']['id']}/edit", None),
            ("meal-new", "/meals/new", None),
            ("meal-delete", f"/meals/{seeded['meal']['id']}/delete", None),
            ("recipe", f"/meals/{seeded['recipe']['id']}/recipe?servings=3", None),
            ("meal-edit-recipe", f"/meals/{seeded['recipe']['id']}/edit", None),
            ("recipe-import", "/meals/import", None),
            ("cook", f"/meals/{seeded['recipe']['id']}/cook?servings=3", None),
            ("foods-list", "/foods?view=list", None),
            ("foods-grid", "/foods?view=grid", grid_view),
            ("food-edit", f"/foods/{seeded['food']['id']}/edit", None),
            ("food-edit-unicode", f"/foods/{seeded['unicode_food']['id']}/edit", None),
            ("food-new", "/foods/new", None),
            ("food-delete", f"/foods/{seeded['food']['id']}/delete", None),
            ("planner", "/plan", None),
            ("planner-eaters", "/plan", lambda: driver.execute_script("document.querySelector('.eaters-edit').open = true")),
            ("plan-suggestions", "/plan/suggestions", None),
            ("shopping", "/shopping", None),
            ("shopping-list", f"/shopping/{seeded['shopping']['id']}", None),
            ("shopping-shared", f"/s/{seeded['shared']}", None),
            ("shopping-item", f"/shopping/items/{seeded['shopping']['items'][0]['id']}/edit", None),
            ("pantry", "/pantry", None),
            ("pantry-lot", "/pantry", lambda: driver.execute_script("document.querySelector('.pantry-lot details').open = true")),
            ("plan-add", f"/plan/add?date={seeded['today'].isoformat()}", None),
            ("plan-templates", "/plan/templates", None),
            ("goals", "/goals", None),
            ("goals-targets", "/goals", lambda: driver.execute_script("document.getElementById('targets-details').open = true")),
            ("nutrients-week", "/diary/nutrients", None),
            ("settings", "/settings", None),
            ("your-data", "/settings/data", None),
            ("sign-in-methods", "/settings/sign-in", None),
            ("household", "/settings/household", None),
            ("household-join", f"/household/join?invite={seeded['join']}", None),
            ("coach-links", "/settings/coach", None),
            ("calendar-feeds", "/settings/calendar", None),
            ("api-keys", "/settings/keys", None),
            ("coach", f"/coach/{seeded['coach']}", None),
            # A link made (shown once) beside the ones waiting; 10 sweeps stay under the 20 allowed.
            ("invitations", "/settings/invitations", lambda: css(driver, "#make-invitation").click()),
            ("api-docs", "/api/docs", open_operations),
        ]
        for name, url, prepare in pages:
            sweep(name, url, prepare)
    finally:
        driver.quit()

    report = os.path.join(ARTIFACTS, "layout-sweep.txt")
    os.makedirs(ARTIFACTS, exist_ok=True)
    timings["total"] = round(time.time() - started, 1)
    with open(report, "w") as f:
        f.write(f"timings (s): {timings}\n\nFailures:\n" + "\n".join(failures) +
                "\n\nLinks in running text, exempt from the target size:\n" + "\n".join(sorted(exempt)) + "\n")
    print(f"layout sweep timings (s): {timings}")
    assert not failures, f"{len(failures)} layout failures (also in {report}):\n" + "\n".join(failures)


COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|rgba?\([0-9., ]+\)")


def test_the_dark_scheme_changes_only_colours():
    """What lets the sweep measure each width once: in every stylesheet, the dark scheme's rules only
    give colour properties new colours, and no script asks which scheme is on."""
    public = os.path.join(ROOT, "Sources", "ForkcastServer", "Public")
    blocks = 0
    for path in glob.glob(os.path.join(public, "css", "*.css")):
        text = re.sub(r"/\*.*?\*/", "", open(path, encoding="utf-8").read(), flags=re.S)
        for start in [m.end() for m in re.finditer(r"@media[^{]*prefers-color-scheme:\s*dark[^{]*\{", text)]:
            depth, end = 1, start
            while depth:
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                end += 1
            blocks += 1
            for prop, value in re.findall(r"([-\w]+)\s*:\s*([^;{}]+)", re.sub(r"[^{};]*\{", ";", text[start:end - 1])):
                assert prop.startswith("--") and COLOUR.fullmatch(value.strip()), f"{path}: {prop}: {value}"
    assert blocks >= 1
    for path in glob.glob(os.path.join(public, "**", "*.js"), recursive=True):
        assert "color-scheme" not in open(path, encoding="utf-8").read(), path
