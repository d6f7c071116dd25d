"""``{% page_sections "profile" %}``: the sections other parts hang on an accounts' page
(``accounts.hooks.page_section_register``), rendered where the tag stands."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from accounts.hooks import page_sections as sections_of

register = template.Library()


@register.simple_tag(takes_context=True)
def page_sections(context: dict[str, Any], page: str) -> SafeString:
    request = context.get("request")
    if request is None:
        return SafeString("")
    return SafeString("".join(sections_of(page, request)))
