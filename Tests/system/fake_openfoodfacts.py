"""A local Open Food Facts stand-in serving the real fixtures (no test touches the internet)."""
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "openfoodfacts")
PRODUCTS = {
    "0737628064502": "v0_product_0737628064502_thai_noodle_kit_serving_size.json",
    "5449000011527": "v0_product_5449000011527_fanta_kj_only.json",
}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_file(self, name, status=200):
        with open(os.path.join(FIXTURES, name), "rb") as f:
            body = f.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.requests.append((self.path, self.headers.get("User-Agent")))
        if self.path.startswith("/api/v2/product/"):
            code = self.path.split("/")[4].split("?")[0]
            if code in PRODUCTS:
                return self.send_file(PRODUCTS[code])
            return self.send_file("v2_product_12345678_not_found.json", 404)
        if self.path.startswith("/cgi/search.pl"):
            return self.send_file("search_cgi_fanta_no_nutriments.json")
        self.send_response(404)
        self.end_headers()


class FakeOpenFoodFacts:
    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.requests = []
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def requests(self):
        return self.server.requests

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
