"""Single sign-on in a real browser: a local OpenID Connect provider (fake_oidc.py), the
first account made by "Continue with Dex", Settings › Sign-in methods, a password account that links
the provider, and password sign-in turned off."""
import pytest
import requests

from browser import api_session, as_someone_else, axe_check, css, screenshot, wait_for
from fake_oidc import FakeOIDC


@pytest.fixture
def oidc():
    provider = FakeOIDC()
    yield provider
    provider.stop()


def test_the_first_account_is_made_with_single_sign_on_and_its_methods_are_shown(driver, start_server, oidc):
    server = start_server(**oidc.env())
    driver.get(server.url("/setup"))
    screenshot(driver, "setup-with-sso")
    axe_check(driver, "setup-with-sso")
    css(driver, "a.provider-oidc").click()  # 1 tap: the provider approves at once here
    wait_for(driver, lambda d: d.current_url.endswith("/diary"), message="single sign-on did not reach Today")
    assert "Welcome!" in css(driver, "main").text
    driver.get(server.url("/settings"))
    css(driver, 'a[href="/settings/sign-in"]').click()
    wait_for(driver, lambda d: d.current_url.endswith("/settings/sign-in"))
    text = css(driver, "main").text
    assert "Dex" in text and "linked as sso@example.com" in text and "none: this account signs in only" in text, text
    screenshot(driver, "sign-in-methods")
    axe_check(driver, "sign-in-methods")
    # Its only way in cannot be unlinked.
    css(driver, "#method-oidc button[type=submit]").click()
    wait_for(driver, lambda d: "only way this account signs in" in css(d, "main").text)
    assert all(r.get("code_verifier") for r in oidc.token_requests)


def test_a_password_account_links_the_provider_and_then_signs_in_with_it(driver, start_server, oidc):
    server = start_server(**oidc.env())
    api_session(server)  # owner@example.com
    oidc.person = {"sub": "owner-at-dex", "email": "owner@example.com", "email_verified": True}
    # Signing in with the provider first: the email matches, so it asks for the password instead of linking.
    driver.get(server.url("/login"))
    css(driver, "a.provider-oidc").click()
    wait_for(driver, lambda d: "never joins accounts by email" in css(d, "main").text)
    css(driver, "#field-password").send_keys("correct horse")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: "Dex is linked to your account" in css(d, "main").text)
    as_someone_else(driver, server)
    driver.get(server.url("/login"))
    css(driver, "a.provider-oidc").click()
    wait_for(driver, lambda d: d.current_url.endswith("/diary"))
    me = requests.post(server.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "correct horse"})
    assert me.status_code == 200


def test_password_sign_in_can_be_turned_off(driver, start_server, oidc):
    server = start_server(**oidc.env(FORKCAST_PASSWORD_LOGIN="false"))
    driver.get(server.url("/setup"))
    assert not driver.find_elements("css selector", "#field-password")
    css(driver, "a.provider-oidc").click()
    wait_for(driver, lambda d: d.current_url.endswith("/diary"))
    r = requests.post(server.url("/api/v1/auth/register"), json={"email": "x@example.com", "password": "correct horse"})
    assert r.status_code == 403 and "turned off" in r.json()["detail"]


def test_sign_in_with_apple_survives_the_cross_site_form_post(driver, start_server, tmp_path):
    """Apple answers with a form POST from its own site: the session cookie (SameSite=Lax) does not
    travel with it, so Forkcast hands the answer on to a GET that carries it."""
    from fake_apple import FakeApple
    apple = FakeApple(str(tmp_path / "AuthKey.p8"))
    try:
        server = start_server(**apple.env())
        driver.get(server.url("/setup"))
        css(driver, "a.provider-apple").click()
        wait_for(driver, lambda d: d.current_url.startswith(apple.issuer + "/auth/authorize"))
        css(driver, "#approve").click()  # Apple's page posts to /auth/apple/callback, cross-site
        wait_for(driver, lambda d: d.current_url.endswith("/diary"), message="the form_post did not sign in")
        assert apple.secrets_seen, "the client secret was checked"
        driver.get(server.url("/settings/sign-in"))
        text = css(driver, "main").text
        assert "Apple" in text and "linked as hidden@privaterelay.appleid.com" in text, text
        driver.get(server.url("/settings"))
        assert css(driver, "#field-displayName").get_attribute("value") == "Zoë O'Brien"
    finally:
        apple.stop()
