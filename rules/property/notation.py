"""Property's command notation.

    play 3D 5C          the red card and the black card (either order on input)
    play 9D 5C at 4,5   with a 9 or 10, the cell chosen, written column,row
    buy KS JH           hand over these purchase units for the cell just rented
    decline             do not buy it

Case and spacing are forgiven; ``at 4 5``, ``at 4·5`` and ``@4,5`` are read too, and ``pass``
means ``decline``. Output is canonical: red card first, ``at`` only when a card is wild. No
command names a player, so what a player is called never changes what a command means.
"""

from __future__ import annotations

from typing import Sequence

from ..core import Command, NotationError, find_card, parse_card, parse_cards
from ..core.words import Sentence, say
from .commands import Buy, Decline, Play
from .rules import cells_for, is_wild
from .state import PropertyView

_DECLINE = ("decline", "pass")
_VERBS = "play, buy, decline (e.g. play 3D 5C, buy KS JH)"


class PropertyNotation:
    def format(self, command: Command) -> str:
        if isinstance(command, Play):
            return f"play {command.red.key} {command.black.key}{_cell_said(command)}"
        if isinstance(command, Buy):
            return " ".join(["buy"] + [card.key for card in command.units])
        if isinstance(command, Decline):
            return "decline"
        raise NotationError(f"{command!r} is not a Property command")

    def display(self, command: Command, names: Sequence[str]) -> Sentence:
        """The command as the log shows it: ``format``'s words with the cards as cards
        (``play 9♥ 5♣ at 4,5``, ``buy K♠ J♠ JK``)."""
        if isinstance(command, Play):
            return say("play {} {}{}", command.red, command.black, _cell_said(command))
        if isinstance(command, Buy):
            return Sentence("buy ", Sentence(" ").join(command.units))
        return Sentence(self.format(command))

    def parse(self, text: str, view: PropertyView) -> Command:
        words = text.replace("@", " at ").split()
        if not words:
            raise NotationError("Type a command, for example 'play 3D 5C', 'buy KS JH' or 'decline'.")
        verb = words[0].lower()
        if verb in _DECLINE:
            if len(words) > 1:
                raise NotationError(f"{text.strip()!r}: decline takes nothing after it.")
            return Decline()
        if verb == "buy":
            return self._parse_buy(text, words[1:], view)
        if verb == "play":
            return self._parse_play(text, words[1:], view)
        try:
            parse_card(words[0])
        except NotationError:
            raise NotationError(
                f"{text.strip()!r} is not a Property command; the commands are: {_VERBS}."
            ) from None
        return self._parse_play(text, words, view)  # "3D 5C" alone is a play

    @staticmethod
    def _parse_buy(text: str, words: list[str], view: PropertyView) -> Buy:
        if not words:
            raise NotationError("buy needs the purchase units to hand over, e.g. buy KS JH.")
        wanted = parse_cards(" ".join(words))
        payer = view.pending.payer if view.pending else view.current
        units = view.units[payer] if 0 <= payer < len(view.units) else ()
        return Buy(tuple(find_card(units, card) or card for card in wanted))

    @staticmethod
    def _parse_play(text: str, words: list[str], view: PropertyView) -> Play:
        lowered = [word.lower() for word in words]
        card_words, cell_words = (words[: lowered.index("at")], words[lowered.index("at") + 1:]) if "at" in lowered else (words, [])
        if len(card_words) != 2:
            raise NotationError(f"{text.strip()!r}: play needs two cards, one red and one black, e.g. play 3D 5C.")
        hand = view.hand
        cards = [parse_card(word) for word in card_words]
        for card in cards:
            if card.is_joker or card.rank > 10:
                raise NotationError(say("{} is a purchase unit, not a number card: play two cards A-10.", card))
        first, second = cards
        if first.colour is second.colour:
            raise NotationError(say("play needs one red and one black card; {} and {} are both {}.",
                                    first, second, first.colour.value))
        red, black = (first, second) if first.is_red else (second, first)
        red, black = (find_card(hand, red) or red), (find_card(hand, black) or black)
        if cell_words:
            col, row = _parse_cell(text, cell_words)
        elif is_wild(red) or is_wild(black):
            wild = red if is_wild(red) else black
            col, row = cells_for(red, black)[0]
            # the example is what to type: in the notation's letters
            raise NotationError(say("{} is wild: say which cell it names, e.g. play {} {} at {},{}.",
                                    wild, red.key, black.key, col, row))
        else:
            col, row = red.rank, black.rank
        return Play(red, black, col, row)


def _cell_said(play: Play) -> str:
    """`` at 4,5`` when the cards do not name the cell alone (a 9 or 10, or a cell the cards
    cannot name, which check refuses in words); empty otherwise."""
    if is_wild(play.red) or is_wild(play.black) or (play.col, play.row) != (play.red.rank, play.black.rank):
        return f" at {play.col},{play.row}"
    return ""


def _parse_cell(text: str, words: list[str]) -> tuple[int, int]:
    parts = " ".join(words).replace(",", " ").replace("·", " ").replace("/", " ").split()
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() and len(part) <= 2 for part in parts):
        raise NotationError(f"{text.strip()!r}: after 'at' give the column and the row, e.g. at 4,5.")
    return int(parts[0]), int(parts[1])

