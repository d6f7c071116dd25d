"""The shoe commitment: a hash that fixes a deal's shoe before its first card is dealt.

Before a deal is dealt the server draws a random secret (64 hex digits from ``secrets``) and
publishes ``commitment = SHA-256(shoe_message(shoe, secret))``. After the deal it reveals the
shoe and the secret; anyone can recompute the hash and compare (docs/fairness.md).

The message is UTF-8 text, five lines joined by ``"\\n"`` (no trailing newline)::

    rummy-shoe-v1
    <card codes in dealing order, joined by ",">
    <reshuffle keys: each list joined by ",", the lists joined by ";" (empty if none)>
    <reshuffle seed (classic rummy), or empty>
    <the secret>

``shoe`` is the stored start-deal action (``{"shoe": {"cards": [...], "reshuffle_keys":
[[...], ...]}, "seed": "..."}``) or just its ``"shoe"`` part. The commitment proves the shoe
was fixed before play; it does not prove the shoe was random.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "SCHEME",
    "commitment_matches",
    "commitment_of",
    "new_secret",
    "shoe_message",
]

SCHEME = "rummy-shoe-v1"
"""The first line of every committed message: the scheme's name and version."""


def new_secret() -> str:
    """A fresh server secret: 32 random bytes from the OS CSPRNG, as 64 hex digits."""
    return secrets.token_hex(32)


def _shoe_parts(shoe: Mapping[str, Any]) -> tuple[Sequence[Any], Sequence[Any], str]:
    inner = shoe.get("shoe", shoe)
    if not isinstance(inner, Mapping):
        raise ValueError("not a shoe: expected an object with 'cards'")
    cards = inner.get("cards")
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        raise ValueError("not a shoe: 'cards' must be a list of card codes")
    keys = inner.get("reshuffle_keys") or ()
    if not isinstance(keys, Sequence) or isinstance(keys, str):
        raise ValueError("not a shoe: 'reshuffle_keys' must be a list of lists")
    seed = shoe.get("seed") or ""
    if not isinstance(seed, str):
        raise ValueError("not a shoe: 'seed' must be text")
    return cards, keys, seed


def shoe_message(shoe: Mapping[str, Any], secret: str) -> str:
    """The canonical text the commitment hashes (see the module docstring)."""
    cards, keys, seed = _shoe_parts(shoe)
    for code in cards:
        if not isinstance(code, str) or not code or "," in code or "\n" in code:
            raise ValueError(f"not a card code: {code!r}")
    rows: list[str] = []
    for row in keys:
        if not isinstance(row, Sequence) or isinstance(row, str):
            raise ValueError("not a shoe: each reshuffle key list must be a list of integers")
        rows.append(",".join(str(int(k)) for k in row))
    if "\n" in secret or "\n" in seed:
        raise ValueError("the secret and the seed are single lines")
    return "\n".join((SCHEME, ",".join(cards), ";".join(rows), seed, secret))


def commitment_of(shoe: Mapping[str, Any], secret: str) -> str:
    """``SHA-256(shoe_message(shoe, secret))`` as 64 lowercase hex digits."""
    return hashlib.sha256(shoe_message(shoe, secret).encode("utf-8")).hexdigest()


def commitment_matches(shoe: Mapping[str, Any], secret: str, commitment: str) -> bool:
    """Whether ``commitment`` is the commitment of ``shoe`` with ``secret`` (``False`` for a
    malformed shoe as well)."""
    try:
        computed = commitment_of(shoe, secret)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(computed, commitment.strip().lower())
