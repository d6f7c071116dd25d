"""The base of the presenters' frozen values: what Django's templates read as items."""

from __future__ import annotations


class Shown:
    """A frozen value a template reads (``{{ p.name }}``). Django's template engine looks a
    name up as an item first and as an attribute only when that fails (``_resolve_lookup``):
    without ``__getitem__`` every attribute of a dataclass costs it a ``TypeError`` raised
    and caught. Read as an item, a field is found at once; a name that is not a field fails
    with ``KeyError``, and the engine goes on to its attribute and index lookups as before."""

    __slots__ = ()

    def __getitem__(self, name: str) -> object:
        try:
            return getattr(self, name)
        except (AttributeError, TypeError):
            raise KeyError(name) from None
