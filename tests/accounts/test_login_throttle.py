"""Log-in guessing is throttled (django-axes) per account and address, on the site's log-in page
and the admin's; the refusal is in words and staff can lift a lockout in the admin."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

WRONG = "not-the-password-1"


@pytest.fixture(autouse=True)
def _fresh_attempts():
    """Failed attempts are rows in the database; each test starts from none."""
    from axes.models import AccessAttempt

    AccessAttempt.objects.all().delete()
    yield


def _login(client, username, password, *, ip="203.0.113.7", url=None):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
    )


def test_the_right_password_after_the_failure_limit_is_refused_in_words(client, player, password):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        response = _login(client, player.username, WRONG)
        assert response.status_code == 200  # the form again, with Django's message
    locked = _login(client, player.username, WRONG)
    assert locked.status_code == 429
    # Now even the right password is refused, with the reason in words on the log-in page.
    response = _login(client, player.username, password)
    assert response.status_code == 429
    body = response.content.decode()
    assert "Too many wrong passwords for this account" in body
    assert "minutes" in body
    assert 'id="id_username"' in body  # the log-in page, in the site's layout
    assert "_auth_user_id" not in client.session


def test_a_success_before_the_limit_resets_the_count(client, player, password):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, player.username, WRONG)
    assert _login(client, player.username, password).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, player.username, WRONG).status_code == 200
    assert _login(client, player.username, password).status_code == 302


def test_a_lockout_holds_for_that_account_and_address_only(client, user_factory, password):
    victim, other = user_factory(), user_factory()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, victim.username, WRONG)
    assert _login(client, victim.username, password).status_code == 429
    # The owner from another address, and another account from the guessing address, log in.
    assert _login(client, victim.username, password, ip="198.51.100.9").status_code == 302
    client.logout()
    assert _login(client, other.username, password).status_code == 302


def test_the_admin_login_is_throttled_too(client, user_factory, password):
    staff = user_factory(is_staff=True, is_superuser=True)
    url = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, staff.username, WRONG, url=url)
    response = _login(client, staff.username, password, url=url)
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_staff_unlock_an_account_in_the_admin(client, user_factory, player, password):
    from axes.models import AccessAttempt

    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, player.username, WRONG)
    assert _login(client, player.username, password).status_code == 429
    attempt = AccessAttempt.objects.get(username=player.username)

    staff_client = type(client)()
    staff_client.force_login(user_factory(is_staff=True, is_superuser=True))
    changelist = staff_client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200
    assert player.username in changelist.content.decode()
    deleted = staff_client.post(
        reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"}
    )
    assert deleted.status_code == 302

    assert _login(client, player.username, password).status_code == 302


def test_the_address_behind_a_trusted_proxy_is_the_forwarded_one(rf, settings):
    from accounts.throttle import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.2"
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    assert client_ip(request) == "203.0.113.5"
    # The same header from a peer that is not a configured proxy is ignored.
    settings.TRUSTED_PROXIES = ["10.9.9.9"]
    assert client_ip(request) == "10.0.0.2"
    # A forwarded value that is not an address is not used either.
    forged = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-ip")
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    assert client_ip(forged) == "10.0.0.2"


def test_with_a_proxy_secret_only_a_request_carrying_it_is_forwarded(rf, settings):
    from accounts.throttle import client_ip

    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TRUSTED_PROXY_SECRET = "s3cret-of-the-proxy"

    def seen(**headers: str) -> str:
        return client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", **headers))

    forwarded = {"HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert seen(**forwarded, HTTP_X_PROXY_SECRET="s3cret-of-the-proxy") == "203.0.113.5"
    # Another process of the host, straight to a web process: its peer address is counted.
    assert seen(**forwarded) == "127.0.0.1"
    assert seen(**forwarded, HTTP_X_PROXY_SECRET="s3cret") == "127.0.0.1"
    assert seen(**forwarded, HTTP_X_PROXY_SECRET="") == "127.0.0.1"
    settings.TRUSTED_PROXY_SECRET = ""  # no secret configured: the peer's trust alone
    assert seen(**forwarded) == "203.0.113.5"


def test_rotating_x_forwarded_for_from_a_direct_client_does_not_dodge_the_lockout(
    client, player, settings
):
    """Issue 21, point 10: one trusted proxy configured, but the client talks to the site
    directly and sends a new X-Forwarded-For each time: its own address is counted."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    statuses = []
    for n in range(12):
        response = client.post(
            reverse("login"),
            {"username": player.username, "password": WRONG},
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n + 1}",
        )
        statuses.append(response.status_code)
    assert statuses[: settings.AXES_FAILURE_LIMIT - 1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert set(statuses[settings.AXES_FAILURE_LIMIT - 1 :]) == {429}


def test_a_guesser_behind_the_proxy_does_not_lock_the_owner_out(client, player, password, settings):
    """Locked per (account, address): wrong passwords from one address leave the owner, at
    another address behind the same proxy, free to log in."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        client.post(
            reverse("login"),
            {"username": player.username, "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="198.51.100.66",
        )
    owner = client.post(
        reverse("login"),
        {"username": player.username, "password": password},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="192.0.2.10",
    )
    assert owner.status_code == 302


def test_one_address_guessing_across_many_accounts_is_throttled(client, user_factory, settings):
    """The per-address throttle (settings.RATE_LIMITS["login"]): 30 log-in tries per 10 minutes
    from one address, whatever the accounts; then a 429 in words."""
    statuses = []
    for n in range(32):
        response = _login(client, f"nobody{n}", WRONG, ip="203.0.113.99")
        statuses.append(response.status_code)
    assert statuses[:30] == [200] * 30
    assert statuses[30:] == [429, 429]
    assert "Too many tries in a short time" in response.content.decode()
    assert response["Retry-After"] == "60"
    # Another address is not affected.
    assert _login(client, "nobody", WRONG, ip="203.0.113.100").status_code == 200


@pytest.mark.parametrize("url_name", ["login", "admin:login"])
def test_an_overlong_username_is_refused_before_it_is_checked(client, url_name):
    from axes.models import AccessAttempt

    response = _login(client, "u" * 5000, WRONG, url=reverse(url_name))
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()


def test_the_lockout_reads_in_the_players_language(client, player, password, settings):
    """The lockout words are translated, with the pause in whole minutes (one: singular)."""
    from datetime import timedelta

    from django.utils import translation

    from accounts.throttle import lockout_message

    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    with translation.override("en"):
        assert "paused for 1 minute." in lockout_message()
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    with translation.override("hi"):
        hindi = lockout_message()
    assert "15 मिनट" in hindi and "Too many" not in hindi
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, player.username, WRONG)
    client.cookies["django_language"] = "hi"
    with translation.override("en"):  # the request's language ends with it
        body = _login(client, player.username, password).content.decode()
    assert "15 मिनट के लिए रोक दिया गया है" in body
