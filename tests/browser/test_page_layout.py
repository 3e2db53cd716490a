"""Geometry of the pages on a phone and a tablet, measured in Chromium: what a player must
reach is reachable and not covered, taps are finger-sized, the board fits, the faint points
are readable in light and dark."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, PORTRAIT, TABLET, play_out

pytestmark = pytest.mark.browser

# WCAG contrast of an element's text colour against the first opaque background behind it.
CONTRAST = """(el) => {
  const rgba = (c) => {
    const v = c.match(/[\\d.]+/g).map(Number);
    return v.length < 4 ? [...v, 1] : v;
  };
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  let back = [255, 255, 255, 1];
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { back = c; break; }
  }
  const style = getComputedStyle(el);
  const fore = rgba(style.color);
  const [hi, lo] = [lum(fore), lum(back)].sort((a, b) => b - a);
  return {ratio: (hi + 0.05) / (lo + 0.05), opacity: Number(style.opacity), color: style.color};
}"""

RECT = "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"

# Is the middle of *el* the element itself (or inside it), i.e. not under a pinned bar?
ON_TOP = """(el) => { const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return el.contains(hit); }"""

TARGETS = ("#turn button, #turn summary, #turn label.button, "
           "#turn label:has(input[type=checkbox]), "
           "#turn input:not([type=file]):not([type=checkbox]), #card button, #card a, "
           ".game-links a, .game-links button")


def rolled_game(page: Any, base: str, players: list[str], dice: str = "6 6 4 6 6") -> int:
    """Start a game as *page*'s device, record a first roll, open the game page; return its id."""
    game = page.request.post(f"{base}/api/games", data={"rules": "yahtzee", "players": players})
    state = game.json()
    rolled = page.request.post(f"{base}/api/games/{state['id']}/rolls",
                               data={"dice": dice, "version": state["version"]})
    assert rolled.ok, rolled.text()
    page.goto(f"{base}/games/{state['id']}")
    page.wait_for_selector(".suggestion")
    return int(state["id"])


def overlaps(a: list[float], b: list[float]) -> bool:
    """True when rectangles *a* and *b* (left, top, right, bottom) share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size", [PHONE, PORTRAIT, TABLET])
def test_during_a_turn_every_total_can_be_seen(device: Any, live_server: str,
                                               size: tuple[int, int]) -> None:
    page = device(size)
    rolled_game(page, live_server, ["Ann", "Ben", "Cem"])
    for row in ("total_upper", "total_lower", "grand_total"):
        cells = page.locator(f'#card tr[data-row="{row}"] td.value')
        for index in range(cells.count()):
            cell = cells.nth(index)
            cell.scroll_into_view_if_needed()
            left, top, right, bottom = cell.evaluate(RECT)
            assert top >= 0 and bottom <= size[1] and left >= 0 and right <= size[0], (row, index)
            assert cell.evaluate(ON_TOP), f"{row} of player {index} is covered"
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


def test_on_a_phone_the_panel_scrolls_with_the_page(device: Any, live_server: str) -> None:
    page = device(PHONE)
    rolled_game(page, live_server, ["Ann", "Ben"])
    assert page.locator("#turn").evaluate("t => getComputedStyle(t).position") == "static"
    assert page.locator(".jump-card").is_visible()
    page.locator(".jump-card").tap()
    page.wait_for_function("document.querySelector('#scorecards').getBoundingClientRect().top < 10")
    suggestions = page.locator(".suggestion")
    assert suggestions.count() >= 3
    suggestions.first.scroll_into_view_if_needed()
    assert suggestions.first.evaluate(ON_TOP)


@pytest.mark.parametrize("size", [PHONE, TABLET])
def test_tap_targets_are_at_least_44_px(device: Any, live_server: str,
                                        size: tuple[int, int]) -> None:
    page = device(size)
    rolled_game(page, live_server, ["Ann", "Ben"])
    page.locator(".zeros summary").click()  # the crossed-out boxes too
    small = page.locator(TARGETS).evaluate_all("""els => els
      .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
      .map(e => { const r = e.getBoundingClientRect();
                  return [e.id || e.className || e.tagName, e.textContent.trim().slice(0, 20),
                          Math.round(r.width), Math.round(r.height)]; })
      .filter(([, , w, h]) => w < 44 || h < 44)""")
    assert small == []
    count = page.locator(TARGETS).count()
    assert count > 20  # dice, keeps, record, suggestions, links: the list is not empty


def test_a_message_does_not_cover_the_dice_or_the_suggestions(device: Any,
                                                               live_server: str) -> None:
    page = device(PHONE)
    rolled_game(page, live_server, ["Ann", "Ben"])
    page.locator("#dice").evaluate("d => window.scrollBy(0, d.getBoundingClientRect().top - 4)")
    assert abs(page.locator("#dice").evaluate(RECT)[1] - 4) < 2  # the dice at the very top
    page.click("#record-roll")
    page.wait_for_selector("#messages .message")
    page.wait_for_function("document.querySelector('#turn-status').textContent.includes('Roll 2')")
    bar = page.locator("#messages").evaluate(RECT)
    assert bar[3] - bar[1] > 20
    for selector in ("#dice", ".suggestion"):
        for rect in page.locator(selector).evaluate_all(
                f"els => els.map({RECT})"):
            assert not overlaps(bar, rect), (selector, bar, rect)
    # An error message later on does the same.
    page.fill("#dice-text", "9")
    page.evaluate("window.scrollBy(0, document.querySelector('#dice').getBoundingClientRect().top"
                  " - document.querySelector('#messages').getBoundingClientRect().bottom - 2)")
    page.click("#dice-form button[type=submit]")
    page.wait_for_selector("#messages .error")
    bar = page.locator("#messages").evaluate(RECT)
    assert not overlaps(bar, page.locator("#dice").evaluate(RECT))


def test_on_a_tablet_the_pinned_panel_moves_below_a_message(device: Any,
                                                            live_server: str) -> None:
    page = device(TABLET)
    rolled_game(page, live_server, ["Ann", "Ben", "Cem"])
    page.evaluate("window.scrollBy(0, 500)")
    assert page.evaluate("window.scrollY") > 100
    assert page.locator("#turn").evaluate(RECT)[1] < 20  # pinned at the top
    page.fill("#dice-text", "9")
    page.click("#dice-form button[type=submit]")
    page.wait_for_selector("#messages .error")
    page.wait_for_timeout(100)
    bar = page.locator("#messages").evaluate(RECT)
    assert bar[3] - bar[1] > 20
    for selector in ("#turn", "#turn-title", "#dice"):
        rect = page.locator(selector).evaluate(RECT)
        assert not overlaps(bar, rect), (selector, bar, rect)
    turn = page.locator("#turn").evaluate(RECT)
    assert turn[3] <= TABLET[1] + 1  # its foot is still on screen (it scrolls inside)


PAGE_TARGETS = ("header.site a, main a.button, main button, main select, main .game-list a, "
                "main input:not([type=checkbox]):not([type=file]), main .check label")


@pytest.mark.parametrize("path", ["/", "/pad"])
def test_a_phone_page_has_finger_sized_targets(device: Any, live_server: str,
                                               path: str) -> None:
    page = device(PHONE)
    play_out(page.request, live_server, rolled_game(page, live_server, ["Ann", "Ben"]))
    rolled_game(page, live_server, ["Cem"])  # the home page lists a finished and a played game
    page.goto(live_server + path)
    page.wait_for_timeout(300)
    if path == "/":
        assert page.locator(".review-link").count() == 1
    sizes = page.locator(PAGE_TARGETS).evaluate_all("""els => els
      .filter(e => e.getClientRects().length)
      .map(e => { const r = e.getBoundingClientRect();
                  return [e.id || e.className || e.tagName, e.textContent.trim().slice(0, 20),
                          Math.round(r.width), Math.round(r.height)]; })""")
    assert len(sizes) > 10
    assert [s for s in sizes if s[2] < 44 or s[3] < 44] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_end_of_a_game_fits_a_phone(device: Any, live_server: str, scheme: str) -> None:
    page = device(PHONE, scheme)
    game = rolled_game(page, live_server, ["Ann", "Ben"])
    play_out(page.request, live_server, game)
    page.reload()
    page.wait_for_selector(".review-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    over = page.locator("#game-over").evaluate(RECT)
    assert over[0] >= 0 and over[2] <= PHONE[0]
    button = page.locator("#play-again")
    assert button.evaluate(RECT)[3] - button.evaluate(RECT)[1] >= 44
    found = page.locator("#over-title").evaluate(CONTRAST)
    assert found["ratio"] >= 4.5, found


@pytest.mark.parametrize("size", [TABLET, PORTRAIT])
def test_board_of_eight_shows_grand_total_and_keeps_row_names(device: Any, live_server: str,
                                                              size: tuple[int, int]) -> None:
    page = device(size)
    game = rolled_game(page, live_server, [f"Player {n}" for n in range(1, 9)])
    page.goto(f"{live_server}/games/{game}/board")
    page.wait_for_selector("#live:not(.lost)")
    grand = page.locator('#card tr[data-row="grand_total"]')
    assert grand.evaluate(RECT)[3] <= size[1]
    if size == TABLET:  # landscape: all eight columns fit beside the join box
        assert page.locator('#card td[data-row="grand_total"][data-player="7"]').evaluate(
            RECT)[2] <= size[0]
    assert_row_names_stay(page, scrolls=size == PORTRAIT)


@pytest.mark.parametrize(("size", "language"), [(PHONE, "en"), (TABLET, "en"), (PHONE, "he")])
def test_game_page_of_eight_keeps_row_names_when_scrolled_sideways(
        device: Any, live_server: str, size: tuple[int, int], language: str) -> None:
    page = device(size)
    page.context.add_cookies([{"name": "pipkeeper_lang", "value": language, "url": live_server}])
    rolled_game(page, live_server, [f"Player {n}" for n in range(1, 9)])
    assert page.get_attribute("html", "dir") == ("rtl" if language == "he" else "ltr")
    assert_row_names_stay(page, scrolls=True)


def assert_row_names_stay(page: Any, scrolls: bool) -> None:
    """Scroll the card's table to its far end (it *scrolls*: is wider than its frame); every
    row name stays visible at its start."""
    scroller = page.locator("#card").locator("xpath=..")
    before = page.locator('#card tr[data-row="grand_total"] th.label').evaluate(RECT)[0]
    scroller.evaluate("s => { s.scrollLeft = (s.matches(':dir(rtl)') ? -1 : 1) * s.scrollWidth; }")
    assert (scroller.evaluate("s => Math.abs(s.scrollLeft)") > 0) == scrolls  # RTL: < 0
    frame = scroller.evaluate(RECT)
    for label in page.locator("#card tbody th.label").all():
        label.evaluate("e => window.scrollBy(0, e.getBoundingClientRect().top - innerHeight / 2)")
        rect = label.evaluate(RECT)
        assert rect[0] >= frame[0] - 1 and rect[2] <= frame[2] + 1, rect
        assert label.evaluate(ON_TOP)
    assert page.locator('#card tr[data-row="grand_total"] th.label').evaluate(RECT)[0] == before


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_faint_suggested_points_are_readable(device: Any, live_server: str, scheme: str) -> None:
    page = device(TABLET, scheme)
    rolled_game(page, live_server, ["Ann", "Ben"])
    ghosts = page.locator("#card .ghost")
    assert ghosts.count() >= 3
    for index in range(ghosts.count()):
        found = ghosts.nth(index).evaluate(CONTRAST)
        assert found["opacity"] == 1 and found["ratio"] >= 4.5, found


PAGES = ("/", "/pad", "/games/{id}", "/games/{id}/board", "/join/NOCODE")
# A device that has not joined the game sees the join form instead of the game.
STRANGER = "/games/{id}"
TEXT = """els => els.filter(e => e.getClientRects().length
  && !e.closest('[disabled], .photo, .visually-hidden')
  && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_readable_in_light_and_dark(device: Any, live_server: str,
                                                  scheme: str) -> None:
    owner, stranger = device(PHONE, scheme), device(PHONE, scheme)
    game = rolled_game(owner, live_server, ["Ann", "Ben"])
    for page, path in [(owner, path) for path in PAGES] + [(stranger, STRANGER)]:
        page.goto(live_server + path.format(id=game))
        page.wait_for_timeout(300)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        texts = page.locator("body *").evaluate_all(f"els => ({TEXT})(els).length")
        assert texts > 5, path  # the page has words to read
        if page is stranger:
            assert page.locator(".join-form").is_visible()
        poor = page.locator("body *").evaluate_all(f"""els => ({TEXT})(els)
          .map(e => [e.tagName + '.' + e.className, e.textContent.trim().slice(0, 30),
                     ({CONTRAST})(e)])
          .filter(([, , c]) => c.ratio < 4.5)
          .map(([what, text, c]) => [what, text, Math.round(c.ratio * 100) / 100])""")
        assert poor == [], (path, poor)
