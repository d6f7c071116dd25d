"""Friends in the browser (issue 35): one player finds another by name (the results come as
they type), sends a friend request; the other, in a browser context of their own, accepts it;
both then list each other as friends."""

from __future__ import annotations

from accounts.friends.models import FriendRequest, Friendship
from tests.browser.conftest import sign_up

PASSWORD = "tiles-and-tigers-42"


def test_a_friend_request_sent_and_accepted_between_two_browsers(page, new_page):
    sign_up(page, "asha", "Asha", PASSWORD)
    other = new_page()
    sign_up(other, "bilal", "Bilal Khan", PASSWORD)

    page.click("nav.site-nav >> text=Friends")
    page.wait_for_url("**/accounts/friends/")
    page.fill("#friend-q", "bil")  # the results arrive as she types (htmx)
    found = page.locator("#found-players .friend-row", has_text="Bilal Khan")
    found.wait_for()
    assert found.locator("button.block-player").is_visible()  # seen, not white on white
    assert "/accounts/friends/" in page.url and "q=" not in page.url  # no page load
    page.click("#found-players button.add-friend")
    page.wait_for_url("**/accounts/friends/?q=bil")
    assert "Friend request sent to Bilal Khan." in page.locator(".message").first.inner_text()
    assert "Bilal Khan" in page.locator("#requests-out").inner_text()
    assert FriendRequest.objects.filter(state="pending").count() == 1

    other.goto("/accounts/friends/")
    incoming = other.locator("#requests-in .friend-row", has_text="Asha")
    incoming.locator("button.accept-request").click()
    other.wait_for_url("**/accounts/friends/")
    assert "You and Asha are friends now." in other.locator(".message").first.inner_text()
    assert "Asha" in other.locator("#friends-list").inner_text()
    assert "No friend requests wait" in other.locator("#requests-in").inner_text()

    page.reload()
    assert "Bilal Khan" in page.locator("#friends-list").inner_text()
    assert Friendship.objects.count() == 1
