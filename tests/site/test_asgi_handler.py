"""The HTTP handler keeps its request threads: sequential requests reuse one thread instead of
starting and stopping a thread for each, and concurrent requests each get their own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.http import HttpResponse
from django.urls import path

from rummy_site.asgi_handler import PooledASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)

seen: list[str] = []


def _where(request: Any) -> HttpResponse:
    seen.append(threading.current_thread().name)
    return HttpResponse(threading.current_thread().name)


urlpatterns = [path("where", _where)]


@pytest.fixture
def handler(settings: Any) -> PooledASGIHandler:
    settings.ROOT_URLCONF = __name__
    seen.clear()
    return PooledASGIHandler()


def _get(handler: PooledASGIHandler) -> Any:
    communicator = HttpCommunicator(handler, "GET", "/where", headers=[(b"host", b"testserver")])
    return communicator.get_response(timeout=10)


def test_sequential_requests_reuse_one_request_thread(handler: PooledASGIHandler) -> None:
    async def three() -> list[Any]:
        return [await _get(handler) for _ in range(3)]

    responses = async_to_sync(three)()
    assert [r["status"] for r in responses] == [200, 200, 200]
    assert handler.executors.created == 1
    assert len(set(seen)) == 1 and seen[0] != threading.current_thread().name


def test_concurrent_requests_each_get_a_thread_of_their_own(handler: PooledASGIHandler) -> None:
    async def together() -> list[Any]:
        return list(await asyncio.gather(*(_get(handler) for _ in range(4))))

    responses = async_to_sync(together)()
    assert all(r["status"] == 200 for r in responses)
    assert handler.executors.created <= 4
    async_to_sync(together)()  # a second round reuses them
    assert handler.executors.created <= 4
