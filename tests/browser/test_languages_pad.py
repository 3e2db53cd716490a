"""Words and languages in a real browser at phone size: the pad check in Hebrew and Gaelic
(a wrong Total of upper section, bonus points in the checks row read as checks, counts in
plural forms),
and rolling for the first player with a tie, on the game page and the scoreboard."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"

# An unfinished column: the upper boxes add up to 63, so the bonus is 35 and the Total of
# upper section 98, but 93 is written; 300 (points) in the bonus checks row is 3 checks, so the
# Total of lower section is 145 + 300 = 445, but 435 is written.
UPPER = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
LOWER = {"full_house": 25, "small_straight": 30, "large_straight": 40, "yahtzee": 50}


@pytest.fixture
def phone_page(device: Any, request: pytest.FixtureRequest) -> Any:
    """A phone-sized page whose browser asks for the language *request.param*."""
    return device(PHONE, locale=request.param)


def fill_pad(page: Any) -> None:
    """Type the column: boxes, Total score 63, Bonus 35, Total of upper section 93, 300,
    Total of lower section 435."""
    page.check("#pad-in-progress")
    for slug, value in (UPPER | LOWER).items():
        page.fill(f"#pad-{slug}-{'upper' if slug in UPPER else 'lower'}", str(value))
    page.fill("#pad-upper_subtotal-upper", "63")
    page.fill("#pad-upper_bonus-upper", "35")
    page.fill("#pad-upper_total-upper", "93")
    page.fill("#pad-yahtzee_bonus-lower", "300")
    page.fill("#pad-lower_total-lower", "435")
    page.click("#pad-form button[type=submit]")
    page.wait_for_selector("#pad-result strong")


def note(page: Any, row: str) -> str:
    text: str = page.inner_text(f'#pad-grid tr[data-row="{row}"] .problem-note >> nth=0')
    return text


@pytest.mark.parametrize("phone_page", ["he-IL"], indirect=True)
def test_pad_check_in_hebrew_on_a_phone(phone_page: Any, live_server: str) -> None:
    page = phone_page
    page.goto(f"{live_server}/pad")
    assert page.get_attribute("html", "dir") == "rtl"
    fill_pad(page)
    assert page.inner_text("#pad-result strong") == "נמצאו 2 בעיות."
    assert note(page, "upper_total") == "הסכום הזה צריך להיות 98 (סך הכול 63 + בונוס 35), לא 93."
    assert note(page, "lower_total") == "הסכום הזה צריך להיות 445 (145 + בונוס יאצי 300), לא 435."
    assert note(page, "yahtzee_bonus") == ""
    # Both printed rows of the Total of upper section are marked, its lower total, nothing else.
    assert page.locator("#pad-grid tr.problem").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


@pytest.mark.parametrize("phone_page", ["gd"], indirect=True)
def test_pad_check_in_gaelic_on_a_phone(phone_page: Any, live_server: str) -> None:
    page = phone_page
    page.goto(f"{live_server}/pad")
    assert page.inner_text('#pad-grid tr[data-row="grand_total"] th') == "Àireamh iomlan"
    fill_pad(page)
    # Two is Gaelic's second plural form: "2 dhuilgheadas", not "2 duilgheadasan".
    assert page.inner_text("#pad-result strong") == "Chaidh 2 dhuilgheadas a lorg."
    assert note(page, "upper_total") == (
        "Bu chòir dhan iomlan seo a bhith 98 (Sgòr iomlan 63 + Bònas 35), chan e 93.")
    page.fill("#pad-upper_total-upper", "98")
    page.fill("#pad-lower_total-lower", "445")
    page.fill("#pad-yahtzee_bonus-lower", "3")
    page.click("#pad-form button[type=submit]")
    page.wait_for_selector("#pad-result strong.ok")
    assert page.locator("#pad-grid tr.problem").count() == 0


@pytest.mark.parametrize("phone_page", ["gd"], indirect=True)
def test_rolling_for_first_shows_the_dice_and_the_tie(phone_page: Any, live_server: str) -> None:
    page = phone_page
    request = page.context.request
    game = request.post(f"{live_server}/api/games", data={
        "rules": "yahtzee", "players": ["Ann", "Ben", "Cat"], "roll_for_first": True}).json()
    for dice in ([6, 6, 6, 5, 5], [1, 2, 3, 4, 5], [6, 6, 5, 5, 6]):  # Ann and Cat: 28
        rolled = request.post(f"{live_server}/api/games/{game['id']}/rolls",
                              data={"dice": dice, "version": game["version"]})
        assert rolled.ok, rolled.text()
        game = rolled.json()["state"]
    for url in (f"/games/{game['id']}", f"/games/{game['id']}/board"):
        page.goto(f"{live_server}{url}")
        box = page.locator(".first-rolls-box")
        text = " ".join(box.inner_text().split())
        assert text.startswith("Roilidh gach cluicheadair na còig dìsnean uile;")
        assert f"{FSI}Ben{PDI} roilig {LRI}1 2 3 4 5{PDI}, iomlan 15" in text
        assert f"Fhuair {FSI}Ann{PDI} agus {FSI}Cat{PDI} an aon àireamh, 28: " \
               "roilidh iad a-rithist." in text
        assert box.locator(".first-die").count() == 15
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


@pytest.mark.parametrize("phone_page", ["he-IL"], indirect=True)
def test_hebrew_messages_give_the_dice_left_to_right(phone_page: Any, live_server: str) -> None:
    page = phone_page
    game = page.context.request.post(f"{live_server}/api/games", data={
        "rules": "yahtzee", "players": ["Dana"]}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.fill("#dice-text", "6 6 4 6 1")
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    message = page.locator("#messages .message")
    message.wait_for()
    assert message.inner_text() == f"הטלה 1 נרשמה: {LRI}6 6 4 6 1{PDI}."
    # Drawn as written: the 1 is the rightmost digit, the first 6 the leftmost.
    lefts = page.evaluate("""() => {
      const node = document.querySelector('#messages .message').firstChild;
      const at = (i) => { const r = document.createRange(); r.setStart(node, i);
                          r.setEnd(node, i + 1); return r.getBoundingClientRect().left; };
      const start = node.textContent.indexOf('\\u2066') + 1;
      return [at(start), at(start + 8)];
    }""")
    assert lefts[0] < lefts[1]
