"""The root of every error the rules raise.

`RulesError` is bad input (dice, a rule set name, a card or pad file) or an
action the rules do not allow now. Callers that talk to people (the web API, the
command line) turn a RulesError into a clear refusal and treat any other
exception as the bug it is. It subclasses ValueError, as bad values do.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Bad input to the rules, or an action they do not allow; the message quotes the input."""
