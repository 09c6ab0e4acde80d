"""Information-set Monte Carlo tree search: the ``expert`` bot level of every game.

One search for every registered game, over the contract alone (after Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", 2012: single observer, availability
counts). The expert is given what a human in its seat has — its view and its legal commands —
and never anything more:

- **Determinize.** Every iteration deals what the seat cannot see at random,
  ``spec.sample(view, rng)``: the other hands, the stock's order (and so every draw to come), a
  sealed bid not yet revealed. Iterations come in numbered deals, and every command weighed at
  the root is tried on the same deals: common random numbers, so that in a game of luck the
  difference two commands make shows through the luck of the cards much sooner.
- **The root: a race.** The commands the expert may play are weighed side by side, deal by deal
  (all of them when there are few; else the most promising ones by a glance at each — the
  game's estimate one command ahead — always with the game's own bot's choice). After each
  batch of deals a command whose paired difference from the leader is clearly negative (more
  than ``drop`` standard errors) leaves the race, and so does any but the bot's choice that is
  clearly no better than the leader by more than ``indifference`` (the bot's choice standing in
  for a leader that gains no more than that on it): commands that come to the same thing end
  the race early. At the end the expert plays the leader if it beats the bot's choice clearly
  (``prefer`` standard errors), and the bot's choice otherwise: it departs from the game's good
  sense only on evidence.
- **Below the root: the tree.** After the root command the seat to act chooses among the
  children *available* in this determinization by UCB1 with availability counts (a child's
  exploration term counts the times it could have been chosen, not its parent's visits). At the
  expert's own nodes the children grow by progressive widening (``widening · visits^½``), the
  bot's choice first, so a long list is searched from the sensible end; the other seats play
  their bot's choice (``opponents="model"``) or are searched likewise (``"search"``). The tree
  goes ``tree`` decisions deep at most, the bot's choice beyond.
- **Play out.** Past the tree the game's own bot plays every seat, each from its own view of
  the determinized state, for ``turns`` turns, and the position is judged by the game's
  ``estimate`` (each seat's expected final score), or to the end if the game has none. A seat's
  reward is its share of the win at the end, or before it the chance of winning its lead over
  the best rival suggests, ``1 / (1 + e^(−lead / scale))``.

The search stops at its time budget (``seconds``, wall clock, so it plays at the same pace on
any machine), at its iteration cap (``iterations``, which tests use: with ``seconds=None`` the
search is a pure function of the view, the legal commands and the rng it is given; ``doubt``
lets it go on past the cap while the bot's choice is in doubt), or when the race is decided.
At the budget an iteration still playing out is left unfinished, so the search never runs past
it by more than a command: the table waits out whatever is left of the budget before it plays
the answer, and the time a decision takes tells nothing of the hand.

The optional hooks of a game (documented with GameSpec in rules/core/engine.py):

- ``estimate(state) -> tuple[float, ...]``: each seat's expected final score, in the units of
  the outcome's scores, judged from the table. Without it ``scores(state)`` is used when the
  game has it; without either, playouts run to the end.
- ``estimate_scale``: the lead (in those units) that makes a win about three times as likely
  as a loss (without it, the mean lead met so far in the search).
- ``expert``: a mapping of ``Settings`` fields that suit the game better (``{"turns": 3}``).
"""

from __future__ import annotations

import inspect
import math
import operator
import random
import time
from dataclasses import dataclass, fields, replace
from itertools import repeat
from typing import Any, Callable, Sequence

from .baseline import own_bot, played_out
from .copying import spec_copy
from .engine import Command, View

EXPERT = "expert"


@dataclass(frozen=True)
class Settings:
    """How the expert searches. The defaults suit every game; a game may change some with an
    ``expert`` mapping on its spec, and tests give an iteration cap."""

    seconds: float | None = 0.4
    """Time budget per decision (wall clock); None: only the iteration cap stops it."""
    iterations: int | None = None
    """Iteration cap (one iteration: one command tried on one deal)."""
    candidates: int = 12
    """Commands weighed at the root at most (the bot's choice always among them)."""
    batch: int = 4
    """Deals per round of the race."""
    drop: float = 2.0
    """A command leaves the race when it trails the leader by this many standard errors."""
    prefer: float = 1.5
    """The leader is played instead of the bot's choice when ahead by this many."""
    doubt: int = 0
    """With an iteration cap, the iterations the race may go on past it, a batch of deals at a
    time, while the leader is ahead of the bot's choice by at least one standard error but not
    yet by ``prefer``: where the bot's choice is in doubt the search looks longer before keeping
    to it, and nowhere else. A bot that checks its choices with a small search (Capital Auction's)
    spends its time where a few deals cannot tell."""
    indifference: float = 0.01
    """A command also leaves the race when it is clearly (``drop`` standard errors) no better
    than the leader by this much reward (a win chance): commands that come to the same thing
    on every deal would otherwise race each other until the time runs out."""
    turns: int = 2
    """How far a playout goes past the root, in the game's turns (``spec.turn``), before the
    estimate judges it; 0 plays to the end."""
    max_playout: int = 400
    """Commands per playout at most, whatever the turns."""
    tree: int = 4
    """Decisions below the root that the tree searches; deeper ones are the bot's."""
    exploration: float = 0.6
    """UCB1's exploration constant (rewards lie in 0..1)."""
    widening: float = 1.0
    """Progressive widening at the expert's nodes: ``widening · visits^power`` children."""
    widening_power: float = 0.5
    opponents: str = "model"
    """"model": the other seats play their bot's choice in the tree; "search": they are
    searched like the expert's own seat (plain single-observer ISMCTS)."""
    playout: str | None = None
    """The bot level that plays past the tree; None: the game's own bot (``best_bot``); a bot
    that searches itself by the bot it names (``played_out``, rules/core/baseline.py)."""
    analysis_scale: float | None = None
    """The scale of the logistic when the search judges for the analysis (``weigh``): fitted
    per game on games of its bot (tests/fit_scale.py), so that the chances it gives are
    calibrated. None: the expert's own scale. The expert's play keeps its own (a change of
    scale changes its races, unmeasured)."""
    analysis_lead: float = 0.0
    """Judging only, fitted with the scale: a lead added to the judged seat's at the end of a
    playout that stops before the game's end, where the game's estimate misjudges the seat that
    has a decision to make (Portfolio's underrates it)."""
    tie_break: float = 0.5
    """Judging only (``weigh``): the weight of the margin in the value the race drops commands
    on, ``share + tie_break · lead / scale``, so that where every command wins (or loses)
    alike, the one that wins (or loses) by more stays in the race. Linear, not clipped: far
    behind, a lead of −20 scales against −19 is what tells a good move from a bad one. The
    analysis judges the deals by its own value (rules/core/analysis.py)."""

    analysis_candidates: int | None = None
    """Judging only, for the analysis of a game (rules/core/analysis.py): the commands weighed
    at a decision at most, in place of ``candidates`` (the command played is added when it is
    not among them); None: ``candidates``. At a small budget, fewer commands get more deals
    each, and a better command can pass the test the analysis puts it to (``prefer``)."""

    def but(self, **changes: Any) -> Settings:
        return replace(self, **changes)


_FIELDS = {f.name for f in fields(Settings)}


def settings_for(spec: Any, **overrides: Any) -> Settings:
    """The defaults, then the game's own (``spec.expert``), then ``overrides``."""
    own = {k: v for k, v in dict(getattr(spec, "expert", None) or {}).items() if k in _FIELDS}
    unknown = set(overrides) - _FIELDS
    if unknown:
        raise TypeError(f"unknown expert settings: {', '.join(sorted(unknown))}")
    return Settings(**{**own, **overrides})


class _OutOfTime(Exception):
    """The time budget ran out while an iteration played out (it is left unfinished)."""


class _Node:
    """A node of the information-set tree, reached by ``seat`` playing ``action``."""

    __slots__ = ("action", "seat", "children", "visits", "available", "reward")

    def __init__(self, action: Command | None, seat: int | None) -> None:
        self.action = action
        self.seat = seat
        self.children: dict[Command, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class _Candidate:
    """A command in the race at the root: its rewards deal by deal, and its subtree."""

    __slots__ = ("command", "rewards", "margins", "node", "out")

    def __init__(self, command: Command, seat: int) -> None:
        self.command = command
        self.rewards: list[float] = []
        self.margins: list[float] = []  # judging only (``weigh``): the seat's lead at each deal's end
        self.node = _Node(command, seat)
        self.out = False

    @property
    def mean(self) -> float:
        return sum(self.rewards) / len(self.rewards) if self.rewards else 0.0


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean difference a − b over the deals both were tried on, and its standard error."""
    n = min(len(a), len(b))
    if n < 2:
        return 0.0, math.inf
    # (the same sums, worked out in C: the race asks this of every command after every batch
    # of deals, over all the deals so far; ``map`` stops at the shorter list)
    diffs = list(map(operator.sub, a, b))
    mean = sum(diffs) / n
    var = sum(map(pow, map(operator.sub, diffs, repeat(mean)), repeat(2))) / (n - 1)
    return mean, math.sqrt(var / n)


@dataclass(frozen=True)
class Stats:
    """What one search did: for tests, the evaluation and the curious."""

    iterations: int
    seconds: float
    playout_commands: int
    choices: tuple[tuple[Command, int, float], ...]  # (command, deals tried, mean reward), best first
    bot_choice: Command | None = None


class ExpertBot:
    """The ``expert`` level: see the module's docstring. ``choose`` follows the Bot protocol."""

    def __init__(self, spec: Any, **overrides: Any) -> None:
        self.spec = spec
        self.settings = settings_for(spec, **overrides)
        self.last: Stats | None = None

    def choose(self, view: View, legal: Sequence[Command], rng: random.Random) -> Command:
        # At once when there is nothing to choose, as a race decided early ends at once:
        # headless games (``cardtable simulate``, tests/expert_eval.py) are watched by nobody,
        # and the table waits out the budget itself (cardtable/screens/table.py).
        if len(legal) == 1:
            self.last = Stats(0, 0.0, 0, ((legal[0], 0, 0.0),))
            return legal[0]
        search = _Search(self.spec, self.settings, view, legal, rng)
        command = search.run()
        self.last = search.stats()
        return command


@dataclass(frozen=True)
class Weighed:
    """A command weighed by ``weigh``: the seat's reward (its share of the win) on each deal it
    was tried on, the same deals in the same order for every command."""

    command: Command
    rewards: tuple[float, ...]
    out: bool
    """Dropped from the race: clearly worse than the leader (its rewards stop there)."""
    margins: tuple[float, ...] = ()
    """The seat's lead over its best rival at the end of each deal's playout (the final scores
    at a finished game, else the estimate), in units of the judging scale."""
    values: tuple[float, ...] = ()
    """The judged value on each deal: the reward with the margin as a tie-break
    (``Settings.tie_break``); what the race of ``weigh`` is run on."""

    @property
    def value(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def mean(self) -> float:
        return sum(self.rewards) / len(self.rewards) if self.rewards else 0.0


def weigh(spec: Any, view: View, legal: Sequence[Command], keep: Sequence[Command], rng: random.Random,
          settings: Settings) -> list[Weighed]:
    """The expert's race at ``view`` (what the seat sees, nothing more) run to its budget for
    judging rather than playing (the analysis of a finished game): the commands ``run`` would
    weigh, and ``keep`` (the command played) which is never dropped, best first."""
    search = _Search(spec, settings, view, legal, rng, judging=True)
    field = search.weigh(keep)
    return [Weighed(c.command, tuple(c.rewards), c.out, tuple(c.margins), tuple(search.values(c))) for c in field]


class _Search:
    """One decision of the expert."""

    def __init__(self, spec: Any, settings: Settings, view: View, legal: Sequence[Command],
                 rng: random.Random, judging: bool = False) -> None:
        if view.seat is None:
            raise ValueError("the expert plays a seat: a spectator has no commands")
        self.started = time.perf_counter()
        self.deadline = None if settings.seconds is None else self.started + settings.seconds
        self.cap = settings.iterations  # raised by ``doubt`` where the bot's choice is in doubt
        self.spec = spec
        self.settings = settings
        self.view = view
        self.legal = list(legal)
        self.me: int = view.seat
        self.players = len(view.names)
        self.rng = rng
        self.copy = spec_copy(spec)
        self.policy = played_out(own_bot(spec, settings.playout or spec.best_bot))
        self.policy_reads_view = getattr(self.policy, "reads_view", True)
        self.policy_plays_forced = getattr(self.policy, "plays_forced", False)
        # below the root only listed commands are played: the tree's own (from the legal list)
        # and the policy's when it vouches for them; the game may then apply them unchecked
        # (closures, not functools.partial: a partial with a keyword makes a dict at every call,
        # and these are called at every command of the playouts)
        apply, view = spec.apply, getattr(spec, "view", None)
        listed = "listed" in inspect.signature(apply).parameters
        self.apply_listed = (lambda state, seat, command: apply(state, seat, command, listed=True)) if listed else apply
        self.apply_policy = self.apply_listed if getattr(self.policy, "chooses_listed", False) else apply
        self.view_of = view
        if view is not None and "plain" in inspect.signature(view).parameters:
            self.view_of = lambda state, seat: view(state, seat, plain=True)  # without the person's text
        self.estimate: Callable[[Any], Sequence[float]] | None = (
            getattr(spec, "estimate", None) or getattr(spec, "scores", None))
        self.scale: float | None = getattr(spec, "estimate_scale", None)
        self.judging = judging
        if judging and settings.analysis_scale is not None:
            self.scale = settings.analysis_scale
        self._lead = 0.0  # judging: the expert's lead at the end of the last playout
        self._lead_total = 0.0
        self._lead_count = 0
        self.iterations = 0
        self.playout_commands = 0
        self.elapsed = 0.0
        self.horizon: int | None = None  # the turn at which playouts stop
        self.deals: list[int] = []  # the seed of each deal so far
        self._deal_cache: tuple[int, Any] | None = None
        self.bot_choice = self._bot_choice()
        self.field: list[_Candidate] = []
        self.keep: frozenset[Command] = frozenset()  # never dropped from the race (``weigh``)

    def _bot_choice(self) -> Command:
        """What the game's own bot would play here (on the real view: it is the seat's own)."""
        bot = self.policy
        choice = bot.choose(self.view if self.policy_reads_view else None, self.legal,
                            random.Random(self.rng.getrandbits(32)))
        return choice if choice in self.legal else self.legal[0]

    # -- the race ------------------------------------------------------------------------------
    def run(self) -> Command:
        self.field = [_Candidate(c, self.me) for c in self._entrants()]
        if len(self.field) == 1:
            return self.field[0].command
        doubt = self.settings.doubt
        while True:
            while not self._out_of_time():
                racing = [c for c in self.field if not c.out]
                if len(racing) <= 1:
                    break
                self._round(racing)
                self._drop_losers()
            if self.cap is None or doubt <= 0 or self._late() or not self._in_doubt():
                break
            more = min(doubt, self.settings.batch * sum(1 for c in self.field if not c.out))
            self.cap += more
            doubt -= more
        self.elapsed = time.perf_counter() - self.started
        return self._decision().command

    def weigh(self, keep: Sequence[Command]) -> list[_Candidate]:
        """The race of ``run`` with ``keep`` among the entrants and never dropped, run to the
        budget (or until ``keep`` is all that is left): every entrant, with its rewards deal by
        deal, best first (those still racing first)."""
        entrants = self._entrants()
        entrants += [c for c in keep if c not in entrants]
        self.keep = frozenset(keep)
        self.field = [_Candidate(c, self.me) for c in entrants]
        while not self._out_of_time():
            racing = [c for c in self.field if not c.out]
            if len(racing) <= 1 or all(c.command in self.keep for c in racing):
                break
            self._round(racing)
            self._drop_losers()
        self.elapsed = time.perf_counter() - self.started
        return sorted(self.field, key=lambda c: (not c.out, self._mean(c)), reverse=True)

    def _round(self, racing: Sequence[_Candidate]) -> None:
        """One batch of deals, every command in ``racing`` tried on each (until the budget)."""
        for _ in range(self.settings.batch):
            deal = len(self.deals)
            self.deals.append(self.rng.getrandbits(62))
            for candidate in racing:
                if self._out_of_time():
                    return
                try:
                    reward = self.iterate(deal, candidate)
                except _OutOfTime:
                    self.iterations -= 1  # left unfinished: it counts for nothing
                    return
                candidate.rewards.append(reward)
                if self.judging:
                    candidate.margins.append(self._lead)

    def _out_of_time(self) -> bool:
        if self.cap is not None and self.iterations >= self.cap:
            return True
        return self._late()

    def _late(self) -> bool:
        """Whether the time budget has run out."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def _entrants(self) -> list[Command]:
        """The commands weighed at the root: all when few, else the bot's choice and the best of
        the rest at a glance (the game's estimate one command ahead, on one deal)."""
        limit = max(1, self.settings.candidates)
        others = [c for c in self.legal if c != self.bot_choice]
        if len(others) + 1 > limit and self.estimate is not None:
            state = self.spec.sample(self.view, random.Random(self.rng.getrandbits(32)))
            glance = {c: self._glance(state, c) for c in others}
            others.sort(key=lambda c: -glance[c])  # stable: the game's order breaks ties
        return [self.bot_choice, *others[: limit - 1]]

    def _glance(self, state: Any, command: Command) -> float:
        after = self.copy(state)
        try:
            self.spec.apply(after, self.me, command)
        except ValueError:  # a command legal lists but this deal refuses: not a candidate
            return -math.inf
        values = self.estimate(after)  # type: ignore[misc]
        return values[self.me] - max(v for s, v in enumerate(values) if s != self.me)

    def values(self, candidate: _Candidate) -> list[float]:
        """What the race compares deal by deal: the rewards, or when judging the judged values
        (the reward with the margin as a tie-break)."""
        if not self.judging:
            return candidate.rewards
        weight = self.settings.tie_break
        return [r + weight * m for r, m in zip(candidate.rewards, candidate.margins)]

    def _mean(self, candidate: _Candidate) -> float:
        values = self.values(candidate)
        return sum(values) / len(values) if values else 0.0

    def _drop_losers(self) -> None:
        settings = self.settings
        racing = [c for c in self.field if not c.out]
        leader = max(racing, key=self._mean)
        bot = self.field[0]
        if not bot.out and leader is not bot and self._no_better(leader, bot):
            leader = bot  # the leader is no real gain on the bot's choice: measure against that
        for candidate in racing:
            if candidate is leader or candidate.command in self.keep or len(candidate.rewards) < 2 * settings.batch:
                continue
            diff, error = paired(self.values(leader), self.values(candidate))
            if diff > settings.drop * error and diff > 0:
                candidate.out = True
            elif candidate is not bot and self._no_better(candidate, leader, (-diff, error)):
                # Never the bot's choice: out of the race, it could not stop a leader that is
                # ahead within the noise from being played without the ``prefer`` test.
                candidate.out = True

    def _no_better(self, candidate: _Candidate, than: _Candidate,
                   compared: tuple[float, float] | None = None) -> bool:
        """Whether ``candidate`` is clearly not better than ``than`` by the indifference (after
        four batches of deals, so that a difference some deals make has had a chance to show).
        ``compared``: their ``paired`` difference and its error when worked out already (the
        other way round, it is the negated difference with the same error, to the bit)."""
        settings = self.settings
        if min(len(candidate.rewards), len(than.rewards)) < 4 * settings.batch:
            return False
        diff, error = compared or paired(self.values(candidate), self.values(than))
        return diff + settings.drop * error < settings.indifference

    def _leader(self) -> tuple[_Candidate, bool]:
        """The command racing with the best mean (the bot's choice on a tie), and whether it is
        to be played: it is the bot's choice, the bot's choice is out of the race, or it is
        ahead of the bot's choice by ``prefer`` standard errors."""
        bot = self.field[0]
        leader = max((c for c in self.field if not c.out), key=lambda c: (c.mean, c is bot))
        if leader is bot or bot.out:
            return leader, True
        diff, error = paired(leader.rewards, bot.rewards)
        return leader, diff > self.settings.prefer * error and diff > 0

    def _in_doubt(self) -> bool:
        """Whether a command leads the bot's choice by at least one standard error, but not by
        enough to be played. (A lead under one is what noise alone gives half the time: looking
        longer at every such lead cost Capital Auction's bot half as much again, for nothing
        the analysis could tell.)"""
        leader, played = self._leader()
        if played:
            return False
        diff, error = paired(leader.rewards, self.field[0].rewards)
        return diff >= error

    def _decision(self) -> _Candidate:
        leader, played = self._leader()
        return leader if played else self.field[0]

    def stats(self) -> Stats:
        ranked = sorted(self.field, key=lambda c: (not c.out, c.mean), reverse=True)
        return Stats(self.iterations, self.elapsed, self.playout_commands,
                     tuple((c.command, len(c.rewards), c.mean) for c in ranked), self.bot_choice)

    # -- one iteration: one command on one deal -------------------------------------------------
    def _deal(self, deal: int) -> Any:
        """The determinized state of deal number ``deal`` (sampled once, copied for each
        command tried on it)."""
        if self._deal_cache is None or self._deal_cache[0] != deal:
            state = self.spec.sample(self.view, random.Random(self.deals[deal]))
            self._deal_cache = (deal, state)
            if self.horizon is None and self.settings.turns and self.estimate is not None:
                self.horizon = self.spec.turn(state) + self.settings.turns
        return self.copy(self._deal_cache[1])

    def iterate(self, deal: int, candidate: _Candidate) -> float:
        """Play ``candidate`` on deal ``deal``, down the tree and out; return the expert's reward."""
        self.iterations += 1
        spec = self.spec
        settings = self.settings
        state = self._deal(deal)
        rng = random.Random(self.deals[deal] + 1)  # the same for every command on this deal
        spec.apply(state, self.me, candidate.command)
        node = candidate.node
        path = [node]
        for _ in range(settings.tree):
            if spec.outcome(state) is not None:
                break
            nxt = self._next(state)
            if nxt is None:
                break
            seat, legal = nxt
            if seat == self.me or settings.opponents == "search":
                child, new = self._select(node, state, seat, legal, rng)
                self.apply_listed(state, seat, child.action)  # (a child in legal, or added from it)
            else:
                command = self._policy(state, seat, legal, rng)
                child = node.children.get(command)
                new = child is None
                if new:
                    child = node.children[command] = _Node(command, seat)
                self.apply_policy(state, seat, command)
            path.append(child)
            node = child
            if new:
                break
        rewards = self._play_out(state, rng)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.seat]  # type: ignore[index]
        return rewards[self.me]

    def _next(self, state: Any) -> tuple[int, list[Command]] | None:
        """The lowest awaited seat with a legal command, and its commands (None: nobody can
        move in this determinization; the playout stops and the position is judged)."""
        awaiting = self.spec.awaiting(state)
        for seat in awaiting if len(awaiting) == 1 else sorted(awaiting):  # (one, at most commands)
            legal = self.spec.legal(state, seat)  # as it comes: a long lazy list is read only as far as need be
            if legal:
                return seat, legal
        return None

    def _select(self, node: _Node, state: Any, seat: int, legal: Sequence[Command],
                rng: random.Random) -> tuple[_Node, bool]:
        """The child to go down to (UCB1 with availability), or a new one (widening)."""
        settings = self.settings
        children = node.children
        # read a lazy list once: the availability check reads it whole, and a new child asks the
        # bot (which looks its choice up in it) and then looks that up again
        legal = legal if type(legal) is list else list(iter(legal))  # (through: a lazy list may keep what it made)
        # (each command hashed once: most are not children, and the tree asks at every iteration)
        available = [child for child in map(children.get, legal) if child is not None]
        for child in available:
            child.available += 1
        room = settings.widening * (node.visits + 1) ** settings.widening_power
        if len(available) < len(legal) and (len(available) < room or not available):
            command = self._untried(state, seat, legal, children, rng)
            child = children[command] = _Node(command, seat)
            child.available = 1
            return child, True
        c = settings.exploration

        def ucb(child: _Node) -> float:
            if not child.visits:
                return math.inf
            return child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)

        return max(available, key=ucb), False

    def _untried(self, state: Any, seat: int, legal: Sequence[Command], children: dict[Command, _Node],
                 rng: random.Random) -> Command:
        """The next command to add at a node: the bot's choice first, then any other."""
        choice = self._policy(state, seat, legal, rng)
        if choice not in children and choice in legal:
            return choice
        return rng.choice([c for c in legal if c not in children])

    def _policy(self, state: Any, seat: int, legal: Sequence[Command], rng: random.Random) -> Command:
        if self.policy_plays_forced and len(legal) == 1:
            return legal[0]
        view = self.view_of(state, seat) if self.policy_reads_view else None
        return self.policy.choose(view, legal, rng)

    # -- past the tree ---------------------------------------------------------------------------
    def _play_out(self, state: Any, rng: random.Random) -> list[float]:
        spec = self.spec
        horizon = self.horizon
        for _ in range(self.settings.max_playout):
            if self._late():
                raise _OutOfTime
            if spec.outcome(state) is not None:
                break
            if horizon is not None and spec.turn(state) >= horizon:
                break
            nxt = self._next(state)
            if nxt is None:
                break
            seat, legal = nxt
            self.apply_policy(state, seat, self._policy(state, seat, legal, rng))
            self.playout_commands += 1
        outcome = spec.outcome(state)
        if self.judging:
            self._lead = self._margin(state, outcome)
        if outcome is not None:
            return _shares(outcome.winners, self.players)
        return self._judge(state)

    def _margin(self, state: Any, outcome: Any) -> float:
        """The expert's lead over its best rival, by the final scores or else the estimate, in
        units of the scale (0 when there is nothing to measure it by)."""
        if outcome is not None:
            values: Sequence[float] = outcome.scores
        elif self.estimate is not None:
            values = self.estimate(state)
        else:
            return 0.0
        lead = values[self.me] - max(v for s, v in enumerate(values) if s != self.me)
        return lead / (self.scale or max(1.0, self._lead_total / max(1, self._lead_count)))

    def _judge(self, state: Any) -> list[float]:
        """Each seat's chance of winning, from its lead over its best rival by the estimate."""
        if self.estimate is None:
            return [1.0 / self.players] * self.players
        values = list(self.estimate(state))
        # each seat's best rival is the leader, or for the leader the best of the others
        # (every playout ends here: the two maxima, not one per seat)
        top = max(values)
        first = values.index(top)
        second = max(values[:first] + values[first + 1:])
        leads = [value - (second if seat == first else top) for seat, value in enumerate(values)]
        if self.judging:
            leads[self.me] += self.settings.analysis_lead
        scale = self.scale
        if scale is None:
            self._lead_total += sum(abs(lead) for lead in leads)
            self._lead_count += len(leads)
            scale = max(1.0, self._lead_total / self._lead_count)
        return [1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -lead / scale)))) for lead in leads]


def _shares(winners: Sequence[int], players: int) -> list[float]:
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(players)]


__all__ = ["EXPERT", "ExpertBot", "Settings", "Stats", "Weighed", "paired", "settings_for", "weigh"]
