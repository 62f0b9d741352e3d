"""The layout sweep's data: real long names (USDA and Open Food Facts style, a 120-character one,
combining marks and right-to-left text), meals, a year of plan and entries, seeded through the API."""
import datetime
import os
from concurrent.futures import ThreadPoolExecutor

import requests

from browser import api_session
from conftest import ROOT

TIME_ZONE = "UTC"

# A meal type's name may be 40 characters long.
LONG_TYPE_NAME = "Zweites Frühstück nach dem Frühschwimmen"
# Household members of the longest display name allowed (100), and one in Arabic with its marks.
LONG_MEMBER = ("Maximiliana Wilhelmina Anastasia von Hohenzollern-Sigmaringen " + "y Barcelona-Montserrat de la Vega")[:100]
RTL_MEMBER = "زَيْنَب عَبْد ٱللَّٰه"

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


def register(server, email, name, invitation):
    r = requests.post(server.url("/api/v1/auth/register"),
                      json={"email": email, "password": "correct horse", "displayName": name, "invitation": invitation})
    assert r.status_code == 201, r.text
    t = requests.Session()
    t.headers["Authorization"] = "Bearer " + r.json()["token"]
    return r.json()["user"]["id"], t


def household(s, server):
    """Two members with long names join the person's household; another person's household has a
    link waiting for them (the join page, where they are asked to leave theirs first)."""
    members = [register(server, email, name, post(s, server, "/api/v1/household/invitations", {})["token"])[0]
               for email, name in [("maximiliana@example.com", LONG_MEMBER), ("zainab@example.com", RTL_MEMBER)]]
    _, other = register(server, "other-owner@example.com", LONG_MEMBER[::-1], post(s, server, "/api/v1/invitations", {})["token"])
    return members, post(other, server, "/api/v1/household/invitations", {})["token"]


def seed(server):
    """300 foods, 300 meals, a household of three, a week of plan with several meals a day (one
    with portions each), three weeks of diary."""
    s = api_session(server, time_zone=TIME_ZONE)
    token = s.headers["Authorization"]
    members, join = household(s, server)

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
            body = {"description": meal_description(i), "primaryProtein": PROTEINS[i % len(PROTEINS)],
                    "primaryCarb": CARBS[i % len(CARBS)], "servings": 1 + i % 4,
                    "otherComponents": ["garlic", "onion", "fresh flat-leaf parsley"][: i % 4],
                    "ingredients": [{"foodId": f["id"], "quantity": 50 + 10 * k, "unit": "g"}
                                    for k, f in enumerate(picks)]}
            if i == 10:  # the recipe the sweep opens: long steps, RTL text, lines kept as written
                body["ingredients"] += [{"text": "2 1/2 cups " + NAME_120 + ", sifted"}, {"text": "½ tsp " + UNICODE_NAMES[0]},
                                        {"text": "salt to taste"}]
                body["steps"] = [{"text": "Whisk " + NAME_120 + " until " + "smooth and glossy, " * 12, "timerSeconds": 600},
                                 {"text": UNICODE_NAMES[0] + " " + RTL_MEMBER, "timerSeconds": 45}, {"text": "Serve."}]
                body.update({"prepMinutes": 15, "cookMinutes": 95, "source": "https://example.com/" + "very-long-recipe-path/" * 8,
                             "notes": "Keeps 3 days.\n" + UNICODE_NAMES[0]})
            return body

        meals = list(pool.map(lambda i: post(sessions[i % 4], server, "/api/v1/meals", meal_body(i)), range(300)))
        today = datetime.datetime.now(datetime.timezone.utc).date()
        week = [(today + datetime.timedelta(days=d)).isoformat() for d in range(7)]
        assignments = [(date, meals[(d * 7 + k * 3) % len(meals)]["id"]) for d, date in enumerate(week)
                       for k in range(1 + (d * 2) % 5)]
        list(pool.map(lambda a: post(sessions[a[0] % 4], server, "/api/v1/plan/assignments",
                                     {"date": a[1][0], "mealId": a[1][1]}), enumerate(assignments)))
        me = s.get(server.url("/api/v1/me")).json()["id"]
        post(s, server, "/api/v1/plan/assignments", {"date": week[0], "mealId": meals[15]["id"], "mealType": "dinner",
                                                      "eaters": [{"userId": me, "portions": 1}, {"userId": members[0], "portions": 2.5}]})

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
        jpeg = f.read()
    r = s.post(server.url("/api/v1/photos"), data=jpeg, headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 201, r.text
    # The swept recipe heads with its photo (the page's largest element on a phone).
    assert s.put(server.url(f"/api/v1/meals/{meals[10]['id']}/photo"), data=jpeg, headers={"Content-Type": "image/jpeg"}).status_code == 200
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
    # The pantry: the four ticks booked in, the 120-character food going off tomorrow in a place
    # the household named (Arabic marks included), an opened lot in the fridge.
    post(s, server, "/api/v1/pantry", {"foodId": foods_by_name[NAME_120]["id"], "amount": 1250, "location": "Vorratsschrank unten ‏خزانة المطبخ",
                                       "bestBefore": (today + datetime.timedelta(days=1)).isoformat()})
    post(s, server, "/api/v1/pantry", {"foodId": foods[1]["id"], "amount": 300, "location": "fridge", "opened": True})
    # A coach's link to the last fortnight, everything shown (the page a coach opens).
    # A weekday breakfast that repeats (its mark and its × with three choices on the planner) and
    # the week saved as a template with a long name (Planner › Templates).
    post(s, server, "/api/v1/plan/assignments", {"mealId": meals[3]["id"], "date": week[0], "mealType": "breakfast",
                                                 "repeat": {"weekdays": [1, 2, 3, 4, 5], "count": 10}})
    post(s, server, "/api/v1/plan/templates", {"name": "Weekday dinners " + "long name " * 8, "start": week[0]})
    post(s, server, "/api/v1/calendar-feeds", {"scope": "household"})  # listed on Settings › calendar
    post(s, server, "/api/v1/api-keys", {"name": "Home Assistant " + "long name " * 8, "access": "write", "areas": ["plan", "shopping", "pantry"]})
    coach = post(s, server, "/api/v1/diary-links", {"from": (today - datetime.timedelta(days=13)).isoformat(), "to": today.isoformat()})
    return {"coach": coach["token"], "today": today, "food": foods_by_name[NAME_120], "unicode_food": foods[1], "meal": meals[15], "recipe": meals[10],
            "entry_id": plates[1][2]["id"], "photo_entry": photo_entry, "shopping": shopping,
            "shared": share["url"].split("/s/", 1)[1], "join": join}


# ---------------------------------------------------------------------------------------------
