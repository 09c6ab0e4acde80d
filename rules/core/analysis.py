"""The analysis of a finished game: every decision judged from the mover's own view.

For every decision of a finished game (a move whose seat had more than one legal command; a
forced move is no decision and is not judged) the expert's race (``search.weigh``) runs at the
position from the mover's view at that moment — what that seat saw, its legal commands, and
hidden cards dealt by the game's ``sample`` from that view, never the real ones — for
``seconds`` (or ``iterations``) per position. When the legal list is long the race weighs the
game's bot's choice and the best of the rest at a glance (``Settings.candidates``, 12 by
default, or the game's ``analysis_candidates``: fewer commands, more deals each, where a small
budget spread over twelve left every command too few deals for a better one to be told: Capital
Auction weighs 6) and always the command played. On each deal a command gets:

- **its chance**, the mover's share of the win: at the end of the game if the playout gets
  there, else ``1 / (1 + e^(−lead / s))`` of the mover's lead over its best rival by the game's
  estimate, ``s`` being the game's ``analysis_scale`` (its ``expert`` settings), fitted by
  tests/fit_scale.py on this very chance (the analysis's own, over games of the bot against
  itself) so that the chances are calibrated: of the positions rated 70%, the player wins about
  70 in 100 if both play on as the bot would (tests/benchmark.py --parts analysis measures it
  on other games). Where the estimate misjudges the mover whatever the scale, the game's
  ``analysis_lead`` is added to the lead first (fitted with the scale: Portfolio). A command's
  chance is the mean over the deals, in percent.
- **its judged value**, the chance with the margin as a tie-break: ``chance + MARGIN · lead /
  σ`` (``MARGIN``, 0.2), ``lead`` the mover's lead over its best rival at the end of the
  playout (the final scores, or the game's estimate), not clipped, and ``σ`` the decision's
  ``spread``: how much the luck of the deals moves that lead from this position (the standard
  deviation of each command's lead about its own mean, pooled over the commands; where no luck
  moves it, the spread of every command's lead). Giving up as much lead as the cards' luck
  moves costs 20 points, a blunder, and a quarter of that an inaccuracy. Far behind (or far
  ahead), every command has the same chance, 0 (or 100), and the margin alone tells a move
  that loses by little from one that throws the rest away: without it, a player who fell
  behind early would be "accurate" whatever they did. The margin is measured in the
  position's own stakes, not in a scale of the game's: early in an Abundance rubber, where
  each player has $50, bidding all of it for a card that round 1's sale pays little for is a
  blunder however hopeless the match; in its last round, where a sale pays hundreds, the
  same $50 costs far less. (It needs no scale of the game's, so the judgement does not move
  when ``analysis_scale`` is fitted again for the chances.) The race itself, which the hints
  share, drops commands on its own tie-break (``Settings.tie_break``, in the game's scale);
  the judgement weighs the deals each command got by the value above.

Then:

- **Best, played, loss.** The best command is the one of the highest value among those with no
  lower chance than the command played (a move is never called wrong for keeping more chance of
  winning). It counts as better only when it beats the played one clearly, by ``prefer(k)``
  standard errors of their paired difference over the same deals, ``k`` being the commands
  weighed: 1.5 for two, more for more (Bonferroni: the best of twelve noisy estimates is ahead
  of the played one by chance alone far more often than one rival is), else the played one is
  the best. ``chance_before`` is the best command's chance, ``chance_after`` the played one's,
  and the **loss** the difference of their values in points (at least the chance lost).
- **Verdict.** A loss of at least 5 points is an *inaccuracy*, 10 a *mistake*, 20 a *blunder*
  (``THRESHOLDS``).
- **Accuracy** of a player, 0–100: the mean over their decisions of Lichess's move accuracy
  ``103.1668 · e^(−0.04354 · loss) − 3.1669`` (clamped to 0–100: 100 for no loss, about 79
  for 5 points, 63 for 10, 39 for 20), each decision weighing what was at stake in it
  (``stake``): the spread of the judged values of the commands the position offered, the
  best's less the worst's, in points, clamped to 0.5–12 (``STAKES``; Lichess weighs its moves
  by the volatility of the position, clamped alike). A choice between commands that come to
  the same thing tells little of a player; one between a sound move and a ruinous one tells
  much. The command played counts in the stakes only when the race would have weighed it
  anyway (not when it is added beyond the ``candidates``): the stakes are the position's,
  whatever was played. None for a player who made no decision.
- **Skill and luck**, per player, in points of chance, from their own view only. Skill is the
  sum of ``chance_after − chance_before`` over their decisions (what their choices cost: 0 at
  best). Luck is the rest of the way: the change from the chance after each of their decisions
  to the chance at their next one (the cards drawn, dealt and turned, and the others' moves,
  neither of which they chose), and from the last one to the result (100 for a win, a share for
  a shared win, 0 for a loss). So ``start + skill + luck = result``, ``start`` being the chance
  at their first decision.

Deterministic given ``seed`` with an ``iterations`` budget (each position has its own random
numbers, ``Random(f"{seed}:{move}")``); with a ``seconds`` budget the deals are the same ones in
the same order and only how many of them are tried depends on the machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any, Callable, Sequence

from .errors import RulesError
from .search import Weighed, paired, settings_for, weigh

VERSION = 7
"""Changes whenever the same game would be judged differently: kept analyses of another
version are not shown. (5: Abundance's estimate values trinkets at their expected sale, and
equal margins have no spread whatever the rounding. 6: Capital Auction weighs 6 commands a
decision, ``analysis_candidates``. 7: Capital Auction's estimate weighs Capital claims five
times, its scale fitted again.)"""
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
"""A loss of at least this many points of winning chance earns the verdict (the first met)."""
PREFER = 1.5
"""The best command must beat the played one by this many standard errors to count as better,
when it is the only other one weighed (``prefer``: more for more)."""
TURNING_POINTS = 5
"""The most costly decisions told, at most (those with a verdict), and as many swings of luck."""
SWING = 20.0
"""A change of at least this many points between two of a player's decisions is told."""
MARGIN = 0.2
"""The margin's weight in a deal's judged value: a fifth of a point of chance for each
hundredth of the decision's ``spread`` of lead (20 points, a blunder, for a whole one)."""
STAKES = (0.5, 12.0)
"""A decision's weight in its player's accuracy, in points at stake, is clamped to this range
(Lichess clamps its volatility weights so)."""


class NotFinished(RulesError):
    """The game is not over: its decisions cannot be judged against how it ended."""


class Stopped(Exception):
    """The analysis was stopped before its end (nothing of it is kept)."""


def verdict(loss: float) -> str | None:
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return None


def move_accuracy(loss: float) -> float:
    return max(0.0, min(100.0, 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411))


@dataclass(frozen=True)
class Decision:
    """One judged move: ``number`` is the move's number in the game (1 is the first move),
    chances in percent; ``choices`` every command weighed as (notation, chance, deals), best first."""

    number: int
    seat: int
    played: str
    best: str
    chance_before: float
    chance_after: float
    legal: int
    choices: tuple[tuple[str, float, int], ...] = ()
    loss: float = 0.0
    """What the move cost, in points of judged value: the chance lost, and the margin lost as
    a tie-break (see the module's docstring); at least ``chance_before − chance_after``."""
    stake: float = 1.0
    """What was at stake, in points (``stake``): the decision's weight in its player's accuracy."""

    @property
    def verdict(self) -> str | None:
        return verdict(self.loss)

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.loss)


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    skill: float
    luck: float
    start: float | None
    result: float


@dataclass(frozen=True)
class Analysis:
    """What ``analyse`` found (see the module's docstring); ``series[seat]`` the seat's chance
    after every move of the game (position 0 is the deal), carried over between its decisions."""

    game: str
    names: tuple[str, ...]
    seconds: float | None
    decisions: tuple[Decision, ...]
    players: tuple[Player, ...]
    series: tuple[tuple[float, ...], ...]
    turns: tuple[int, ...]
    version: int = VERSION
    seed: int = 0
    elapsed: float = field(default=0.0, compare=False)

    # -- as data ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The object ``cardtable analyse --json`` prints (chances in percent, seats from 0)."""
        return {
            "moves": [{"number": d.number, "seat": d.seat, "name": self.names[d.seat], "played": d.played,
                       "best": d.best, "chance_before": round(d.chance_before, 1),
                       "chance_after": round(d.chance_after, 1), "verdict": d.verdict}
                      for d in self.decisions],
            "players": [{"seat": p.seat, "name": p.name,
                         "accuracy": None if p.accuracy is None else round(p.accuracy, 1),
                         "inaccuracies": p.inaccuracies, "mistakes": p.mistakes, "blunders": p.blunders,
                         "skill": round(p.skill, 1), "luck": round(p.luck, 1)} for p in self.players],
        }

    def to_data(self) -> dict[str, Any]:
        """Everything, for keeping (``from_data`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Analysis:
        decisions = tuple(Decision(**{**d, "choices": tuple(tuple(c) for c in d["choices"])})
                          for d in data["decisions"])
        return cls(game=data["game"], names=tuple(data["names"]), seconds=data["seconds"],
                   decisions=decisions, players=tuple(Player(**p) for p in data["players"]),
                   series=tuple(tuple(s) for s in data["series"]), turns=tuple(data["turns"]),
                   version=data["version"], seed=data["seed"], elapsed=data.get("elapsed", 0.0))

    # -- in words --------------------------------------------------------------------------------
    def summary(self) -> list[str]:
        """One line per player: accuracy, verdicts, skill and luck."""
        lines = []
        for p in self.players:
            if p.accuracy is None:
                lines.append(f"{p.name}: no decision to judge; {_points(p.luck)} from the cards and the others.")
                continue
            counts = ", ".join(f"{n} {word if n == 1 else plural}" for n, word, plural in (
                (p.inaccuracies, "inaccuracy", "inaccuracies"), (p.mistakes, "mistake", "mistakes"),
                (p.blunders, "blunder", "blunders")))
            lines.append(f"{p.name}: accuracy {p.accuracy:.0f}, {counts}; {_points(p.skill)} from decisions, "
                         f"{_points(p.luck)} from the cards and the others "
                         f"({p.start:.0f}% at the first decision, {p.result:.0f} at the end).")
        return lines

    def turning_points(self) -> list[tuple[int, str]]:
        """The costliest decisions and the largest swings of luck, as (move, sentence), in the
        order of the game."""
        points: list[tuple[int, str]] = []
        costly = sorted((d for d in self.decisions if d.verdict), key=lambda d: -d.loss)[:TURNING_POINTS]
        for d in costly:
            # a loss mostly of the margin (where the chances are alike) is told as such
            margin = " and a better score" if d.chance_before - d.chance_after < d.loss / 2 else ""
            points.append((d.number, f"Move {d.number}: {self.names[d.seat]} played {d.played!r} ({d.verdict}); "
                                     f"{d.best!r} kept {d.chance_before:.0f}% against {d.chance_after:.0f}%{margin}."))
        swings = []
        for seat in range(len(self.names)):
            own = [d for d in self.decisions if d.seat == seat]
            for before, after in zip(own, own[1:]):
                change = after.chance_before - before.chance_after
                if abs(change) >= SWING:
                    swings.append((abs(change), before, after))
        for _size, before, after in sorted(swings, key=lambda s: -s[0])[:TURNING_POINTS]:
            went = "rose" if after.chance_before > before.chance_after else "fell"
            points.append((after.number, f"Between moves {before.number} and {after.number}: "
                                         f"{self.names[before.seat]}'s chance {went} from "
                                         f"{before.chance_after:.0f}% to {after.chance_before:.0f}% "
                                         "with the cards and the others' moves."))
        return sorted(points)


def _points(value: float) -> str:
    return f"{value:+.0f} points".replace("-", "−")


def decisions_of(replay: Any) -> list[int]:
    """The positions (moves made before) at which the next move was a decision."""
    spec = replay.spec
    replay.goto(replay.moves)
    history = list(replay.history)
    found = []
    for position, played in enumerate(history):
        replay.goto(position)
        if len(spec.legal(replay.state, played.seat)) > 1:
            found.append(position)
    replay.goto(replay.moves)
    return found


def analyse(replay: Any, seconds: float | None = None, *, iterations: int | None = None, seed: int = 0,
            progress: Callable[[int, int], None] | None = None,
            stop: Callable[[], bool] | None = None,
            positions: Sequence[int] | None = None) -> Analysis:
    """Judge every decision of ``replay``, a finished game (see the module's docstring).
    ``seconds`` per position (default: the expert's thinking time for the game), or
    ``iterations`` (commands tried on deals) for a deterministic run. ``progress(done, total)``
    is called after each decision; ``stop()`` is asked before each, and True raises Stopped.
    ``positions`` limits the work to those positions (for tests). NotFinished for a game that
    is not over."""
    import time

    spec = replay.spec
    replay.goto(replay.moves)
    outcome = replay.outcome
    if outcome is None:
        raise NotFinished("This game is not over: only a finished game can be analysed.")
    history = list(replay.history)
    names = replay.names
    if seconds is None and iterations is None:
        seconds = settings_for(spec).seconds
    settings = settings_for(spec, seconds=seconds, iterations=iterations)
    if settings.analysis_candidates is not None:
        settings = settings.but(candidates=settings.analysis_candidates)
    todo = decisions_of(replay) if positions is None else list(positions)
    started = time.perf_counter()
    decisions: list[Decision] = []
    try:
        for done, position in enumerate(todo):
            if stop is not None and stop():
                raise Stopped
            played = history[position]
            replay.goto(position)
            view = spec.view(replay.state, played.seat)
            legal = list(spec.legal(replay.state, played.seat))
            rng = random.Random(f"{seed}:{position + 1}")
            weighed = weigh(spec, view, legal, [played.command], rng, settings)
            decisions.append(_decision(position + 1, played, weighed, len(legal), spec.notation.format,
                                       settings.candidates))
            if progress is not None:
                progress(done + 1, len(todo))
    finally:
        replay.goto(replay.moves)
    winners = outcome.winners
    results = [100.0 / len(winners) if seat in winners else 0.0 for seat in range(len(names))]
    players = tuple(_player(seat, name, [d for d in decisions if d.seat == seat], results[seat])
                    for seat, name in enumerate(names))
    series = _series(decisions, len(names), replay.moves, results)
    turns = tuple(replay.turn_at(k) for k in range(replay.moves + 1))
    return Analysis(spec.name if hasattr(spec, "name") else str(spec), tuple(names), seconds, tuple(decisions),
                    players, series, turns, VERSION, seed, time.perf_counter() - started)


def prefer(weighed: int) -> float:
    """The standard errors by which the best of ``weighed`` commands must beat the played one:
    ``PREFER`` for one other command, more for more (Bonferroni: the best of many looks better
    than it is by chance alone, and a move is not called wrong on noise)."""
    if weighed <= 2:
        return PREFER
    return NormalDist().inv_cdf(1 - (1 - NormalDist().cdf(PREFER)) / (weighed - 1))


def spread(weighed: Sequence[Weighed]) -> float:
    """The margin's unit at a decision: how much the luck of the deals moves the mover's lead,
    the standard deviation of each command's margin about its own mean over its deals, pooled
    over the commands (the margins' spread over everything, when no deal's luck moved them: a
    position whose rest is certain; 1 when every margin is the same)."""
    squares, freedom = 0.0, 0
    for w in weighed:
        if len(w.margins) > 1:
            # equal margins have no spread: their mean, rounded, would give them one of 1e-16,
            # and a lead of a dollar would cost a million points
            if max(w.margins) > min(w.margins):
                mean = sum(w.margins) / len(w.margins)
                squares += sum((m - mean) ** 2 for m in w.margins)
            freedom += len(w.margins) - 1
    if freedom and squares > 0:
        return math.sqrt(squares / freedom)
    every = [m for w in weighed for m in w.margins]
    if len(every) > 1 and max(every) > min(every):
        mean = sum(every) / len(every)
        deviation = math.sqrt(sum((m - mean) ** 2 for m in every) / len(every))
        if deviation > 0:
            return deviation
    return 1.0


def values(weighed: Sequence[Weighed]) -> dict[Any, tuple[float, ...]]:
    """Each command's judged value deal by deal: its chance with the margin as a tie-break,
    ``share + MARGIN · lead / spread`` (see the module's docstring)."""
    unit = spread(weighed)
    return {w.command: tuple(r + MARGIN * m / unit for r, m in zip(w.rewards, w.margins)) for w in weighed}


def judge(weighed: Sequence[Weighed], played: Any) -> tuple[Weighed, float]:
    """The best of the commands ``weigh`` weighed, by the mover's judged value (its chance of
    winning, the margin breaking ties: ``values``) among those with no lower chance than
    ``played``, and what playing ``played`` lost against it in points (0, and the played one
    itself as the best, unless the best is clearly better: ``prefer``)."""
    judged = values(weighed)
    mine = next(w for w in weighed if w.command == played)
    racing = [w for w in weighed if not w.out] or list(weighed)
    rivals = [w for w in racing if w.mean >= mine.mean]
    best = max(rivals, key=lambda w: (_mean(judged[w.command]), w is mine))
    if best is not mine:
        diff, error = paired(judged[best.command], judged[played])
        if diff > 0 and diff > prefer(len(weighed)) * error:
            return best, 100 * max(diff, best.mean - mine.mean)
    return mine, 0.0


def stake(weighed: Sequence[Weighed], played: Any, candidates: int) -> float:
    """What was at stake at a decision, in points: the spread of the judged values of the
    commands the position offered the race (the best's less the worst's), within ``STAKES``.
    The played command counts only when the race would have weighed it anyway (it is added
    beyond the ``candidates`` when it was not): the stakes are the position's, whatever was
    played."""
    judged = values(weighed)
    offered = [w for w in weighed if len(weighed) <= candidates or w.command != played]
    means = [_mean(judged[w.command]) for w in offered if w.rewards]
    low, high = STAKES
    return min(high, max(low, 100 * (max(means) - min(means)))) if means else low


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _decision(number: int, played: Any, weighed: Sequence[Weighed], legal: int,
              format: Callable[[Any], str], candidates: int) -> Decision:
    best, loss = judge(weighed, played.command)
    mine = next(w for w in weighed if w.command == played.command)
    choices = tuple((format(w.command), round(100 * w.mean, 2), len(w.rewards)) for w in weighed)
    return Decision(number, played.seat, played.text, played.text if best is mine else format(best.command),
                    100 * best.mean, 100 * mine.mean, legal, choices, loss,
                    stake(weighed, played.command, candidates))


def _player(seat: int, name: str, own: Sequence[Decision], result: float) -> Player:
    if not own:
        return Player(seat, name, None, 0, 0, 0, 0.0, 0.0, None, result)
    skill = sum(d.chance_after - d.chance_before for d in own)
    luck = sum(b.chance_before - a.chance_after for a, b in zip(own, own[1:])) + result - own[-1].chance_after
    verdicts = [d.verdict for d in own]
    accuracy = sum(d.stake * d.accuracy for d in own) / sum(d.stake for d in own)
    return Player(seat, name, accuracy, verdicts.count("inaccuracy"),
                  verdicts.count("mistake"), verdicts.count("blunder"), skill, luck, own[0].chance_before, result)


def _series(decisions: Sequence[Decision], seats: int, moves: int,
            results: Sequence[float]) -> tuple[tuple[float, ...], ...]:
    known: list[dict[int, float]] = [{} for _ in range(seats)]
    for d in decisions:
        known[d.seat][d.number - 1] = d.chance_before
        known[d.seat].setdefault(d.number, d.chance_after)
    series = []
    for seat in range(seats):
        points = known[seat]
        points[moves] = results[seat]
        value = points[min(points)]
        row = []
        for position in range(moves + 1):
            value = points.get(position, value)
            row.append(round(value, 1))
        series.append(tuple(row))
    return tuple(series)


__all__ = ["Analysis", "Decision", "MARGIN", "NotFinished", "Player", "STAKES", "Stopped", "THRESHOLDS", "VERSION",
           "analyse", "decisions_of", "judge", "move_accuracy", "prefer", "spread", "stake", "values", "verdict"]
