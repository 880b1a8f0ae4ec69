"""The table display's small print read from the chairs: each player's tile count, the turn and the
pool are large and high-contrast on the kiosk screen (real Chromium, 1920x1080 and a portrait
tablet). They used to be about 20 px of grey at 1080p, not readable from 2 m.

Large: at least 4% of the screen's shorter side (43 px at 1080p; a letter some 9 mm tall on a
24-inch screen, read from 2 m). High-contrast: at least 7:1 against what lies behind (WCAG's AAA
level for text)."""
from __future__ import annotations

import pytest

from display_states import DisplayStates
from test_browser_display import check_display, open_page, serving, viewport
from web_helpers import screenshot

SMALL_PRINT = (".player .rack", "#status .turn", "#status .pool")

MEASURE = """
function rgb(text) { var m = text.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; }
function luminance(c) {
  function lin(v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
function behind(el) {
  for (var p = el; p; p = p.parentElement) {
    var c = rgb(getComputedStyle(p).backgroundColor);
    if (c.a > 0) { return c; }
  }
  return {r: 255, g: 255, b: 255, a: 1};
}
var out = [];
arguments[0].forEach(function (css) {
  document.querySelectorAll(css).forEach(function (el) {
    var style = getComputedStyle(el), a = luminance(rgb(style.color)), b = luminance(behind(el));
    out.push({css: css, text: el.innerText, size: parseFloat(style.fontSize),
              contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)});
  });
});
return out;
"""


@pytest.mark.parametrize("width,height", [(1920, 1080), (800, 1280)], ids=["1920x1080", "800x1280-portrait"])
def test_tile_counts_turn_and_pool_read_from_two_metres(width, height, demo_db, browser):
    states = DisplayStates(demo_db)
    with serving(states) as url:
        for state, _model in states.moments():
            if state == "turn-running":
                break
        viewport(browser, width, height)
        open_page(browser, f"{url}/table", states.live.seq)
        check_display(browser, state, width, height)  # still one screen, nothing cut off
        screenshot(browser, f"display-small-print-{width}x{height}")
        measured = browser.execute_script(MEASURE, list(SMALL_PRINT))
    assert {m["css"] for m in measured} == set(SMALL_PRINT), measured
    assert sum(m["css"] == ".player .rack" for m in measured) >= 2  # every player's count
    least = 0.04 * min(width, height)
    small = [f"{m['css']} {m['text']!r}: {m['size']:.0f} px" for m in measured if m["size"] < least]
    assert not small, f"smaller than {least:.0f} px: {small}"
    faint = [f"{m['css']} {m['text']!r}: {m['contrast']:.1f}:1" for m in measured if m["contrast"] < 7]
    assert not faint, f"contrast under 7:1: {faint}"
