"""The ledger admin: read-only records, and the two staff tools going through the services."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from accounts.services import role_groups_ensure, user_add_to_support
from ledger import selectors, services
from ledger.models import Account, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, user_factory):
    admin = user_factory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    client.user = admin
    return client


@pytest.fixture
def wallet(player, fund):
    fund(player, 1000)
    return Account.objects.get(kind="wallet", user=player)


def test_ledger_records_are_read_only_in_the_admin(admin_client, wallet):
    tx = Transaction.objects.get()
    for name, obj in (("account", wallet), ("transaction", tx)):
        assert admin_client.get(reverse(f"admin:ledger_{name}_changelist")).status_code == 200
        change = admin_client.get(reverse(f"admin:ledger_{name}_change", args=[obj.pk]))
        assert change.status_code == 200
        assert b'name="_save"' not in change.content
        assert admin_client.get(reverse(f"admin:ledger_{name}_add")).status_code == 403
        assert (
            admin_client.get(reverse(f"admin:ledger_{name}_delete", args=[obj.pk])).status_code
            == 403
        )
        posted = admin_client.post(reverse(f"admin:ledger_{name}_change", args=[obj.pk]), {})
        assert posted.status_code == 403


def test_admin_search_by_user_reference_and_key(admin_client, player, wallet):
    services.pot_hold_entry(
        user=player, currency="cash", pot_ref="game:31", amount=100, idempotency_key="entry:g31"
    )
    url = reverse("admin:ledger_transaction_changelist")
    for query, expected in ((player.username, 2), ("game:31", 1), ("entry:g31", 1), ("nobody", 0)):
        response = admin_client.get(url, {"q": query})
        assert response.context["cl"].result_count == expected, query
    accounts = admin_client.get(reverse("admin:ledger_account_changelist"), {"q": player.username})
    assert accounts.context["cl"].result_count == 1


def test_staff_adjustment_through_the_admin(admin_client, player, wallet):
    url = reverse("admin:ledger_account_adjust", args=[wallet.pk])
    form = admin_client.get(url)
    assert form.status_code == 200
    key = form.context["form"].initial["key"]
    bad = admin_client.post(url, {"amount": "5", "reason": "  ", "key": key})
    assert bad.status_code == 400
    assert Transaction.objects.filter(kind=TransactionKind.ADJUSTMENT).count() == 0
    too_much = admin_client.post(url, {"amount": "-10.01", "reason": "claw back", "key": key})
    assert too_much.status_code == 400
    assert "Not enough money" in too_much.content.decode()
    data = {"amount": "2.50", "reason": "Compensation for a crash", "key": key}
    assert admin_client.post(url, data).status_code == 302
    assert admin_client.post(url, data).status_code == 302  # a double submit posts once
    adjustment = Transaction.objects.get(kind=TransactionKind.ADJUSTMENT)
    assert adjustment.memo == "Compensation for a crash"
    assert adjustment.staff_user_id == admin_client.user.pk
    assert selectors.wallet_balance(user=player, currency="cash") == 1250


def test_adjustment_needs_the_permission_and_a_wallet(client, user_factory, wallet):
    plain_staff = user_factory(is_staff=True)
    client.force_login(plain_staff)
    url = reverse("admin:ledger_account_adjust", args=[wallet.pk])
    assert client.get(url).status_code == 403
    plain_staff.user_permissions.add(Permission.objects.get(codename="adjust_wallet"))
    assert client.get(url).status_code == 200
    house = Account.objects.get(kind="deposits")
    assert client.get(reverse("admin:ledger_account_adjust", args=[house.pk])).status_code == 403


def test_support_can_reverse_with_a_reason(client, user_factory, player, wallet):
    group = role_groups_ensure()
    assert group.permissions.filter(codename="reverse_transaction").exists()
    agent = user_factory(is_staff=True)
    user_add_to_support(user=agent)
    client.force_login(agent)
    tx = Transaction.objects.get()
    url = reverse("admin:ledger_transaction_reverse", args=[tx.pk])
    assert client.get(url).status_code == 200
    assert client.get(reverse("admin:ledger_transaction_changelist")).status_code == 200
    assert client.post(url, {"reason": ""}).status_code == 400
    response = client.post(url, {"reason": "Test deposit by mistake"})
    assert response.status_code == 302
    reversal = Transaction.objects.get(kind=TransactionKind.REVERSAL)
    assert reversal.reverses_id == tx.pk and reversal.staff_user_id == agent.pk
    assert selectors.wallet_balance(user=player, currency="cash") == 0
    # Reversed already: the page says so, a second post is a replay of the same reversal.
    assert "already been reversed" in client.get(url).content.decode()
    client.post(url, {"reason": "again"})
    assert Transaction.objects.filter(kind=TransactionKind.REVERSAL).count() == 1
    # Support cannot adjust wallets.
    assert client.get(reverse("admin:ledger_account_adjust", args=[wallet.pk])).status_code == 403


def test_reversal_needs_the_permission(client, user_factory, wallet):
    client.force_login(user_factory(is_staff=True))
    tx = Transaction.objects.get()
    assert client.get(reverse("admin:ledger_transaction_reverse", args=[tx.pk])).status_code == 403


def test_admin_actions_lead_to_the_forms(admin_client, wallet):
    tx = Transaction.objects.get()
    response = admin_client.post(
        reverse("admin:ledger_transaction_changelist"),
        {"action": "reverse_selected", "_selected_action": [tx.pk]},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:ledger_transaction_reverse", args=[tx.pk])
    response = admin_client.post(
        reverse("admin:ledger_account_changelist"),
        {"action": "adjust_selected", "_selected_action": [wallet.pk]},
    )
    assert response["Location"] == reverse("admin:ledger_account_adjust", args=[wallet.pk])
    house = Account.objects.get(kind="deposits")
    response = admin_client.post(
        reverse("admin:ledger_account_changelist"),
        {"action": "adjust_selected", "_selected_action": [house.pk]},
        follow=True,
    )
    assert "Select exactly one player wallet" in response.content.decode()
