"""``{% profile_sections %}``: the sections other parts hang on the profile page
(``accounts.hooks.profile_section_register``), rendered where the tag stands."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from accounts.hooks import profile_sections as sections_of

register = template.Library()


@register.simple_tag(takes_context=True)
def profile_sections(context: dict[str, Any]) -> SafeString:
    request = context.get("request")
    if request is None:
        return SafeString("")
    return SafeString("".join(sections_of(request)))
