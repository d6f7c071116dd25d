#!/usr/bin/env python3
"""Draws the app's icons (docs/push.md): a card with a spade on the felt, written here as SVG
and rendered to PNG by Debian's chromium through Playwright (both already test tools of the
project: requirements-dev.txt, scripts/test), so the repository holds no drawing it did not make.

    .venv/bin/python scripts/make_icons.py      # writes static/icons/*.png and *.svg

``icon-192.png`` and ``icon-512.png`` have rounded corners on a transparent ground (purpose
"any"); ``icon-maskable-512.png`` fills the square and keeps the card inside the middle 80 %
(the safe zone a phone's mask never cuts: purpose "maskable")."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
# The site's colours (static/css/site.css): --felt, --felt-dark, --accent.
FELT, FELT_DARK, ACCENT = "#0b6e4f", "#08543c", "#f2b705"
SPADE = (
    "M0,-34 C10,-20 34,-8 34,10 C34,24 20,30 8,24 C10,30 12,36 18,40 L-18,40 C-12,36 -10,30 "
    "-8,24 C-20,30 -34,24 -34,10 C-34,-8 -10,-20 0,-34 Z"
)


def icon_svg(*, maskable: bool) -> str:
    """The icon on a 512 x 512 canvas. Maskable: the felt fills the square and the card is
    smaller (within the safe zone, a circle of radius 204 about the centre)."""
    ground = (
        f'<rect width="512" height="512" fill="{FELT}"/>'
        if maskable
        else f'<rect x="16" y="16" width="480" height="480" rx="96" fill="{FELT}"/>'
        f'<rect x="16" y="16" width="480" height="480" rx="96" fill="none" '
        f'stroke="{FELT_DARK}" stroke-width="12"/>'
    )
    scale = 0.72 if maskable else 1.0
    card = (
        f'<g transform="translate(256 256) scale({scale}) rotate(-8)">'
        '<rect x="-120" y="-165" width="240" height="330" rx="26" fill="#fff" '
        f'stroke="{FELT_DARK}" stroke-width="8"/>'
        f'<path d="{SPADE}" transform="scale(2.6) translate(0 -4)" fill="#1d2327"/>'
        f'<circle cx="-82" cy="-125" r="16" fill="{ACCENT}"/>'
        f'<circle cx="82" cy="125" r="16" fill="{ACCENT}"/>'
        "</g>"
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" '
        f'viewBox="0 0 512 512">{ground}{card}</svg>\n'
    )


def render(svg: str, size: int, target: Path, page: object) -> None:
    html = (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px'>"
        + svg.replace('width="512" height="512"', f'width="{size}" height="{size}"')
        + "</div></body></html>"
    )
    page.set_viewport_size({"width": size, "height": size})  # type: ignore[attr-defined]
    page.set_content(html)  # type: ignore[attr-defined]
    page.screenshot(path=str(target), omit_background=True)  # type: ignore[attr-defined]


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    plain, maskable = icon_svg(maskable=False), icon_svg(maskable=True)
    (OUT / "icon.svg").write_text(plain)
    (OUT / "icon-maskable.svg").write_text(maskable)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        render(plain, 192, OUT / "icon-192.png", page)
        render(plain, 512, OUT / "icon-512.png", page)
        render(maskable, 512, OUT / "icon-maskable-512.png", page)
        browser.close()
    for name in sorted(OUT.iterdir()):
        print(name.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
