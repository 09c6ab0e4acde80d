"""Sentences on screen: the rules' sentences styled by their parts, and any other text shown
exactly as it is.

Everything a person may have typed (a name above all) reaches the screen through ``styled`` or
``plain``, never as markup: a player called ``[/]`` or ``[@click=app.quit]`` is shown as typed.
A ``Sentence`` from the rules carries its players, cards and money as parts; they are styled
here without reading the words again (no pattern looks for a card in a sentence).
"""

from __future__ import annotations

from rich.text import Text

from rules.core.cards import Card
from rules.core.words import Money, Player, Sentence

from .card import GREEN, card_text

NAME_STYLE = "bold"
MONEY_STYLE = f"bold {GREEN}"


def styled(text: str, style: str = "", four_colour: bool = False) -> Text:
    """``text`` as a rich Text: a Sentence with its parts styled (a card in its suit's colour, a
    name in bold, money in green), any other str as it is. Never markup."""
    if not isinstance(text, Sentence):
        return Text(str(text), style=style)
    out = Text(style=style)
    for part in text.parts:
        if isinstance(part, Card):
            out.append_text(card_text(part, four_colour))
        elif isinstance(part, Player):
            out.append(part.name, style=NAME_STYLE)
        elif isinstance(part, Money):
            out.append(str(part), style=MONEY_STYLE)
        else:
            out.append(str(part))
    return out


def plain(text: object, style: str = "") -> Text:
    """Any text exactly as it is (a name, a file's reason): a Text, never read as markup."""
    return Text(str(text), style=style)
