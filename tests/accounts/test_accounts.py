from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.mark.smoke
def test_sign_up_logs_in_and_shows_the_lobby(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "meera",
            "display_name": "Meera",
            "email": "meera@example.com",
            "password1": "tiles-and-tigers-42",
            "password2": "tiles-and-tigers-42",
            "age_confirmed": "on",  # asked while money games are on (MONEY_GAMES)
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    lobby = client.get(reverse("lobby"))
    assert lobby.status_code == 200
    assert "Meera" in lobby.content.decode()
    assert User.objects.get(username="meera").display_name == "Meera"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {
                "username": "",
                "password1": "tiles-and-tigers-42",
                "password2": "tiles-and-tigers-42",
            },
            "This field is required.",
        ),
        (
            {"username": "x", "password1": "tiles-and-tigers-42", "password2": "other-password-99"},
            "The two password fields didn",
        ),
        ({"username": "x", "password1": "123", "password2": "123"}, "This password is too short"),
        (
            {"username": "x", "password1": "password", "password2": "password"},
            "This password is too common",
        ),
        (
            {
                "username": "bad name!",
                "password1": "tiles-and-tigers-42",
                "password2": "tiles-and-tigers-42",
            },
            "Enter a valid username",
        ),
    ],
)
def test_sign_up_rejects_bad_input_with_a_clear_message(client, data, message):
    before = User.objects.count()
    response = client.post(reverse("signup"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert User.objects.count() == before


def test_sign_up_rejects_a_taken_username(client, player):
    response = client.post(
        reverse("signup"),
        {
            "username": player.username,
            "password1": "tiles-and-tigers-42",
            "password2": "tiles-and-tigers-42",
        },
    )
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()


def test_log_in_and_log_out(client, player, password):
    response = client.post(reverse("login"), {"username": player.username, "password": password})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 302


def test_log_in_with_a_wrong_password_is_refused(client, player):
    response = client.post(reverse("login"), {"username": player.username, "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_needs_post(client, player):
    client.force_login(player)
    assert client.get(reverse("logout")).status_code == 405


def test_profile_changes_the_display_name(client, player):
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "  Lucky Seven "})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Lucky Seven"
    assert "Lucky Seven" in client.get(reverse("profile")).content.decode()


def test_profile_rejects_a_one_letter_name(client, player):
    client.force_login(player)
    old = player.display_name
    response = client.post(reverse("profile"), {"display_name": "Z"})
    assert response.status_code == 400
    assert "at least 2 characters" in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == old


def test_profile_needs_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_change(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "new-secret-rummy-77",
            "new_password2": "new-secret-rummy-77",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("new-secret-rummy-77")


def test_password_change_rejects_a_wrong_old_password(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "new-secret-rummy-77",
            "new_password2": "new-secret-rummy-77",
        },
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    player.refresh_from_db()
    assert player.check_password(password)


def test_forms_are_protected_by_csrf(player, password):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(reverse("login"), {"username": player.username, "password": password})
    assert response.status_code == 403


def test_support_group_has_its_permissions(db):
    from accounts.services import role_groups_ensure

    group = role_groups_ensure()
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"view_user", "review_deals"} <= codenames
    # idempotent
    assert role_groups_ensure().pk == group.pk


@pytest.mark.smoke
def test_seed_demo_is_idempotent(db):
    from django.core.management import call_command

    call_command("seed_demo")
    count = User.objects.count()
    call_command("seed_demo")
    assert User.objects.count() == count
    support = User.objects.get(username="support")
    assert support.groups.filter(name="support").exists()
    assert User.objects.get(username="staff").is_superuser
