"""Playing a game from several screens, without the table: the bots' moves.

Every open screen of a game (a table in a terminal or a browser, a program at a seat) plays the
bots it sees awaited. A bot's choice is drawn from the position (``Match.bot_move`` seeds it from
the game's seed and the move's number), so every screen would choose the same move; the store
keeps the first written, and the others catch up with it (their ``MovedFirst`` is expected, and
quiet). A game with no screen open waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.errors import RulesError

from .store import MovedFirst

if TYPE_CHECKING:
    from rules.core import Command, Match

    from .store import SaveStore


def awaited_bot(match: Match) -> int | None:
    """The bot seat to play now (several awaited at once, as in sealed bids: the first in seat
    order), or None."""
    if match.over:
        return None
    return next((seat for seat in sorted(match.awaiting) if match.seats[seat].bot is not None), None)


def bot_choice(match: Match, seat: int) -> tuple[Command, str | None]:
    """The bot's command in ``seat``, and None; or, when the bot fails (a bug), its first legal
    command and a sentence saying so. RulesError when it has no legal command at all."""
    try:
        return match.bot_move(seat), None
    except Exception as error:  # noqa: BLE001 — a bot's bug must not end the game
        legal = match.legal(seat)
        if not legal:
            raise RulesError(f"{match.names[seat]} (bot) could not move: {error}") from None
        return legal[0], (f"{match.names[seat]} (bot) made a mistake ({error}) and played its first legal "
                          "move instead.")


def play_awaited_bots(store: SaveStore, game_id: str, match: Match, *, limit: int | None = None) -> int:
    """Play and write every bot move the game awaits now, one after another, until a human is
    awaited, the game is over, or ``limit`` moves were written; the number this call wrote. A
    move another screen wrote first is caught up with and the loop goes on from there.

    Raises what ``SaveStore.play`` raises but MovedFirst (SaveError: the move is played here all
    the same, unsaved; GameChanged: open the game again), and RulesError for a bot with no legal
    move. The expert searches here, in the caller's thread, for its whole time budget."""
    written = 0
    while limit is None or written < limit:
        seat = awaited_bot(match)
        if seat is None:
            break
        command, _mistake = bot_choice(match, seat)
        try:
            store.play(game_id, match, seat, command)
        except MovedFirst:
            continue  # another screen wrote it first: the match has caught up
        written += 1
    return written
