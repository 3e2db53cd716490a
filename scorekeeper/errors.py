"""The root of every error the rules raise, and how an error says what went wrong for
a translation.

`RulesError` is bad input (dice, a rule set name, a card or pad file) or an
action the rules do not allow now. Callers that talk to people (the web API, the
command line) turn a RulesError into a clear refusal and treat any other
exception as the bug it is. It subclasses ValueError, as bad values do.

Its message is English. Besides it, an error may carry a `code` naming the kind of
message and its `params`, from which a caller writes the message in another
language (`web.messages` does): dice as `Dice`, boxes by their English names
(`box`, `boxes`), player names (`name`, `names`), numbers as ints.
"""

from __future__ import annotations


class Coded(Exception):
    """An error with an English message and, for translations, a `code` and its `params`.

    Without a code (``""``) only the English message says what went wrong.
    """

    def __init__(self, message: str, *, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class RulesError(Coded, ValueError):
    """Bad input to the rules, or an action they do not allow; the message quotes the input."""
