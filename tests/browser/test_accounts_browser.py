from __future__ import annotations

from django.contrib.auth import get_user_model


def test_a_new_player_signs_up_and_sees_the_lobby(page):
    page.goto("/accounts/signup/")
    page.fill("#id_username", "ravi")
    page.fill("#id_display_name", "Ravi K")
    page.fill("#id_password1", "tiles-and-tigers-42")
    page.fill("#id_password2", "tiles-and-tigers-42")
    page.check("#id_age_confirmed")
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator("h1").first.inner_text() == "Lobby"
    assert "Ravi K" in page.locator(".site-header").inner_text()
    assert get_user_model().objects.filter(username="ravi").exists()


def test_sign_up_errors_are_shown_to_the_player(page):
    page.goto("/accounts/signup/")
    page.fill("#id_username", "ravi")
    page.fill("#id_password1", "short")
    page.fill("#id_password2", "short")
    page.click("button[type=submit]")
    assert page.locator(".error").first.is_visible()
    assert "too short" in page.content()
    assert not get_user_model().objects.filter(username="ravi").exists()


def test_header_fits_a_phone(browser, live_server_url, transactional_db):
    context = browser.new_context(base_url=live_server_url, viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto("/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    context.close()
