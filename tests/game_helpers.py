"""Helpers the rules tests share: drive a game's spec for whichever single seat it awaits.

Most rules tests are about one player acting at a time; these save each test from naming the
seat the position already names. Tests about seats (a command from the wrong seat, several
seats awaited at once) call the spec directly with explicit seats."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any, Callable, Iterator


def seat_helpers(spec: Any) -> SimpleNamespace:
    def to_move(state: Any) -> int | None:
        awaiting = spec.awaiting(state)
        assert len(awaiting) <= 1, f"several seats awaited: {sorted(awaiting)}"
        return min(awaiting) if awaiting else None

    def seat_of(state: Any) -> int:
        seat = to_move(state)
        return 0 if seat is None else seat

    def check(state: Any, command: Any) -> None:
        spec.check(state, seat_of(state), command)

    def legal(state: Any) -> list:
        seat = to_move(state)
        return [] if seat is None else spec.legal(state, seat)

    def parse(text: str, state: Any) -> Any:
        return spec.notation.parse(text, spec.view(state, seat_of(state)))

    def apply(state: Any, command: Any) -> list:
        return spec.apply(state, seat_of(state), command)

    def play(state: Any, text: str) -> list:
        return apply(state, parse(text, state))

    return SimpleNamespace(to_move=to_move, check=check, legal=legal, parse=parse, apply=apply, play=play)


def play_random(match: Any, step: int | None = None) -> None:
    """Submit one random legal command for the first awaited seat, as a random player would."""
    from rules.core import chance

    seat = min(match.awaiting)
    step = len(match.history) if step is None else step
    match.submit(seat, chance(match.seed, f"test/{step}").choice(match.legal(seat)))


def play_bot(match: Any, level: str | None = None, step: int | None = None) -> None:
    """Submit the move a bot of ``level`` (the game's best) would make for the first awaited seat."""
    from rules.core import chance, get_bot

    seat = min(match.awaiting)
    bot = get_bot(match.spec, level or match.spec.best_bot)
    step = len(match.history) if step is None else step
    match.submit(seat, bot.choose(match.view(seat), match.legal(seat), chance(match.seed, f"test/{step}")))


def bot_choice(match: Any, bot: Any, rng: Any) -> tuple[int, Any]:
    """(seat, command): what ``bot`` would play for the first awaited seat, from its view."""
    seat = min(match.awaiting)
    return seat, bot.choose(match.view(seat), match.legal(seat), rng)


_CARD_WORD = re.compile(r"(?<![\w$])(10|[2-9AJQKTajqkt])([SHDCshdc])(\.\d+)?(?![\w.])|(?<![\w$])JK(\.\d+)?(?![\w.])")


def in_symbols(text: str) -> str:
    """A test's own reading of notation as the screen should show it: every card in symbols,
    without copy numbers (``discard 6H.1`` → ``discard 6♥``). The app never searches words
    for cards (its notations' ``display`` builds the words with their cards as parts); a test
    may, as an independent check of what ``display`` wrote."""
    from rules.core import parse_card

    def symbol(found: re.Match[str]) -> str:
        if found.group(0).upper().startswith("JK"):
            return "JK"
        return parse_card(f"{found.group(1)}{found.group(2)}").symbol

    return _CARD_WORD.sub(symbol, text)


def played_until(match, done):
    """``match`` played on by random commands (each move's randomness from its number) until
    ``done(match)``; returns it."""
    import random

    from rules.core.baseline import RandomBot

    while not done(match):
        seat = min(match.awaiting)
        match.submit(seat, RandomBot().choose(None, match.legal(seat), random.Random(len(match.history))))
    return match


def loads_without(match, field: str):
    """``match`` saved with ``field`` missing from its snapshot (a save from before the field),
    loaded again: the replay of its moves must rebuild it."""
    import rules

    data = match.to_json()
    del data["snapshot"][field]
    return rules.load_match(data)


def seeded_positions(spec: Any, seeds: range, steps: int, players: Callable[[int], int],
                     options: Callable[[int], Any] = lambda seed: None,
                     bot: Any = None, always: bool = False) -> Iterator[tuple[Any, int, Any, Any]]:
    """(state, seat, view, legal) at each position of seeded games for the lowest awaited seat,
    up to ``steps`` positions a game; then that seat plays: ``bot`` four times in five when
    given (``always``: every time), else at random."""
    for seed in seeds:
        state = spec.setup([f"P{i}" for i in range(players(seed))], options(seed), seed)
        rng = random.Random(seed)
        for _step in range(steps):
            if spec.outcome(state) is not None:
                break
            seat = min(spec.awaiting(state))
            view, legal = spec.view(state, seat), spec.legal(state, seat)
            yield state, seat, view, legal
            use_bot = bot is not None and (always or rng.random() < 0.8)
            spec.apply(state, seat, bot.choose(view, legal, rng) if use_bot else rng.choice(list(legal)))
