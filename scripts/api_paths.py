"""The API's paths by operationId, read from the server itself (/js/api.js, which Forkcast generates from
ForkcastContract), so no script spells an API path: `paths = api_paths(base)`, then
`base + paths["logPlate"]` or `path(paths, "getMeal", id=...)`."""
import json
import re
import urllib.parse

import requests


def api_paths(base):
    text = requests.get(base + "/js/api.js", timeout=10).text
    found = re.search(r"export const operations = (\{.*?\});\n", text, re.S)
    if found:
        return {name: operation["path"] for name, operation in json.loads(found.group(1)).items()}
    # A binary from before /js/api.js (the benchmark's --against an earlier commit): its OpenAPI document.
    document = requests.get(base + "/api/v1/openapi.json", timeout=10)
    paths = {operation["operationId"]: path for path, item in (document.json().get("paths", {}) if document.ok else {}).items()
             for operation in item.values() if isinstance(operation, dict) and "operationId" in operation}
    if not paths:
        raise RuntimeError(f"{base} names no operations in /js/api.js or /api/v1/openapi.json")
    return paths


def path(paths, operation, **parameters):
    return re.sub(r"\{(\w+)\}", lambda m: urllib.parse.quote(str(parameters[m.group(1)]), safe=""), paths[operation])
