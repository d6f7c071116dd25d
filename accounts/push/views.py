"""The installable app (the web app manifest, the service worker, the offline page) and the
page's calls about Web Push (subscribe, unsubscribe, the kinds of notice wanted).

The service worker is served from the site's root (``/sw.js``) so that its scope is the whole
site; the file is ``static/sw.js``, read by this view, with the list of what it precaches
(the offline page and public static files, never a private page) and a version put in front.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.forms import Form
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User

from . import services
from .forms import MAX_BODY_BYTES, EndpointForm, PreferencesForm, SubscriptionForm
from .models import PushKind
from .selectors import push_configured, push_preferences_of

# The site's colours (static/css/site.css: --felt-dark for the header, --bg for the page).
THEME_COLOR = "#08543c"
BACKGROUND_COLOR = "#f4f6f5"
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
# What the service worker keeps for offline use: public files only.
PRECACHED_STATIC = ("css/site.css", *(path for path, _size, _purpose in ICONS))
SERVICE_WORKER = "sw.js"


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest (``application/manifest+json``) in the page's language."""
    document = {
        "id": "/",
        "name": _("Rummy"),
        "short_name": _("Rummy"),
        "description": _("Indian and classic rummy, live, against people and computer players."),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(path), "sizes": size, "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    return HttpResponse(
        json.dumps(document, ensure_ascii=False), content_type="application/manifest+json"
    )


@cache
def _worker_source(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _worker_path() -> str:
    found = finders.find(SERVICE_WORKER)
    if isinstance(found, str):
        return found
    return str(Path(settings.STATIC_ROOT) / SERVICE_WORKER)


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    """``static/sw.js`` from the site's root, preceded by what it precaches and a version that
    changes with the file and with that list (so a new deploy installs a new worker)."""
    source = _worker_source(_worker_path())
    precache = [reverse("offline"), *(static(path) for path in PRECACHED_STATIC)]
    head = json.dumps({"precache": precache, "offline": reverse("offline")})
    version = hashlib.sha256((head + source).encode()).hexdigest()[:16]
    text = f"const WORKER = {head};\nconst VERSION = {json.dumps(version)};\n{source}"
    response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a page cannot be loaded: in both languages, and
    nothing of the player's (it is kept in the browser's cache)."""
    return render(
        request, "offline.html", {"languages": [code for code, _name in settings.LANGUAGES]}
    )


def _refused(form: Form | None, words: str) -> JsonResponse:
    errors: dict[str, Any] = form.errors.get_json_data() if form is not None else {}
    fields = {name: [e["message"] for e in items] for name, items in errors.items()}
    return JsonResponse({"error": words, "fields": fields}, status=400)


def _player_and_body(request: HttpRequest) -> tuple[User, dict[str, object]] | JsonResponse:
    """The signed-in player and the JSON object they posted, or the answer refusing them."""
    user = request.user
    if not isinstance(user, User):
        return JsonResponse({"error": _("Log in to turn notifications on.")}, status=403)
    if len(request.body) > MAX_BODY_BYTES:
        return _refused(None, _("The request is too large."))
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _refused(None, _("The request is not JSON."))
    if not isinstance(data, dict):
        return _refused(None, _("The request is not a JSON object."))
    return user, data


def _subscription_fields(data: dict[str, object]) -> dict[str, object] | None:
    """The form's fields from ``PushSubscription.toJSON()``; ``None``: another shape."""
    if not set(data) <= {"endpoint", "expirationTime", "keys"}:
        return None
    keys = data.get("keys")
    if not isinstance(keys, dict) or not set(keys) <= {"p256dh", "auth"}:
        return None
    expiry = data.get("expirationTime")
    if expiry is not None and (not isinstance(expiry, int | float) or isinstance(expiry, bool)):
        return None
    return {
        "endpoint": data.get("endpoint"),
        "p256dh": keys.get("p256dh"),
        "auth": keys.get("auth"),
    }


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """The page's subscription (``PushSubscription.toJSON()``), saved for the player."""
    asked = _player_and_body(request)
    if isinstance(asked, JsonResponse):
        return asked
    user, data = asked
    if not push_configured():
        return _refused(None, _("Notifications are not set up on this site."))
    fields = _subscription_fields(data)
    if fields is None:
        return _refused(None, _("The request is not a push subscription."))
    form = SubscriptionForm(fields)
    if not form.is_valid():
        return _refused(form, _("The push subscription is not valid."))
    services.push_subscription_save(
        user=user,
        endpoint=form.cleaned_data["endpoint"],
        p256dh=form.cleaned_data["p256dh"],
        auth=form.cleaned_data["auth"],
    )
    return JsonResponse({"ok": True, "message": _("Notifications are on in this browser.")})


@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """The page turned notifications off in this browser: forget its subscription."""
    asked = _player_and_body(request)
    if isinstance(asked, JsonResponse):
        return asked
    user, data = asked
    if set(data) - {"endpoint"}:
        return _refused(None, _("The request is not a push subscription."))
    form = EndpointForm({"endpoint": data.get("endpoint")})
    if not form.is_valid():
        return _refused(form, _("The push subscription is not valid."))
    services.push_subscription_drop(
        user=user,
        endpoint=form.cleaned_data["endpoint"],
    )
    return JsonResponse({"ok": True, "message": _("Notifications are off in this browser.")})


@login_required
@require_POST
def preferences(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The kinds of notice wanted (the profile page's form)."""
    form = PreferencesForm(request.POST)
    if not form.is_valid():  # unticked boxes are simply off: only a forged form gets here
        messages.error(request, _("The notification settings could not be read."))
        return redirect("profile")
    services.push_preferences_set(user=request.user, **form.cleaned_data)
    messages.success(request, _("Notification settings saved."))
    return redirect("profile")


def profile_push(*, user: User) -> dict[str, object]:
    """The profile page's notifications part: whether push is set up, the key the page
    subscribes with, and the kinds wanted."""
    configured = push_configured()
    wanted = push_preferences_of(user_id=user.pk)
    form = PreferencesForm(initial={kind: wanted.wants(kind) for kind in PushKind.values})
    return {
        "configured": configured,
        "public_key": settings.VAPID_PUBLIC_KEY if configured else "",
        "form": form,
    }
