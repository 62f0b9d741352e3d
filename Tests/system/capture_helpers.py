"""Meal types through the API and the photo capture on Today, as a person uses it."""
from browser import PHOTO, css, wait_for


def meal_types(s, server):
    r = s.get(server.url("/api/v1/meal-types"))
    assert r.status_code == 200, r.text
    return r.json()


def type_by_key(s, server, key):
    return next(t for t in meal_types(s, server) if t["key"] == key)


def image_loaded(driver, element):
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", element)


def snap(driver, taps, path=PHOTO):
    """Tap 1: "Snap a meal" (the label opens the camera; send_keys is the camera, so it is counted, not
    clicked). Tap 2: the shutter, which hands the file to the page."""
    label = css(driver, "label.capture-button[for=capture-file]")
    assert label.is_displayed() and "Snap a meal" in label.text
    taps.count_only()
    taps.count_only()
    css(driver, "#capture-file").send_keys(path)
    wait_for(driver, lambda d: css(d, "#capture-preview").is_displayed() and image_loaded(d, css(d, "#capture-preview")),
             message="the chosen photo is shown before saving")
