"""The web process's collector settled once the app is loaded (``rummy_site/gc_settle.py``):
what loading left is frozen, the hot templates are compiled before, a young collection waits for
``GC_GEN0_THRESHOLD`` new objects, and cycles made afterwards are still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.template.loaders.cached import Loader as CachedLoader

from rummy_site.gc_settle import WARM_TEMPLATES, gc_settle


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector as it was, after each test."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _cached_loader() -> CachedLoader:
    backend = engines["django"]
    assert isinstance(backend, DjangoTemplates)
    (partials,) = backend.engine.template_loaders  # django-template-partials' wrapper
    loaders: list[object] = getattr(partials, "loaders", [])
    (cached,) = loaders  # Django's cached loader
    assert isinstance(cached, CachedLoader)
    return cached


def _compiled() -> set[str]:
    return {str(key) for key in _cached_loader().get_template_cache}


def test_the_loaded_app_is_frozen_and_young_collections_wait(collector, settings) -> None:
    settings.GC_GEN0_THRESHOLD = 20_000
    _cached_loader().reset()
    gc_settle()
    assert gc.get_freeze_count() > 10_000  # Django, the apps and the templates
    assert gc.get_threshold()[0] == 20_000
    assert set(WARM_TEMPLATES) <= _compiled()


def test_cycles_made_after_the_freeze_are_still_collected(collector, settings) -> None:
    settings.GC_GEN0_THRESHOLD = 20_000
    gc_settle()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None


def test_zero_leaves_the_collector_as_python_sets_it(collector, settings) -> None:
    settings.GC_GEN0_THRESHOLD = 0
    before = gc.get_threshold()
    gc.unfreeze()
    gc_settle()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before
