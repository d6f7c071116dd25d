from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {"display_name": "Shown to other players. Leave empty to use your username."}


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name",)

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name and len(name) < 2:
            raise forms.ValidationError("A display name needs at least 2 characters.")
        return name


# A password longer than this is not one anybody types; it is refused before it is hashed.
MAX_PASSWORD_CHARS = 4096


class _BoundedCredentials:
    """Django's log-in forms size the username field but do not validate its length, so an
    overlong username reached ``authenticate`` (and the failed-attempt log, a 500 on
    PostgreSQL). Here both fields are checked first; a refused field never authenticates."""

    cleaned_data: dict[str, object]
    fields: dict[str, forms.Field]

    def clean_username(self) -> str:
        username = str(self.cleaned_data.get("username") or "")
        limit = self.fields["username"].max_length or 150
        if len(username) > limit:
            raise forms.ValidationError(f"A username has at most {limit} characters.")
        return username

    def clean_password(self) -> str:
        password = str(self.cleaned_data.get("password") or "")
        if len(password) > MAX_PASSWORD_CHARS:
            raise forms.ValidationError("That password is too long.")
        return password


class LoginForm(_BoundedCredentials, AuthenticationForm):
    pass


class AdminLoginForm(_BoundedCredentials, AdminAuthenticationForm):
    pass
