"""The table's widgets: cards, the hand, the scoreboard, the game log and the command bar."""

from .card import CardWidget, card_text
from .command_bar import CommandBar
from .game_log import GameLog
from .hand import HandWidget
from .scoreboard import Scoreboard

__all__ = ["CardWidget", "CommandBar", "GameLog", "HandWidget", "Scoreboard", "card_text"]
