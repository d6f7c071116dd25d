from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

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
