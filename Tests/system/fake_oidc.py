"""A small OpenID Connect provider for the browser tests: discovery, an authorization endpoint that
approves at once as the person the test chose, a token endpoint that checks the client secret
(HTTP Basic) and the PKCE verifier, and ES256 identity tokens with a published key."""
import base64
import hashlib
import json
import secrets
import time
import urllib.parse

import standin
from standin import b64
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

CLIENT_ID = "forkcast"
CLIENT_SECRET = "browser-secret"



class FakeOIDC:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.person = {"sub": "person-1", "email": "sso@example.com", "email_verified": True, "name": "Sso Person"}
        self.codes = {}
        self.token_requests = []
        provider = self

        class Handler(standin.Handler):

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                if url.path == "/.well-known/openid-configuration":
                    base = provider.issuer
                    self.answer(200, json.dumps({"issuer": base, "authorization_endpoint": base + "/authorize",
                                                 "token_endpoint": base + "/token", "jwks_uri": base + "/jwks",
                                                 "token_endpoint_auth_methods_supported": ["client_secret_basic"]}))
                elif url.path == "/jwks":
                    numbers = provider.key.public_key().public_numbers()
                    self.answer(200, json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256",
                                                           "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}]}))
                elif url.path == "/authorize":
                    q = dict(urllib.parse.parse_qsl(url.query))
                    code = secrets.token_urlsafe(16)
                    provider.codes[code] = (q.get("nonce"), q.get("code_challenge"), q["client_id"], dict(provider.person))
                    target = q["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": q["state"]})
                    self.answer(302, "", "text/plain", {"Location": target})
                else:
                    self.answer(404, "{}")

            def do_POST(self):
                form = self.form()
                provider.token_requests.append(form)
                # RFC 6749 §2.3.1: id and secret are form-encoded inside HTTP Basic.
                try:
                    user, _, password = base64.b64decode(self.headers.get("Authorization", "")[6:]).decode().partition(":")
                except ValueError:
                    user, password = "", ""
                if urllib.parse.unquote_plus(user) != CLIENT_ID or urllib.parse.unquote_plus(password) != CLIENT_SECRET:
                    return self.answer(401, json.dumps({"error": "invalid_client"}))
                issued = provider.codes.pop(form.get("code"), None)
                if not issued:
                    return self.answer(400, json.dumps({"error": "invalid_grant"}))
                nonce, challenge, audience, person = issued
                verifier = form.get("code_verifier", "")
                if b64(hashlib.sha256(verifier.encode()).digest()) != challenge:
                    return self.answer(400, json.dumps({"error": "invalid_grant"}))
                now = int(time.time())
                claims = dict(person, iss=provider.issuer, aud=audience, iat=now, exp=now + 300, nonce=nonce)
                self.answer(200, json.dumps({"id_token": provider.sign(claims), "token_type": "Bearer"}))

        self.server = standin.serve(Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"

    def sign(self, claims):
        head = b64(json.dumps({"alg": "ES256", "kid": "k1", "typ": "JWT"}).encode())
        body = b64(json.dumps(claims).encode())
        der = self.key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        return f"{head}.{body}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"

    def env(self, **extra):
        return {"FORKCAST_OIDC_ISSUER": self.issuer, "FORKCAST_OIDC_CLIENT_ID": CLIENT_ID,
                "FORKCAST_OIDC_CLIENT_SECRET": CLIENT_SECRET, "FORKCAST_OIDC_NAME": "Dex", **extra}

    def stop(self):
        self.server.shutdown()
