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
    if not found:
        raise RuntimeError(f"{base}/js/api.js names no operations")
    return {name: operation["path"] for name, operation in json.loads(found.group(1)).items()}


def path(paths, operation, **parameters):
    return re.sub(r"\{(\w+)\}", lambda m: urllib.parse.quote(str(parameters[m.group(1)]), safe=""), paths[operation])
