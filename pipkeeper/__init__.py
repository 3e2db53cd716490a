"""pipkeeper: a scorekeeping companion for Yahtzee and Yacht played with real dice."""

__version__ = "0.1.0"
