"""Regenerate the SVG screenshots in screenshots/ from seeded games (a script, not a test).

    python tests/make_screenshots.py

Every picture is made headless at a fixed size from a fixed seed, so running it twice gives the
same pictures unless the app changed.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.settings import Settings
from rules import find_game
from rules.core import Match, Seat, chance, get_bot
from game_helpers import bot_choice

OUT = Path(__file__).resolve().parents[1] / "screenshots"
SIZE = (120, 40)


def game_in_progress(game: str, names: list[str], seed: int, commands: int) -> Match:
    """A match whose first seat is a human and the others bots, played on by the game's bot
    (for every seat) for about ``commands`` commands, stopping when the human is to move."""
    spec = find_game(game)
    seats = [Seat(names[0])] + [Seat(name, spec.best_bot) for name in names[1:]]
    match = Match(spec, seats, seed=seed)
    bot = get_bot(spec, spec.best_bot)
    step = 0
    while not match.over and (step < commands or match.awaiting != {0}):
        seat = min(match.awaiting)
        match.submit(*bot_choice(match, bot, chance(seed, f"shot/{step}")))
        step += 1
    return match


async def shoot(name: str, app: CardtableApp, keys: tuple[str, ...] = ()) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.save_screenshot(f"{name}.svg", str(OUT))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    settings = Settings(bot_delay=0)
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(Path(folder))
        await shoot("menu", CardtableApp(store=store, settings=settings))
        await shoot("setup", CardtableApp(store=store, settings=settings), ("n",))
        match = game_in_progress("property", ["Ann", "Cleo"], seed=7, commands=40)
        await shoot("property", CardtableApp(store=store, settings=settings, match=match),
                    ("space", "right", "space"))
        match = game_in_progress("portfolio", ["Ann", "Bob", "Cleo"], seed=5, commands=60)
        await shoot("portfolio", CardtableApp(store=store, settings=settings, match=match))
        # round 2 of the first rubber: sealed bids tied, the card goes to an open auction; Ann
        # raises her bid by 5
        match = game_in_progress("abundance", ["Ann", "Cleo"], seed=1, commands=300)
        await shoot("abundance", CardtableApp(store=store, settings=settings, match=match), ("right",))
        # four players in the middle of the game; Ann has selected a card: the line under the hand
        # says what it buys and where laying it would take the price
        match = game_in_progress("stock-market", ["Ann", "Cleo", "Dan", "Eve"], seed=7, commands=40)
        await shoot("stock-market", CardtableApp(store=store, settings=settings, match=match), ("space",))
        # four players in the first round's bidding; Ann has ticked a Capital card
        match = game_in_progress("capital-auction", ["Ann", "Bob", "Cleo", "Dan"], seed=3, commands=30)
        await shoot("capital-auction", CardtableApp(store=store, settings=settings, match=match), ("space",))


if __name__ == "__main__":
    asyncio.run(main())
