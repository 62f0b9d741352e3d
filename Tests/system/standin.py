"""What the local stand-ins for identity providers (fake_oidc.py, fake_apple.py) share: base64url,
a quiet request handler that answers in one call, and a server on a free loopback port."""
import base64
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json", headers=None):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def form(self):
        import urllib.parse
        return dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()))


def serve(handler):
    """Serves `handler` on 127.0.0.1 at a free port in a daemon thread; the server (its port in server_address)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
