"""Money in and out of the site: deposits through a payment provider, withdrawals approved by
staff, and the rules a player sets on them (limits, self-exclusion) applied at the door.

* ``models``: ``Deposit`` and ``Withdrawal`` requests (a status and a history; the money itself
  moves only in the ledger), and ``SandboxPayment`` (the sandbox provider's own side);
* ``providers``: the provider interface and the registry (``provider_get``);
* ``sandbox``: the sandbox provider, a hosted checkout played by this site;
* ``services``: ``deposit_start``, ``deposit_callback_apply``, ``withdrawal_request``,
  ``withdrawal_approve``, ``withdrawal_reject``;
* ``selectors``: the player's deposits and withdrawals, deposit totals;
* ``policy``: what the player's own rules allow (limits, self-exclusion, identity), read through
  the callable named by ``settings.PAYMENTS_PLAYER_POLICY`` (the ledger imports no other app);
* ``views``/``urls``: the cashier forms, the sandbox checkout page and the webhooks.

Nothing here is imported by ``ledger/__init__``; import the modules you need.
"""
