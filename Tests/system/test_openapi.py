"""The served OpenAPI document is valid OpenAPI 3.1 and matches what the server answers."""
import requests
from openapi_spec_validator import validate

from conftest import register


def test_openapi_document_is_valid(start_server):
    server = start_server()
    spec = requests.get(server.url("/api/v1/openapi.json")).json()
    validate(spec)
    assert spec["info"]["title"] == "Forkcast API"


def test_documented_required_fields_are_present_in_answers(start_server):
    server = start_server()
    spec = requests.get(server.url("/api/v1/openapi.json")).json()
    schemas = spec["components"]["schemas"]
    headers = register(server)
    meal = requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "Pho", "primaryProtein": "Beef"}).json()
    assert set(schemas["Meal"]["required"]) <= set(meal)
    plan = requests.get(server.url("/api/v1/plan"), headers=headers).json()
    assert set(schemas["Plan"]["required"]) <= set(plan)
    assert set(schemas["PlanDay"]["required"]) <= set(plan["days"][0])
    problem = requests.get(server.url("/api/v1/meals/nope"), headers=headers).json()
    assert set(schemas["Problem"]["required"]) <= set(problem)
