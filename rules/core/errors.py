"""The exceptions every game raises. All are ValueErrors, so a caller can catch one kind."""


class RulesError(ValueError):
    """Something a player or a file asked for does not fit the rules."""


class IllegalCommand(RulesError):
    """A well-formed command that the rules refuse in this position; the message says why."""


class NotationError(RulesError):
    """Text that is not a command or a card; the message names the text and what was wrong."""


class SaveFormatError(RulesError):
    """A saved game that cannot be read back: corrupt, from a newer version, or inconsistent."""
