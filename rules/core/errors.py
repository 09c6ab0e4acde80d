"""The exceptions every game raises. All are ValueErrors, so a caller can catch one kind."""


class RulesError(ValueError):
    """Something a player or a file asked for does not fit the rules. The message may be a
    ``words.Sentence`` (its players, cards and money kept as parts): ``sentence`` gives it back
    whole, where ``str(error)`` gives its plain text."""

    @property
    def sentence(self) -> str:
        message = self.args[0] if len(self.args) == 1 else None
        return message if isinstance(message, str) else str(self)


class IllegalCommand(RulesError):
    """A well-formed command that the rules refuse in this position; the message says why."""


class NotationError(RulesError):
    """Text that is not a command or a card; the message names the text and what was wrong."""


class SaveFormatError(RulesError):
    """A saved game that cannot be read back: corrupt, from a newer version, or inconsistent."""


class ReplayError(SaveFormatError):
    """A save whose command ``move`` (counted from 1) no longer replays: everything before it
    did, so the game can resume after move ``move - 1``. ``text`` is that command's notation."""

    def __init__(self, message: str, move: int, text: str) -> None:
        super().__init__(message)
        self.move = move
        self.text = text


class SnapshotMismatch(SaveFormatError):
    """A save whose moves all replay but do not reach the position it stored (its ``snapshot``).

    The moves are the truth (the game is its seed and its commands; the snapshot is only a check
    written beside them), so the game can resume after its last move, ``moves``, where they
    lead. ``where`` is the first place the saved position differs ("money[1]"), or "" when it
    differs as a whole."""

    def __init__(self, message: str, moves: int, where: str) -> None:
        super().__init__(message)
        self.moves = moves
        self.where = where
