"""The API reference at /api/docs, in real Chromium: every operation of the served document, each
with its parameters, body, answers and an example, and "try it" with the session or a pasted token."""
from urllib.parse import urlparse

import pytest
import requests

from browser import css, screenshot, sign_in, wait_for
from conftest import register


@pytest.fixture
def server(shared_server):
    """One server for the module (sign-up open); each test has an account of its own."""
    return shared_server


def operations(server):
    document = requests.get(server.url("/api/v1/openapi.json")).json()
    return [(method, path, op) for path, item in document["paths"].items()
            for method, op in item.items() if method in ("get", "post", "put", "patch", "delete")]


def try_operation(driver, operation_id):
    driver.execute_script("document.getElementById(arguments[0]).open = true", f"op-{operation_id}")
    result = css(driver, f"#op-{operation_id} .api-result")
    before = result.text
    css(driver, f"#op-{operation_id} form.api-try button[type=submit]").click()
    wait_for(driver, lambda d: css(d, f"#op-{operation_id} .api-result").text not in ("", before)
             and "…" not in css(d, f"#op-{operation_id} .api-result").text)
    return css(driver, f"#op-{operation_id} .api-result").text


def test_the_reference_renders_every_operation_and_tries_them_as_the_signed_in_person(driver, server):
    documented = operations(server)
    register(server)
    sign_in(driver, server)
    driver.get(server.url("/api/docs"))
    rendered = driver.execute_script("return [...document.querySelectorAll('details.api-op')].map(d => d.id)")
    assert sorted(rendered) == sorted(f"op-{op['operationId']}" for _, _, op in documented)
    assert len(rendered) == len(documented) >= 60
    # Each shows its method and path, its answers, and (with a body) an example body.
    add_weight = css(driver, "#op-addWeight")
    driver.execute_script("arguments[0].open = true", add_weight)
    assert "POST" in add_weight.text and "/api/v1/weights" in add_weight.text
    assert "201" in add_weight.text and "409" in add_weight.text and "503" in add_weight.text
    assert '"weightKg"' in css(driver, "#op-addWeight textarea[name=body]").get_attribute("value")
    # Nothing comes from another host: the page works offline.
    host = urlparse(server.url("/")).netloc
    sources = driver.execute_script(
        "return [...document.querySelectorAll('script[src], link[href], img[src]')].map(e => e.src || e.href)")
    assert sources and all(urlparse(s).netloc == host for s in sources), sources
    screenshot(driver, "api-docs")  # axe checks this page in the layout sweep (test_layout_sweep.py)

    # Try it, as the signed-in person (the session and its CSRF token).
    assert try_operation(driver, "addWeight").startswith("201")
    listed = try_operation(driver, "listWeights")
    assert listed.startswith("200") and '"total": 1' in listed
    # A path parameter from the form: an unknown id is a problem, shown as it came.
    driver.execute_script("document.getElementById('op-deleteWeight').open = true")
    field = css(driver, "#op-deleteWeight input[name=id]")
    field.clear()
    field.send_keys("00000000-0000-4000-8000-000000000000")
    answer = try_operation(driver, "deleteWeight")
    assert answer.startswith("404") and "problems/not-found" in answer
    # A body that is not JSON is caught before sending.
    body = css(driver, "#op-addWeight textarea[name=body]")
    body.clear()
    body.send_keys("{nope")
    assert "not JSON" in try_operation(driver, "addWeight")
    screenshot(driver, "api-docs-tried")


def test_a_pasted_token_is_used_instead_of_the_session(driver, server):
    register(server)
    other = register(server, email="script-" + server.email)
    requests.post(server.url("/api/v1/weights"), headers=other, json={"weightKg": 80})
    requests.post(server.url("/api/v1/weights"), headers=other, json={"weightKg": 81, "measuredAt": "2026-11-01T07:00:00Z"})
    sign_in(driver, server)
    driver.get(server.url("/api/docs"))
    assert '"total": 0' in try_operation(driver, "listWeights")
    css(driver, "#api-token").send_keys(other["Authorization"].removeprefix("Bearer "))
    assert '"total": 2' in try_operation(driver, "listWeights")


def test_a_visitor_reads_the_reference_and_is_told_to_sign_in_to_try(driver, server):
    driver.get(server.url("/api/docs"))
    assert "API reference" in css(driver, "h1").text
    assert try_operation(driver, "getGoals").startswith("401")
