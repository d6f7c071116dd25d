from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from . import live, selectors, services
from .forms import DepositLimitsForm, ProfileForm, SelfExclusionForm, SignUpForm
from .http import AuthenticatedHttpRequest
from .push import views as push_views


def _when(moment: datetime | None) -> str:
    """A moment in the player's time zone and language (``DATETIME_FORMAT`` of the locale)."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The header's language switcher: Django's ``set_language`` (the cookie, the redirect
    back to ``next``) and, for a logged-in player, the choice saved on the profile so it
    follows the player to every device and to the table views pushed to them."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.user_locale_update(user=request.user, language=language)
    return response


@require_http_methods(["GET"])
def contact(request: HttpRequest) -> HttpResponse:
    """How to reach support (open to everyone, signed in or not)."""
    return render(request, "accounts/contact.html", {"support_email": settings.SUPPORT_EMAIL})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.user_sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data.get("display_name", ""),
            email=form.cleaned_data.get("email", ""),
            age_confirmed=bool(form.cleaned_data.get("age_confirmed")),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.public_name})
        return redirect("lobby")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_profile_update(
            user=request.user,
            display_name=form.cleaned_data["display_name"],
        )
        services.user_locale_update(
            user=request.user,
            language=form.cleaned_data["language"],
            time_zone=form.cleaned_data["time_zone"],
        )
        if form.cleaned_data["language"]:
            translation.activate(form.cleaned_data["language"])
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "push": push_views.profile_push(user=request.user)}
    return render(request, "accounts/profile.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def responsible_play(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player's own money rules: daily and monthly deposit limits (lower at once, higher
    after 24 hours) and self-exclusion (1 day to 6 months, not undone early)."""
    limits_form = DepositLimitsForm(prefix="limits")
    exclusion_form = SelfExclusionForm(prefix="exclusion")
    status = 200
    if request.method == "POST":
        if "limits-submit" in request.POST:
            limits_form = DepositLimitsForm(request.POST, prefix="limits")
            if limits_form.is_valid():
                for period in ("daily", "monthly"):
                    row = services.limits_set(
                        user=request.user, period=period, amount=limits_form.cleaned_data[period]
                    )
                    if row is not None and row.effective_at > row.set_at:
                        higher = {
                            "daily": _(
                                "Your higher daily limit takes effect after 24 hours, on %(when)s."
                            ),
                            "monthly": _(
                                "Your higher monthly limit takes effect after 24 hours, on "
                                "%(when)s."
                            ),
                        }[period]
                        messages.info(request, higher % {"when": _when(row.effective_at)})
                    elif row is not None:
                        messages.success(
                            request,
                            {
                                "daily": _("Your daily limit is in force now."),
                                "monthly": _("Your monthly limit is in force now."),
                            }[period],
                        )
                return redirect("responsible_play")
            status = 400
        elif "exclusion-submit" in request.POST:
            exclusion_form = SelfExclusionForm(request.POST, prefix="exclusion")
            if exclusion_form.is_valid():
                try:
                    exclusion = services.self_exclusion_start(
                        user=request.user, period=exclusion_form.cleaned_data["period"]
                    )
                except services.AccountRefused as error:
                    messages.error(request, str(error))
                else:
                    messages.success(
                        request,
                        _("You are excluded from money games until %(until)s.")
                        % {"until": _when(exclusion.ends_at)},
                    )
                return redirect("responsible_play")
            status = 400
    context = {
        "limits": selectors.deposit_limits_overview(user=request.user),
        "exclusion": selectors.self_exclusion_active(user=request.user),
        "limits_form": limits_form,
        "exclusion_form": exclusion_form,
    }
    return render(request, "accounts/responsible_play.html", context, status=status)


class PasswordChange(auth_views.PasswordChangeView):
    """Django's password change; the user's open sockets end with the old password (the page
    that changed it reconnects with its session kept)."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)
        live.user_sockets_end(user_id=form.user.pk)
        return response
