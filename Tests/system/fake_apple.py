"""A stand-in for Sign in with Apple's web endpoints for the browser tests, on another site than
Forkcast (http://localhost:<port> against Forkcast's 127.0.0.1), so its answer is a real cross-site
form POST as Apple's `response_mode=form_post` is. /auth/authorize shows an approval page whose
button posts code, state and `user` to the return URL; /auth/token checks the client secret (an ES256
JWT by the team key: iss team, sub Services ID, aud Apple) and answers an RS256 identity token;
/auth/keys publishes the RSA key."""
import html
import json
import secrets
import time
import urllib.parse

import standin
from standin import b64, unb64
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

SERVICES_ID = "org.forkcast.web"
TEAM_ID = "TEAM123456"
KEY_ID = "KEY7654321"




class FakeApple:
    def __init__(self, key_file):
        self.team_key = ec.generate_private_key(ec.SECP256R1())
        with open(key_file, "wb") as f:
            f.write(self.team_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
        self.key_file = key_file
        self.signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.person = {"sub": "000123.apple.person", "email": "hidden@privaterelay.appleid.com",
                       "email_verified": "true", "is_private_email": "true"}
        self.codes = {}
        self.secrets_seen = []
        provider = self

        class Handler(standin.Handler):

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                if url.path == "/auth/keys":
                    n = provider.signing_key.public_key().public_numbers()
                    self.answer(200, json.dumps({"keys": [{"kty": "RSA", "kid": "apple-web", "use": "sig", "alg": "RS256",
                                                           "n": b64(n.n.to_bytes(256, "big")), "e": b64(n.e.to_bytes(3, "big"))}]}))
                elif url.path == "/auth/authorize":
                    q = dict(urllib.parse.parse_qsl(url.query))
                    assert q.get("response_mode") == "form_post" and q.get("client_id") == SERVICES_ID, q
                    code = secrets.token_urlsafe(16)
                    provider.codes[code] = (q.get("nonce"), dict(provider.person))
                    user = json.dumps({"name": {"firstName": "Zoë", "lastName": "O'Brien"}, "email": provider.person["email"]})
                    fields = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">'
                                     for k, v in {"code": code, "state": q["state"], "user": user}.items())
                    self.answer(200, f'<!doctype html><html lang="en"><title>Apple</title><form method="post" action="{html.escape(q["redirect_uri"])}">'
                                     f'{fields}<button id="approve" type="submit">Continue</button></form></html>', "text/html")
                else:
                    self.answer(404, "{}")

            def do_POST(self):
                form = self.form()
                if not provider.client_secret_ok(form.get("client_secret", ""), form.get("client_id")):
                    return self.answer(400, json.dumps({"error": "invalid_client"}))
                issued = provider.codes.pop(form.get("code"), None)
                if not issued:
                    return self.answer(400, json.dumps({"error": "invalid_grant"}))
                nonce, person = issued
                now = int(time.time())
                claims = dict(person, iss=provider.issuer, aud=SERVICES_ID, iat=now, exp=now + 600, nonce=nonce)
                self.answer(200, json.dumps({"id_token": provider.sign(claims), "token_type": "Bearer"}))

        self.server = standin.serve(Handler)
        # "localhost", not 127.0.0.1: another site than Forkcast, so the form post is cross-site.
        self.issuer = f"http://localhost:{self.server.server_address[1]}"

    def client_secret_ok(self, secret, client_id):
        try:
            head, body, signature = secret.split(".")
            header, claims = json.loads(unb64(head)), json.loads(unb64(body))
            raw = unb64(signature)
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            self.team_key.public_key().verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except Exception:
            return False
        self.secrets_seen.append(claims)
        return (header.get("alg") == "ES256" and header.get("kid") == KEY_ID and claims.get("iss") == TEAM_ID
                and claims.get("sub") == SERVICES_ID == client_id and claims.get("aud") == self.issuer
                and claims.get("exp", 0) > time.time())

    def sign(self, claims):
        head = b64(json.dumps({"alg": "RS256", "kid": "apple-web"}).encode())
        body = b64(json.dumps(claims).encode())
        return f"{head}.{body}.{b64(self.signing_key.sign(f'{head}.{body}'.encode(), padding.PKCS1v15(), hashes.SHA256()))}"

    def env(self):
        return {"FORKCAST_APPLE_CLIENT_ID": SERVICES_ID, "FORKCAST_APPLE_TEAM_ID": TEAM_ID, "FORKCAST_APPLE_KEY_ID": KEY_ID,
                "FORKCAST_APPLE_PRIVATE_KEY_FILE": self.key_file, "FORKCAST_APPLE_URL": self.issuer}

    def stop(self):
        self.server.shutdown()
