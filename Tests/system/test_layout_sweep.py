"""Layouts: every page at phone, tablet and desktop widths, light and dark, with a library
of real long names (USDA and Open Food Facts style, a 120-character one, combining marks and
right-to-left text). On each page, measured in the browser at every width and in both schemes:

1. nothing overflows sideways;
2. no box showing a name is squeezed narrower than about four characters (40 px);
3. nothing marked `hidden` shows;
4. every control is at least 44 x 44 px below 700 px wide, 24 x 24 px from there;
5. no two cards touch (at least 8 px between them);

and axe finds nothing serious or critical in the phone layout (390 px, light) and in the desktop
layout (1440 px, dark), AXE_AT: the markup is the same at every width, and each scheme's colours are
checked once.

One driver is reused and resized through CDP; every failure is collected and reported together, and
a screenshot of each page, width and scheme that failed a check goes to ARTIFACTS/screenshots/layout/.
"""
import datetime
import os
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from browser import (ARTIFACTS, PHONE_BREAKPOINT, api_session, axe_violations, browser_errors, css, make_driver,
                     screenshot_file, set_dark, set_viewport, sign_in, wait_for)
from conftest import ROOT

WIDTHS = [360, 390, 768, 1024, 1440]
HEIGHT = 900
SCHEMES = ["light", "dark"]
AXE_AT = {(390, "light"), (1440, "dark")}
# axe needs about 30 s for 300 meal cards: before it runs, lists are cut to their first 20 items (the
# rest repeat the same markup). The measurements and screenshots see the whole page.
TRIM_LISTS = """
for (const list of document.querySelectorAll('ul, ol')) {
  while (list.children.length > 20) list.lastElementChild.remove();
}
"""
SHOTS = os.path.join(ARTIFACTS, "screenshots", "layout")
TIME_ZONE = "UTC"
# A meal type's name may be 40 characters long.
LONG_TYPE_NAME = "Zweites Frühstück nach dem Frühschwimmen"

# ---------------------------------------------------------------------------------------------
# A realistic library: the names people really import (USDA FoodData Central, Open Food Facts).

USDA = [
    "Chicken, broilers or fryers, breast, meat only, cooked, roasted",
    "Yogurt, Greek, plain, nonfat",
    "Beef, ground, 85% lean meat / 15% fat, patty, cooked, broiled",
    "Rice, white, long-grain, regular, enriched, cooked",
    "Oats, rolled, old fashioned, dry",
    "Salmon, Atlantic, farmed, cooked, dry heat",
    "Broccoli, cooked, boiled, drained, without salt",
    "Cheese, cheddar, sharp, sliced",
    "Egg, whole, cooked, hard-boiled",
    "Bread, whole-wheat, commercially prepared, toasted",
    "Milk, reduced fat, fluid, 2% milkfat, with added vitamin A and vitamin D",
    "Beans, black, mature seeds, cooked, boiled, without salt",
    "Sweet potato, cooked, baked in skin, flesh, without salt",
    "Pasta, cooked, enriched, without added salt",
    "Spinach, raw",
    "Avocados, raw, California",
    "Peanut butter, smooth style, with salt",
    "Almonds, dry roasted, with salt added",
    "Bananas, raw",
    "Apples, raw, with skin (Includes foods for USDA's Food Distribution Program)",
    "Tofu, raw, firm, prepared with calcium sulfate",
    "Lentils, mature seeds, cooked, boiled, without salt",
    "Pork, fresh, loin, tenderloin, separable lean only, cooked, roasted",
    "Turkey, whole, breast, meat only, roasted",
    "Tuna, light, canned in water, drained solids",
    "Quinoa, cooked",
    "Oil, olive, salad or cooking",
    "Butter, salted",
    "Potatoes, russet, flesh and skin, baked",
    "Tomatoes, red, ripe, raw, year round average",
]
OFF = [
    "Organic Whole Milk Greek Yogurt with Honey & Vanilla Bean – Family Size Tub",
    "Roggenvollkornsauerteigbrot mit Sonnenblumenkernen und Leinsamen",
    "Nature Valley Crunchy Granola Bars, Oats 'n Honey, 12 Bars, 1.49 oz Each",
    "Céréales complètes croustillantes aux pépites de chocolat noir et noisettes grillées",
    "Kellogg's Special K Original Breakfast Cereal, Fortified with Vitamins & Minerals",
    "Barilla Protein+ Grain & Legume Pasta, Penne, Made with Chickpeas, Lentils and Peas",
    "Lindt Excellence 85% Cocoa Extra Dark Chocolate Bar",
    "Alpro Soya Drink Unsweetened Original, Long Life, Plant-Based Alternative to Milk",
    "Müller Corner Strawberry Yogurt with Crunchy Granola Clusters",
    "Tesco Finest Wiltshire Cured Thick Cut Unsmoked Back Bacon Rashers",
    "Innocent Smoothie Strawberries & Bananas, Not From Concentrate, 750ml",
    "Danone Activia Probiotic Low Fat Yogurt, Peach, 4 x 4 oz Cups",
    "Ben & Jerry's Chocolate Fudge Brownie Non-Dairy Frozen Dessert",
    "Quaker Instant Oatmeal, Maple & Brown Sugar, Breakfast Cereal, Packets",
    "Heinz Beanz Baked Beans in a Rich Tomato Sauce, Reduced Sugar & Salt",
    "Philadelphia Original Cream Cheese Spread, Light, 8 oz Tub",
    "Nutella Hazelnut Spread with Cocoa, Family Size Jar, 26.5 oz",
    "Oatly Oat Drink Barista Edition, Chilled",
    "Knorr Rice Sides Chicken Flavor Long Grain Rice and Vermicelli Pasta Blend",
    "Fage Total 0% Milkfat Plain Greek Strained Yoghurt",
]
# Exactly 120 characters: the longest name the API keeps.
NAME_120 = ("Wholegrain spelt & rye sourdough loaf with toasted pumpkin, sunflower, flax and chia seeds, "
            "sliced, 800g, baked in store")
assert len(NAME_120) == 120
UNICODE_NAMES = [
    "Pho\u0302\u0301 bo\u0300 ta\u0301i (phở bò) — شوربة فو باللحم — מרק פו",  # combining marks + RTL
    "חומוס מסעדה עם טחינה גולמית ושמן זית כתית מעולה",
    "حمص بالطحينة وزيت الزيتون البكر الممتاز، علبة ٤٠٠ غرام",
    "Z\u0308a\u0327t\u0323a\u0330r\u0303 spice blend (za\u02bftar) – زعتر بلدي مع سمسم محمص",
    "Crème fraîche d'Isigny AOP, 35\u202f% M.G., pot de 20\u202fcl",
]
ICONS = ["generic", "apple", "bread", "carrot", "cheese", "egg", "fish", "meat", "milk", "drink", "grain", "nut",
         "leaf", "sweet", "bowl"]
QUALIFIERS = ["", ", organic", ", store brand", ", family pack", ", reduced sodium", ", value size",
              ", imported", ", frozen", ", ready to eat", ", no added sugar"]


def food_names(count=300):
    names = [NAME_120] + UNICODE_NAMES
    bases = USDA + OFF
    i = 0
    while len(names) < count:
        base = bases[i % len(bases)]
        qualifier = QUALIFIERS[(i // len(bases)) % len(QUALIFIERS)]
        names.append((base + qualifier)[:120])
        i += 1
    return names


def food_body(i, name):
    protein, carbs, fat = (i * 7) % 30, (i * 13) % 60, (i * 5) % 25
    body = {"name": name, "icon": ICONS[i % len(ICONS)],
            "per100": {"energyKcal": 4 * protein + 4 * carbs + 9 * fat + 10, "protein": protein,
                       "carbohydrates": carbs, "fat": fat, "fiber": i % 8}}
    if i % 3 == 0:
        body["serving"] = {"size": 30 + i % 120, "label": "1 serving (about a cup, heaped)"}
    if i % 4 == 0:
        body["brand"] = ["Alpro", "Müller", "Tesco Finest", "Kellogg's", "Fage", "Ben & Jerry's Homemade Inc."][i % 6]
        body["price"] = {"amount": 1.5 + i % 9, "per": "package", "packageSize": 500}
    return body


# Exactly 60 characters each.
DISHES = [
    "Roast chicken breast with Greek yogurt sauce and brown rice.",
    "Overnight oats with bananas, almonds and some peanut butter.",
    "Salmon with sweet potato wedges and steamed broccoli florets",
    "Black bean and quinoa bowl with avocado, tomato, lime crema.",
    "Spaghetti with lentil ragù, spinach and shaved sharp cheddar",
    "Tofu stir-fry with long-grain rice, broccoli and sesame oil.",
    "Turkey breast sandwiches on toasted whole-wheat bread, salad",
    "Pork tenderloin with baked russet potatoes and apple chutney",
    "Tuna salad with hard-boiled egg, olive oil and crusty bread.",
    "Beef burger with baked beans and a side of roasted tomatoes.",
]
assert all(len(d) == 60 for d in DISHES)
PROTEINS = ["chicken", "salmon", "beans", "tofu", "beef", "pork", "turkey", "tuna", "egg", "lentils"]
CARBS = ["rice", "pasta", "potato", "bread", "oats", "quinoa"]


def meal_description(i):
    base = DISHES[i % len(DISHES)]
    if i % 3 == 0:
        return base
    if i % 3 == 1:
        return f"{base} (batch {i // len(DISHES) + 1}), with extra vegetables, a squeeze of lemon and fresh herbs"
    return f"{base.split(' with ')[0]} #{i}"


def post(session, server, path, body):
    r = session.post(server.url(path), json=body)
    assert r.status_code in (200, 201), f"{path}: {r.status_code} {r.text[:300]}"
    return r.json()


def seed(server):
    """300 foods, 300 meals, a week of plan with several meals a day, three weeks of diary."""
    s = api_session(server, time_zone=TIME_ZONE)
    token = s.headers["Authorization"]

    def session():
        t = requests.Session()
        t.headers["Authorization"] = token
        return t

    sessions = [session() for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        names = food_names()
        foods = list(pool.map(lambda a: post(sessions[a[0] % 4], server, "/api/v1/foods", food_body(a[0], a[1])),
                              enumerate(names)))
        foods_by_name = {f["name"]: f for f in foods}

        def meal_body(i):
            picks = [foods[(i * 11 + k * 37) % len(foods)] for k in range(2 + i % 4)]
            if i % 10 == 0:
                picks[0] = foods_by_name[NAME_120]
            if i % 10 == 5:
                picks[0] = foods[1 + i % len(UNICODE_NAMES)]
            return {"description": meal_description(i), "primaryProtein": PROTEINS[i % len(PROTEINS)],
                    "primaryCarb": CARBS[i % len(CARBS)], "servings": 1 + i % 4,
                    "otherComponents": ["garlic", "onion", "fresh flat-leaf parsley"][: i % 4],
                    "ingredients": [{"foodId": f["id"], "quantity": 50 + 10 * k, "unit": "g"}
                                    for k, f in enumerate(picks)]}

        meals = list(pool.map(lambda i: post(sessions[i % 4], server, "/api/v1/meals", meal_body(i)), range(300)))
        today = datetime.datetime.now(datetime.timezone.utc).date()
        week = [(today + datetime.timedelta(days=d)).isoformat() for d in range(7)]
        assignments = [(date, meals[(d * 7 + k * 3) % len(meals)]["id"]) for d, date in enumerate(week)
                       for k in range(1 + (d * 2) % 5)]
        list(pool.map(lambda a: post(sessions[a[0] % 4], server, "/api/v1/plan/assignments",
                                     {"date": a[1][0], "mealId": a[1][1]}), enumerate(assignments)))

        def plate(args):
            day, meal_type, hour = args
            date = today - datetime.timedelta(days=day)
            i = day * 4 + hour
            items = [{"foodId": foods[(i * 13) % len(foods)]["id"], "quantity": 120, "unit": "g"},
                     {"mealId": meals[(i * 7) % len(meals)]["id"], "servings": 1}]
            if meal_type in ("lunch", "snack"):
                items.append({"foodId": foods[[0, 1, 2][i % 3]]["id"], "quantity": 80, "unit": "g"})
            if meal_type == "snack":
                items.append({"quickAdd": {"energyKcal": 180, "protein": 4},
                              "name": "Coffee with oat milk and a cinnamon bun from the bakery"})
            return post(sessions[i % 4], server, "/api/v1/diary/plate",
                        {"mealType": meal_type, "loggedAt": f"{date.isoformat()}T{hour:02d}:30:00Z", "items": items})

        slots = [("breakfast", 8), ("lunch", 12), ("dinner", 19), ("snack", 15)]
        plates = list(pool.map(plate, [(day, meal_type, hour) for day in range(21) for meal_type, hour in slots]))
    # Today's lunch ends with the 120-character food; meal 15 has the Unicode food among five
    # ingredients and three other components.
    assert plates[1][2]["foodId"] == foods_by_name[NAME_120]["id"], plates[1][2]
    # Seed 004: a meal type with a name of the longest allowed length, and a real photo (not
    # counted yet) logged to it today.
    long_type = post(s, server, "/api/v1/meal-types", {"displayName": LONG_TYPE_NAME, "window": {"start": "05:00", "end": "05:45"}})
    with open(os.path.join(ROOT, "Tests", "Fixtures", "photos", "photo.jpg"), "rb") as f:
        r = s.post(server.url("/api/v1/photos"), data=f.read(), headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 201, r.text
    photo_entry = post(s, server, "/api/v1/diary/entries", {"photoId": r.json()["id"], "mealType": long_type["id"].lower(),
                                                           "loggedAt": f"{today.isoformat()}T05:20:00Z"})
    # The week's shopping list (the plan's 300-food library makes a long one), a few rows
    # checked, one of the person's own with the longest name, shared; the other meal slots stepped up.
    shopping = post(s, server, "/api/v1/shopping-lists", {"from": week[0], "to": week[6]})
    for item in shopping["items"][:4]:
        r = s.put(server.url(f"/api/v1/shopping-lists/{shopping['id']}/items/{item['id']}"), json={"checked": True})
        assert r.status_code == 200, r.text
    post(s, server, f"/api/v1/shopping-lists/{shopping['id']}/items",
         {"name": NAME_120[:100] + " ‏صابون", "quantity": 12, "unit": "bottles"})
    share = post(s, server, f"/api/v1/shopping-lists/{shopping['id']}/share", {})
    return {"today": today, "food": foods_by_name[NAME_120], "unicode_food": foods[1], "meal": meals[15],
            "entry_id": plates[1][2]["id"], "photo_entry": photo_entry, "shopping": shopping,
            "shared": share["url"].split("/s/", 1)[1]}


# ---------------------------------------------------------------------------------------------
# What is measured in the page. Returns a list of {check, what, size} for one page, width, scheme.

MEASURE = r"""
const [phone, W] = arguments;
const minSide = phone ? 44 : 24;
const out = [];
const vw = W;
function describe(el) {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  const cls = [...el.classList].slice(0, 3).join('.');
  if (cls) s += '.' + cls;
  const parent = el.parentElement && el.parentElement.closest('[id], [class]');
  if (parent && !el.id) {
    let p = parent.tagName.toLowerCase() + (parent.id ? '#' + parent.id : '') +
      ([...parent.classList].length ? '.' + [...parent.classList].slice(0, 2).join('.') : '');
    s = p + ' ' + s;
  }
  const text = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('name') || '').trim().replace(/\s+/g, ' ');
  return s + (text ? ' "' + text.slice(0, 40) + '"' : '');
}
function shown(el) {
  if (!el.checkVisibility({visibilityProperty: true, opacityProperty: false})) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}
function visuallyHidden(el) {
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    const cs = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    if (e.classList.contains('visually-hidden')) return true;
    if ((cs.position === 'absolute' || cs.position === 'fixed') && r.width <= 1 && r.height <= 1) return true;
    if (cs.clip && cs.clip !== 'auto' && cs.position === 'absolute') return true;
  }
  return false;
}
function clippedByScroller(el) {
  // Inside a box that scrolls or clips sideways, an element may sit beyond the viewport on purpose:
  // what matters is that the scroller itself fits (it is measured on its own).
  for (let e = el.parentElement; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
    const ox = getComputedStyle(e).overflowX;
    if (ox !== 'visible') return true;
  }
  return false;
}
const size = r => Math.round(r.width) + 'x' + Math.round(r.height);

// 1. Sideways overflow.
const sw = document.documentElement.scrollWidth;
if (sw > vw + 1) out.push({check: 'overflow', what: 'document scrollWidth ' + sw + ' > ' + vw, size: ''});
const all = [...document.body.querySelectorAll('*')];
const offenders = [];
for (const el of all) {
  if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= vw + 1) continue;
  if (!shown(el) || visuallyHidden(el) || clippedByScroller(el)) continue;
  // Report the outermost offender only: its children overflow with it.
  if (offenders.some(o => o.contains(el))) continue;
  offenders.push(el);
  out.push({check: 'overflow', what: describe(el) + ' right edge ' + Math.round(r.right) + ' > ' + vw, size: size(r)});
}

// 2. Squeezed text: a box narrower than 40 px (about four characters) whose text of 4+ characters
// breaks over several lines or is clipped. A short word that fits on one line is not squeezed.
const NAMED = '.meal-title, .planned-name, .food-name, .entry-name, .panel-meal, .picker-item, h1, h2, h3, h4, ' +
  'label, p, li, td, th, dt, dd, a, button, legend, summary, figcaption';
function lines(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set();
  for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top / 4));
  return tops.size;
}
for (const el of all) {
  // The width first: reading the text (innerText) of every element of a long page took most of
  // the sweep's time.
  const r = el.getBoundingClientRect();
  if (r.width >= 40 || el.closest('svg')) continue;
  const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
  const text = el.matches(NAMED) ? el.innerText.trim() : own;
  if (!text || [...text].length < 4) continue;
  if (!shown(el) || visuallyHidden(el)) continue;
  const clipped = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible';
  if (lines(el) > 1 || clipped) out.push({check: 'squeezed text', what: describe(el), size: size(r)});
}

// 3. Nothing marked hidden shows.
for (const el of document.querySelectorAll('[hidden]')) {
  if (el.checkVisibility() && el.getClientRects().length > 0) {
    out.push({check: 'hidden shows', what: describe(el) + ' display:' + getComputedStyle(el).display, size: size(el.getBoundingClientRect())});
  }
}

// 4. Target sizes.
function inlineInProse(el) {
  if (el.tagName !== 'A') return false;
  if (getComputedStyle(el).display !== 'inline') return false;
  let block = el.parentElement;
  while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
  if (!block || !block.matches('p, li, dd, td, .hint, .flash, .empty, .form-error, .field-error')) return false;
  if (block.closest('nav, .tabs, .strip, .meal-actions, .form-actions, .page-head, .range-toggle, .week-nav')) return false;
  if (el.hasAttribute('download')) return false;  // a download is an action
  // Links side by side with only separators between them ("CSV · JSON") are a row of actions.
  for (const dir of ['previousSibling', 'nextSibling']) {
    let n = el[dir];
    while (n && n.nodeType === 3 && /^[\s·|,\/–-]*$/.test(n.textContent)) n = n[dir];
    if (n && n.nodeType === 1 && n.tagName === 'A') return false;
  }
  // Running text: the sentence around the link is longer than the link itself.
  const around = block.innerText.replace(el.innerText, '').trim();
  return around.length >= 3;
}
const seen = new Set();
for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')) {
  let target = el;
  if (el.matches('input[type=radio], input[type=checkbox]')) {
    const label = el.closest('label') || (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]'));
    if (label) target = label;
  }
  if (seen.has(target)) continue;
  seen.add(target);
  if (el.matches('.skip') && document.activeElement !== el) {
    // The skip link shows on focus only; measure it all the same (it is a control).
  } else if (!shown(target) || (visuallyHidden(target) && target === el)) {
    continue;
  }
  if (inlineInProse(el)) { out.push({check: 'exempt', what: describe(el), size: size(el.getBoundingClientRect())}); continue; }
  const r = target.getBoundingClientRect();
  if (r.width + 0.5 < minSide || r.height + 0.5 < minSide) {
    out.push({check: 'target ' + minSide + 'px', what: describe(target), size: size(r)});
  }
}

// 6. Cards keep apart: two cards that are not one inside the other stand at least 8 px apart.
const cards = [...document.querySelectorAll('.card')].filter(c => shown(c) && !visuallyHidden(c)).map(c => [c, c.getBoundingClientRect()]);
for (let i = 0; i < cards.length; i++) {
  for (let j = i + 1; j < cards.length; j++) {
    const [a, ra] = cards[i], [b, rb] = cards[j];
    if (a.contains(b) || b.contains(a)) continue;
    const apart = Math.max(Math.max(ra.left, rb.left) - Math.min(ra.right, rb.right), Math.max(ra.top, rb.top) - Math.min(ra.bottom, rb.bottom));
    if (apart < 8) out.push({check: 'cards touch', what: describe(a) + ' and ' + describe(b) + ' ' + Math.round(apart) + ' px apart', size: ''});
  }
}
return out;
"""


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
            for scheme in SCHEMES:
                set_dark(driver, scheme == "dark")
                driver.execute_script("window.scrollTo(0, 0)")
                where = f"{name} @{width} {scheme}"
                failed = False
                for f in driver.execute_script(MEASURE, width < PHONE_BREAKPOINT, width):
                    if f["check"] == "exempt":
                        exempt.add(f"{name}: {f['what']}")
                    else:
                        failures.append(f"{where}: [{f['check']}] {f['what']} {f['size']}".rstrip())
                        failed = True
                if failed:
                    screenshot_file(driver, os.path.join(SHOTS, f"{name}-{width}-{scheme}.png"))
            axe_schemes = [scheme for scheme in SCHEMES if (width, scheme) in AXE_AT]
            if axe_schemes:
                driver.execute_script(TRIM_LISTS)  # after the measurements: they see the whole page
            for scheme in axe_schemes:
                set_dark(driver, scheme == "dark")
                violations = axe_violations(driver)
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
            ("foods-list", "/foods?view=list", None),
            ("foods-grid", "/foods?view=grid", grid_view),
            ("food-edit", f"/foods/{seeded['food']['id']}/edit", None),
            ("food-edit-unicode", f"/foods/{seeded['unicode_food']['id']}/edit", None),
            ("food-new", "/foods/new", None),
            ("food-delete", f"/foods/{seeded['food']['id']}/delete", None),
            ("planner", "/plan", None),
            ("plan-suggestions", "/plan/suggestions", None),
            ("shopping", "/shopping", None),
            ("shopping-list", f"/shopping/{seeded['shopping']['id']}", None),
            ("shopping-shared", f"/s/{seeded['shared']}", None),
            ("shopping-item", f"/shopping/items/{seeded['shopping']['items'][0]['id']}/edit", None),
            ("plan-add", f"/plan/add?date={seeded['today'].isoformat()}", None),
            ("goals", "/goals", None),
            ("goals-targets", "/goals", lambda: driver.execute_script("document.getElementById('targets-details').open = true")),
            ("nutrients-week", "/diary/nutrients", None),
            ("settings", "/settings", None),
            ("your-data", "/settings/data", None),
            ("sign-in-methods", "/settings/sign-in", None),
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
