from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .forms import ProfileForm, SignUpForm


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
