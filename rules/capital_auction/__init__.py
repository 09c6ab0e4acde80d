"""Capital Auction: bid Capital cards for face-up and face-down Investment cards, then play
Tools on each other's portfolios and hands, which a Connection in the Government may cancel.
The card set is the project's own (cards.toml). Rules page: seeds/capital-auction.md."""

from .bot import CapitalAuctionBot, GreedyBot, LookAheadBot
from .cards import CARDS, Capital, Investment, Tool
from .commands import Bid, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take
from .rules import CapitalAuctionGame, tool_uses, useful_bids
from .state import CapitalAuctionState, CapitalAuctionView, Pending, Slot, SlotInfo

SPEC = CapitalAuctionGame()
SPEC.bots.update({"bot": LookAheadBot(SPEC), "greedy": GreedyBot()})  # the bot's search needs the game

__all__ = [
    "CARDS", "SPEC", "Bid", "Capital", "CapitalAuctionBot", "CapitalAuctionGame", "CapitalAuctionState",
    "CapitalAuctionView", "Decline", "DiscardCapital", "DiscardTool", "Flip", "GreedyBot", "Investment", "LookAheadBot",
    "Pass", "Pending", "Play", "React", "Slot", "SlotInfo", "Take", "Tool", "tool_uses", "useful_bids",
]
