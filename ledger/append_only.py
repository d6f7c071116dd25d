"""Rows written once and never changed or deleted: the base of every append-only log (the
ledger's transactions and entries, the tables' moves, support notes and access records).

Changing or deleting such a row through the ORM raises the model's ``append_only_refusal()``
(by default a ``TypeError``; the ledger's records raise ``AppendOnlyViolation``). The database
refuses the same where a migration installed triggers for the table (the ledger's, migration
0002): there this base only refuses it earlier and in words. It lives in the ledger, which
imports no other app, so that every app can use it.
"""

from __future__ import annotations

from typing import Any

from django.db import models


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Bulk ``update()``/``delete()`` are refused."""

    def update(self, **kwargs: Any) -> int:
        raise self.model.append_only_refusal()

    def delete(self) -> tuple[int, dict[str, int]]:
        raise self.model.append_only_refusal()


class AppendOnlyModel(models.Model):
    """A row that is inserted once; ``save()`` of a stored row and ``delete()`` are refused."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise self.append_only_refusal()
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise self.append_only_refusal()

    @classmethod
    def append_only_refusal(cls) -> Exception:
        """The error a change or a deletion of these rows raises."""
        return TypeError(f"{cls._meta.verbose_name_plural} are append-only")
