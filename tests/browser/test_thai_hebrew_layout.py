"""The game page on a phone (390x844) in Thai and Hebrew: Thai names whole in the card's
header, every row's rule seen in the current player's column, the typed dice and their Set
button on one line in Hebrew."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

RECT = "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
# Thai writes no spaces between the words of a name: only the space between a first name and
# a surname may break it.
THAI_NAMES = ["กิตติศักดิ์ เจริญสุข", "พรรณนิภา ศรีสุวรรณ", "กาญจนาภรณ์ วงศ์ใหญ่"]

# Contrast of the bottom rule of a cell against the cell's own background (WCAG formula).
RULE_CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  let back = null;
  for (let e = el; e && !back; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (!c.startsWith('rgba(0, 0, 0, 0)')) back = rgb(c);
  }
  const style = getComputedStyle(el);
  const [hi, lo] = [lum(rgb(style.borderBottomColor)), lum(back)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}"""

# The lines each word of an element's text lies on: for each word, the distinct tops of its
# letters' boxes.
WORD_LINES = """(e) => {
  const text = e.textContent;
  const words = [...text.matchAll(/\\S+/g)];
  const node = (at) => { const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    let seen = 0;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (at < seen + n.length) return [n, at - seen];
      seen += n.length;
    }
    return null; };
  return words.map((w) => {
    const range = document.createRange();
    const [start, from] = node(w.index), [end, to] = node(w.index + w[0].length - 1);
    range.setStart(start, from); range.setEnd(end, to + 1);
    return [w[0], new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
  });
}"""


def thai_game(device: Any, base: str, scheme: str = "light") -> Any:
    """Open, on a Thai phone, a game of THAI_NAMES whose first player has rolled."""
    page = device(PHONE, scheme, "th-TH")
    game = page.request.post(f"{base}/api/games",
                             data={"rules": "yahtzee", "players": THAI_NAMES}).json()
    rolled = page.request.post(f"{base}/api/games/{game['id']}/rolls",
                               data={"dice": [6, 6, 4, 6, 6], "version": game["version"]})
    assert rolled.ok, rolled.text()
    page.goto(f"{base}/games/{game['id']}")
    page.wait_for_selector(".suggestion")
    return page


def test_thai_names_are_whole_in_the_card_header(device: Any, live_server: str) -> None:
    page = thai_game(device, live_server)
    frame = page.locator("#card").locator("xpath=..")
    assert frame.evaluate("f => f.scrollWidth - f.clientWidth") <= 0  # nothing cut at the edge
    left, _, right, _ = frame.evaluate(RECT)
    names = page.locator("#card thead th.player .name")
    assert names.all_text_contents() == THAI_NAMES
    for name in names.all():
        assert [lines for _, lines in name.evaluate(WORD_LINES)] == [1, 1], name.text_content()
        rect = name.evaluate(RECT)
        assert left <= rect[0] and rect[2] <= right


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_current_players_column_keeps_its_row_rules(device: Any, live_server: str,
                                                         scheme: str) -> None:
    page = thai_game(device, live_server, scheme)
    rows = page.locator("#card tbody tr:not(.section-row)")
    assert rows.count() == 20
    for row in rows.all():
        current = row.locator("td.current").evaluate(RULE_CONTRAST)
        other = row.locator('td[data-player="1"]').evaluate(RULE_CONTRAST)
        assert current >= 1.4 and current >= other - 0.1, (row.get_attribute("data-row"),
                                                           current, other)


def test_hebrew_set_button_stays_beside_the_typed_dice(device: Any, live_server: str) -> None:
    page = device(PHONE, locale="he-IL")
    game = page.request.post(f"{live_server}/api/games",
                             data={"rules": "yahtzee", "players": ["דנה", "יוסי", "רונית"]}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    field, button = page.locator("#dice-text"), page.locator("#dice-form button[type=submit]")
    assert button.inner_text() == "קבע"
    field_rect, button_rect = field.evaluate(RECT), button.evaluate(RECT)
    assert abs(field_rect[1] - button_rect[1]) <= 2  # on one line
    assert button_rect[2] <= field_rect[0]  # right to left: Set on the field's left
    assert button_rect[0] >= 0 and field_rect[2] <= PHONE[0]
