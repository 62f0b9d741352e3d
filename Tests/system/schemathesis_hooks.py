"""Schemathesis hooks: keep generated requests inside the rules JSON Schema cannot state, so that
"a schema-valid request was rejected" means a real bug. Each filter states the server's rule it
mirrors (the rule itself lives in ForkcastCore; these only avoid generating what it refuses):

- from/to and plannedFrom/plannedTo: the first is not after the second, and a range is at most the
  endpoint's maximum number of days (summary 400, export 7320);
- a body profile's date of birth gives an age of 13 to 120 today, and an imperial height/weight
  converts into the metric ranges;
- a food's sugars are not more than its carbohydrates, saturated fat not more than fat, and
  protein + carbohydrates + fat at most 100 g per 100 g;
- a new password is at most 72 bytes (bcrypt), not only spaces, not a common one, not the email.

Loaded with SCHEMATHESIS_HOOKS=schemathesis_hooks (Tests/system on PYTHONPATH).
"""
import re
import uuid
from datetime import date

import schemathesis

COMMON = {"password", "password1", "password12", "password123", "12345678", "123456789", "1234567890", "qwertyuiop",
          "iloveyou", "11111111", "00000000", "sunshine", "princess", "football", "baseball", "welcome1", "abc12345",
          "qwerty123", "1q2w3e4r", "admin123", "letmein1", "trustno1", "passw0rd", "starwars", "whatever", "superman",
          "forkcast", "mealplan", "changeme", "computer", "internet", "qwertyui", "asdfghjk", "87654321"}


def _date(value):
    try:
        return date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


def _ordered(query, first, second, maximum=None):
    if not isinstance(query, dict):
        return True
    a, b = _date(query.get(first)), _date(query.get(second))
    if a and b:
        return a <= b and (maximum is None or (b - a).days < maximum)
    return True


@schemathesis.hook("filter_query").apply_to(path="/api/v1/diary/summary")
def summary_range(ctx, query):
    return _ordered(query, "from", "to", 400)


@schemathesis.hook("filter_query").apply_to(path="/api/v1/diary/export")
def export_range(ctx, query):
    return _ordered(query, "from", "to", 7320)


@schemathesis.hook("filter_query").apply_to(path_regex=r"^/api/v1/meals(/\{id\})?$")
def planned_window(ctx, query):
    return _ordered(query, "plannedFrom", "plannedTo")


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@schemathesis.hook("filter_body").apply_to(path="/api/v1/body-profile")
def plausible_person(ctx, body):
    if not isinstance(body, dict):
        return True
    born = _date(body.get("birthDate"))
    if born:
        today = date.today()
        age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
        if not 13 <= age <= 120:
            return False
    ft, inches = _number(body.get("heightFt")), _number(body.get("heightIn"))
    if body.get("heightCm") is None and (ft is not None or inches is not None):
        if not 50 <= ((ft or 0) * 12 + (inches or 0)) * 2.54 <= 272:
            return False
    lb = _number(body.get("weightLb"))
    if body.get("weightKg") is None and lb is not None and not 20 <= lb * 0.45359237 <= 635:
        return False
    return True


@schemathesis.hook("filter_body").apply_to(path_regex=r"^/api/v1/foods(/\{id\})?$")
def plausible_food(ctx, body):
    if not isinstance(body, dict) or not isinstance(body.get("per100"), dict):
        return True
    per100 = body["per100"]
    value = lambda key: _number(per100.get(key))  # noqa: E731
    if value("sugars") is not None and value("carbohydrates") is not None and value("sugars") > value("carbohydrates"):
        return False
    if value("saturatedFat") is not None and value("fat") is not None and value("saturatedFat") > value("fat"):
        return False
    macros = [value(k) for k in ("protein", "carbohydrates", "fat") if value(k) is not None]
    if body.get("basis") in (None, "g") and sum(macros) > 100:
        return False
    if value("energyKj") is not None and value("energyKcal") is None and value("energyKj") / 4.184 > 900:
        return False
    return True


@schemathesis.hook("filter_body").apply_to(path="/api/v1/auth/register")
def acceptable_password(ctx, body):
    if not isinstance(body, dict) or not isinstance(body.get("password"), str):
        return True
    password, email = body["password"], str(body.get("email") or "").strip().lower()
    return (len(password.encode()) <= 72 and password.strip() != "" and password.lower() not in COMMON
            and len(set(password.lower())) > 1 and password.lower() not in (email, email.split("@")[0]))


SMALL_EXPORT = (b'<?xml version="1.0"?>\n<HealthData locale="en">\n'
                b' <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-03-01 07:00:00 +0100" value="72.5"/>\n'
                b'</HealthData>\n')


@schemathesis.hook("map_body").apply_to(path="/api/v1/health/import", method="POST")
def a_real_export(ctx, body):
    """Any bytes are "valid" for a binary body, but only an Apple Health export can be imported;
    the negative cases (no body, wrong media type) are unaffected."""
    return SMALL_EXPORT if body else body


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """A valid Idempotency-Key is made new for each request: generated keys repeat ("0"), and the
    same key with another body is a 422, or a replay of a record since deleted, by design (both
    tested in Tests/ForkcastServerTests/OutcomeTests.swift). Keys the schema refuses stay, for the 400."""
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and re.fullmatch(r"[!-~]{1,255}", key):
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
