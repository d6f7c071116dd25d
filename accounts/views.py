from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from . import selectors, services
from .forms import DepositLimitsForm, ProfileForm, SelfExclusionForm, SignUpForm


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
        messages.success(request, f"Welcome, {user.public_name}!")
        return redirect("lobby")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_profile_update(
            user=request.user,  # type: ignore[arg-type]
            display_name=form.cleaned_data["display_name"],
        )
        messages.success(request, "Profile saved.")
        return redirect("profile")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/profile.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def responsible_play(request: HttpRequest) -> HttpResponse:
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
                        messages.info(
                            request,
                            f"Your higher {period} limit takes effect after 24 hours, on "
                            f"{timezone.localtime(row.effective_at):%d %b %Y %H:%M}.",
                        )
                    elif row is not None:
                        messages.success(request, f"Your {period} limit is in force now.")
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
                        "You are excluded from money games until "
                        f"{timezone.localtime(exclusion.ends_at):%d %b %Y %H:%M}.",
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
