"""The expert (rules/core/search.py): fast, deterministic (iteration caps, no clock)."""

from __future__ import annotations

import random

import pytest

import rules
from rules.core import Outcome, View
from rules.core.bots import bot_levels, get_bot
from rules.core.search import EXPERT, ExpertBot
from rules.core.simulate import play_game
from game_helpers import seeded_positions
from tests.tiny_game import Pile, State, Take


class SampledPile(Pile):
    """Pile with a ``sample``: nothing is hidden but the seed, so the view tells all."""

    def sample(self, view, rng):
        return State(list(view.names), rng.getrandbits(32), pile=int(view.status.split()[1]),
                     seat=min(view.awaiting))


def capped(spec, iterations=40, **overrides):
    return ExpertBot(spec, seconds=None, iterations=iterations, **overrides)


@pytest.mark.parametrize("pile_size, winning", [(5, Take(2)), (4, Take(1))])
def test_the_expert_finds_the_winning_take(pile_size, winning):
    spec = SampledPile()
    state = spec.setup(["Ann", "Bob"], {}, 1)
    state.pile = pile_size
    view = spec.view(state, 0)
    bot = capped(spec, iterations=400)
    assert bot.choose(view, spec.legal(state, 0), random.Random(3)) == winning


class Toss:
    """Seat 0 calls a number, then a coin it cannot see decides the winner whatever it called:
    two commands that come to the same thing on every deal."""

    name, title, players, bots, best_bot = "toss", "Toss", (2, 2), {}, "random"

    def sample(self, view, rng):
        return {"coin": rng.randrange(2), "called": None}

    def awaiting(self, state):
        return frozenset() if state["called"] else frozenset({0})

    def legal(self, state, seat):
        return [Take(1), Take(2)]

    def apply(self, state, seat, command):
        state["called"] = command.n

    def outcome(self, state):
        if not state["called"]:
            return None
        winner = state["coin"]
        return Outcome(ranks=(1 + winner, 2 - winner), scores=(1 - winner, winner))


@pytest.mark.parametrize("indifference, iterations", [(0.01, 2 * 16), (0.0, 400)])
def test_a_race_between_commands_that_come_to_the_same_thing_ends_early(indifference, iterations):
    """Without the indifference the two calls, equal on every deal, race until the cap; with
    it the other call leaves after four batches of deals and the bot's choice is played."""
    spec = Toss()
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    expert = capped(spec, iterations=400, indifference=indifference)
    choice = expert.choose(view, spec.legal(None, 0), random.Random(4))
    assert expert.last.iterations == iterations
    assert choice == expert.last.bot_choice


class First:
    reads_view = False

    def choose(self, view, legal, rng):
        return legal[0]


class Nudge(Toss):
    """Seat 0 calls 1 or 2, and the position is judged. Calling 2 nudges its lead up or down,
    deal by deal: up, up, then down and up in turn. Worth no more than calling 1 in the long
    run, it is a little ahead (well within the noise) at every look of the race."""

    name, title, players, best_bot = "nudge", "Nudge", (2, 2), "first"
    bots = {"first": First()}
    estimate_scale = 1.0

    def __init__(self):
        self.deals = 0

    def sample(self, view, rng):
        self.deals += 1
        up = self.deals <= 2 or self.deals % 2 == 1
        return {"nudge": 0.08 if up else -0.08, "called": None}

    def outcome(self, state):
        return None

    def estimate(self, state):
        return (state["nudge"] if state["called"] == 2 else 0.0, 0.0)


def test_a_rival_ahead_within_the_noise_is_not_played_over_the_bots_choice():
    """The bot's choice stays in the race when it is merely no better than the leader: had it
    left, the call that is ahead by luck would be played with no test of its lead."""
    spec = Nudge()
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    expert = capped(spec, iterations=400, turns=0)
    assert expert.choose(view, spec.legal(None, 0), random.Random(1)) == Take(1)
    assert expert.last.iterations > 2 * 16  # past the first look, where it would have left


class Edge(Toss):
    """Seat 0 calls 1 or 2; a number it cannot see, drawn on the deal, decides the winner:
    calling 2 wins below 0.5, calling 1 below 0.4 (on the same deals: calling 2 is never worse,
    and better on a tenth of them). Seat 0's bot calls ``bot_calls``."""

    name, title, best_bot = "edge", "Edge", "first"

    def __init__(self, bot_calls=1):
        self.bots = {"first": First() if bot_calls == 1 else Second()}

    def sample(self, view, rng):
        return {"draw": rng.random(), "called": None}

    def outcome(self, state):
        if not state["called"]:
            return None
        winner = 0 if state["draw"] < (0.5 if state["called"] == 2 else 0.4) else 1
        return Outcome(ranks=(1 + winner, 2 - winner), scores=(1 - winner, winner))


class Second(First):
    def choose(self, view, legal, rng):
        return legal[1]


def test_where_the_bots_choice_is_in_doubt_the_race_goes_on_past_its_cap():
    """Eight deals a call cannot tell calling 2 clearly better than the bot's call, 1: at the
    cap alone the bot's choice is kept; with ``doubt`` the race goes on, a batch at a time,
    until the better call is clearly ahead (and no further)."""
    spec = Edge()
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    legal = spec.legal(None, 0)
    assert capped(spec, iterations=16).choose(view, legal, random.Random(5)) == Take(1)
    expert = capped(spec, iterations=16, doubt=400)
    assert expert.choose(view, legal, random.Random(5)) == Take(2)
    assert 16 < expert.last.iterations < 16 + 400
    assert expert.last.iterations % 8 == 0  # whole batches: both calls on every deal


@pytest.mark.parametrize("spec, choice", [
    (Edge(bot_calls=2), Take(2)),  # the bot calls the better number: nothing leads it
    (Nudge(), Take(1)),  # calling 2 leads, by less than one standard error: noise
], ids=["the bots choice leads", "a lead within the noise"])
def test_a_bots_choice_not_in_doubt_stops_the_race_at_its_cap(spec, choice):
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    expert = capped(spec, iterations=16, doubt=400, turns=0)
    assert expert.choose(view, spec.legal(None, 0), random.Random(2)) == choice
    assert expert.last.iterations == 16
    assert expert.last.choices[0][0] == Take(2)  # (calling 2 is ahead, in both)


def test_every_game_offers_the_expert():
    for name in rules.GAMES:
        spec = rules.GAMES[name]
        assert EXPERT in bot_levels(spec)
        assert isinstance(get_bot(spec, EXPERT), ExpertBot)


@pytest.mark.parametrize("name", list(rules.GAMES))
def test_a_set_position_of_every_game_gets_a_legal_repeatable_answer(name):
    spec = rules.GAMES[name]
    lo = spec.players[0]
    state = spec.setup([f"P{i}" for i in range(lo)], None, 7)
    seat = min(s for s in spec.awaiting(state) if spec.legal(state, s))
    view, legal = spec.view(state, seat), spec.legal(state, seat)
    answers = {capped(spec, 24).choose(view, legal, random.Random(5)) for _ in range(2)}
    assert len(answers) == 1 and answers <= set(legal)


class Spy:
    """A game spec that records what the expert asks of it, and refuses what it may not use."""

    def __init__(self, spec):
        self._spec = spec
        self.samples = []
        self.states = []

    def __getattr__(self, name):
        if name in ("setup", "to_json", "from_json"):
            raise AssertionError(f"the expert used {name}")
        return getattr(self._spec, name)

    def sample(self, view, rng):
        self.samples.append(view)
        state = self._spec.sample(view, rng)
        state.__dict__["_spy_sampled"] = True  # copies of it carry the mark
        return state

    def _seen(self, state):
        assert getattr(state, "_spy_sampled", False), "the expert touched a state it did not sample"

    def legal(self, state, seat):
        self._seen(state)
        return self._spec.legal(state, seat)

    def apply(self, state, seat, command):
        self._seen(state)
        return self._spec.apply(state, seat, command)

    def awaiting(self, state):
        self._seen(state)
        return self._spec.awaiting(state)

    def outcome(self, state):
        self._seen(state)
        return self._spec.outcome(state)


def test_the_expert_uses_only_its_view_and_legal_list():
    real = rules.GAMES["portfolio"]
    state = real.setup(["Ann", "Bob"], None, 11)
    seat = min(real.awaiting(state))
    view, legal = real.view(state, seat), real.legal(state, seat)
    spy = Spy(real)
    choice = capped(spy, 16).choose(view, legal, random.Random(2))
    assert choice in legal
    assert spy.samples and all(v is view for v in spy.samples)


def test_simulate_seats_expert_against_bot(monkeypatch):
    import rules.core.bots as bots

    spec = rules.GAMES["capital-auction"]
    monkeypatch.setitem(bots._EXPERTS, spec, capped(spec, 8))
    result = play_game(spec, [EXPERT, "bot"], 3)
    assert result.outcome is not None and result.moves[0] > 0


@pytest.mark.parametrize("name", [n for n in rules.GAMES if hasattr(rules.GAMES[n], "estimate")])
def test_a_games_estimate_starts_even_and_ends_at_the_final_scores(name):
    """The expert's judge of a position (a game's ``estimate``): nobody is ahead before the
    first move (but in Capital Auction, which deals Capital cards of unlike values: there the
    seat dealt more starts ahead), and a finished game is judged by its outcome's scores exactly."""
    from rules.core import chance

    spec = rules.GAMES[name]
    players = spec.players[0]
    state = spec.setup([f"P{i}" for i in range(players)], None, 11)
    if name == "capital-auction":
        dealt = [sum(card.value for card in hand) for hand in state.capital]
        assert sorted(range(players), key=spec.estimate(state).__getitem__) == sorted(range(players), key=dealt.__getitem__)
    else:
        assert len(set(spec.estimate(state))) == 1
    bots = [get_bot(spec, "bot") for _ in range(players)]
    count = 0
    while (outcome := spec.outcome(state)) is None:
        seat = min(spec.awaiting(state))
        command = bots[seat].choose(spec.view(state, seat), spec.legal(state, seat), chance(11, str(count)))
        spec.apply(state, seat, command)
        count += 1
    assert tuple(spec.estimate(state)) == tuple(float(s) for s in outcome.scores)


class FakeTime:
    """``time`` for the search, on a clock that moves only as the game below is played."""

    def __init__(self) -> None:
        self.now = 50.0

    def perf_counter(self) -> float:
        return self.now


class Countdown(Toss):
    """Seat 0 takes 1 or 2 from 60 until none are left; every command played takes 0.01 s on
    the fake clock, so one playout to the end takes about 0.6 s."""

    name, title, best_bot = "countdown", "Countdown", "first"
    bots = {"first": First()}

    def __init__(self, clock: FakeTime) -> None:
        self.clock = clock

    def sample(self, view, rng):
        return {"left": 60}

    def awaiting(self, state):
        return frozenset({0}) if state["left"] else frozenset()

    def apply(self, state, seat, command):
        self.clock.now += 0.01
        state["left"] = max(0, state["left"] - command.n)

    def outcome(self, state):
        return None if state["left"] else Outcome(ranks=(1, 2), scores=(1, 0))


def test_the_search_leaves_a_playout_unfinished_at_its_budget(monkeypatch):
    """The table waits out what is left of the budget; the search must not run past it by a
    whole playout (which would make a decision's time depend on the game)."""
    import rules.core.search as search

    clock = FakeTime()
    monkeypatch.setattr(search, "time", clock)
    spec = Countdown(clock)
    expert = ExpertBot(spec, seconds=1.0, turns=0)
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    choice = expert.choose(view, spec.legal(None, 0), random.Random(1))
    assert choice in spec.legal(None, 0)
    # the second playout, begun at about 0.6 s, stops at the budget, not at about 1.2 s
    assert 50 + 1.0 <= clock.now <= 50 + 1.0 + 0.01 + 1e-9
    assert expert.last.iterations == 1  # the unfinished one counts for nothing


def _positions(spec, seed, every=5, limit=600):
    """States of a game between the game's bots (copies), every ``every`` commands."""
    import copy

    low, high = spec.players
    positions = seeded_positions(spec, range(seed, seed + 1), limit, lambda seed: min(high, low + seed % 2),
                                 bot=spec.bots[spec.best_bot], always=True)
    for step, (state, _seat, _view, _legal) in enumerate(positions):
        if step % every == 0:
            yield copy.deepcopy(state)


def _mutable_inside_immutable(value, inside=False):
    """The first list, dict, set or mutable object found within a tuple, frozenset or frozen
    dataclass of ``value`` (None: there is none), which ``state_copy`` would share."""
    import dataclasses

    if isinstance(value, (str, int, float)) or value is None:
        return None
    params = getattr(type(value), "__dataclass_params__", None)
    frozen = isinstance(value, (tuple, frozenset)) or (params is not None and params.frozen)
    if inside and not frozen and isinstance(value, (list, dict, set)) or (
            inside and params is not None and not params.frozen):
        return value
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    elif dataclasses.is_dataclass(value):
        items = list(vars(value).values())
    else:
        return None
    return next((found for item in items
                 if (found := _mutable_inside_immutable(item, inside or frozen)) is not None), None)


@pytest.mark.parametrize("name", list(rules.GAMES))
def test_the_searchs_state_copy_is_equal_and_apart_from_the_original(name):
    """The expert copies each deal with ``state_copy`` (rules/core/copying.py), which shares
    tuples and frozen dataclasses: no game may keep something mutable inside them, and play on a
    copy must never reach the original."""
    from rules.core.copying import spec_copy

    spec = rules.GAMES[name]
    copy_state = spec_copy(spec)
    checked = 0
    for seed in range(3):
        for state in _positions(spec, seed):
            assert _mutable_inside_immutable(state) is None
            before = spec.to_json(state)
            copied = copy_state(state)
            assert copied == state and spec.to_json(copied) == before
            rng = random.Random(checked)
            for _ in range(12):  # play on the copy: the original must not move
                if spec.outcome(copied) is not None:
                    break
                seat = min(spec.awaiting(copied))
                spec.apply(copied, seat, rng.choice(spec.legal(copied, seat)))
            assert spec.to_json(state) == before
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", list(rules.GAMES))
def test_a_plain_view_is_the_view_without_the_persons_text(name):
    """The bots of the expert's playouts get ``view(state, seat, plain=True)``: the same view
    without its status sentence and scoreboard rows, which no bot reads."""
    from dataclasses import replace

    spec = rules.GAMES[name]
    checked = 0
    for seed in range(2):
        for state in _positions(spec, seed, every=3):
            for seat in range(len(state.names)):
                full = spec.view(state, seat)
                assert full.status and full.rows
                assert spec.view(state, seat, plain=True) == replace(full, status="", rows=())
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", list(rules.GAMES))
def test_a_views_quick_init_makes_the_view_its_dataclass_would(name):
    """Every game's view class has ``quick_init`` (rules/core/engine.py): an instance the same,
    field for field, as the frozen dataclass's own ``__init__`` makes, defaults and fresh
    default factories included."""
    import dataclasses

    spec = rules.GAMES[name]
    state = spec.setup(["Ann", "Bob"], None, 3)
    view = spec.view(state, 0)
    cls = type(view)
    # the same fields with the dataclass's own __init__, made again for a subclass
    plain = dataclasses.dataclass(frozen=True)(type("Plain", (cls,), {}))
    given = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    assert "update" in cls.__init__.__code__.co_names  # quick_init's, not the dataclass's one by one
    assert vars(cls(**given)) == vars(plain(**given)) == vars(view)
    bare = {"seat": 0, "names": ("Ann", "Bob"), "awaiting": frozenset({0})}
    required = {f.name: given[f.name] for f in dataclasses.fields(view)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    quick, slow = cls(**{**required, **bare}), plain(**{**required, **bare})
    assert vars(quick) == vars(slow) and quick.zones == {} and quick.zones is not cls(**{**required, **bare}).zones
    with pytest.raises(TypeError):
        cls(**{**required, "no_such_field": 1})


def test_the_tree_reads_a_lazy_legal_list_once_per_step_down_it(monkeypatch):
    """A legal list made when read (rules/core/listing.py) is read whole once where the tree
    picks a child (which children are available, then the bot's choice for a new one, looked
    up in the same commands): reading it again per question made every command again."""
    from rules.core import search
    from rules.core.listing import MadeWhenRead

    made = []

    class Lazy(SampledPile):
        def legal(self, state, seat):
            commands = super().legal(state, seat)
            return MadeWhenRead(commands, lambda command: made.append(command) or command)

    steps = []
    select = search._Search._select

    def counted(self, node, state, seat, legal, rng):
        before = len(made)
        picked = select(self, node, state, seat, legal, rng)
        steps.append(len(made) - before - len(legal))
        return picked

    monkeypatch.setattr(search._Search, "_select", counted)
    spec = Lazy()
    state = spec.setup(["Ann", "Bob"], {}, 1)
    state.pile = 9
    capped(spec, iterations=200).choose(spec.view(state, 0), spec.legal(state, 0), random.Random(3))
    assert len(steps) > 100 and max(steps) <= 0


class _Vouching:
    """Portfolio, its ``apply`` noting each command the search hands it ``listed`` (and that
    it is one the legal list of that very state holds); its bots wrapped without
    ``chooses_listed`` when ``vouch`` is False."""

    def __init__(self, vouch: bool) -> None:
        self.inner = rules.GAMES["portfolio"]
        self.bots = dict(self.inner.bots)
        if not vouch:
            self.bots = {level: _Unvouched(bot) for level, bot in self.bots.items()}
        self.applied: list[tuple[bool, bool]] = []  # (listed, in the legal list)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def apply(self, state, seat, command, listed=False):
        self.applied.append((listed, command in list(self.inner.legal(state, seat))))
        return self.inner.apply(state, seat, command, listed=listed)


class _Unvouched:
    def __init__(self, bot) -> None:
        self.choose = bot.choose


@pytest.mark.parametrize("vouch", [True, False])
def test_the_search_vouches_only_for_commands_from_the_legal_list(vouch):
    """Below its root the search has the game apply unchecked (``listed``) the commands its
    tree takes from the legal list, and its policy's only when the bot vouches for them
    (``chooses_listed``); never the root's, which come from the seat's real table, not the
    deal's. Every command it vouches for is in the legal list of the state it is applied to."""
    spec = _Vouching(vouch)
    state = spec.inner.setup(["Ann", "Bob"], None, 4)
    for _ in range(12):  # into the game, where acts beyond a discard are open
        seat = min(state.awaiting)
        spec.inner.apply(state, seat, spec.inner.bots["bot"].choose(
            spec.inner.view(state, seat), spec.inner.legal(state, seat), random.Random(1)))
    seat = min(state.awaiting)
    bot = capped(spec, iterations=60)
    bot.choose(spec.inner.view(state, seat), spec.inner.legal(state, seat), random.Random(5))
    listed = [in_legal for was_listed, in_legal in spec.applied if was_listed]
    assert listed and all(listed)
    share = len(listed) / len(spec.applied)
    assert share > 0.6 if vouch else share < 0.3  # playouts are the policy's: most commands


def test_paired_gives_the_mean_difference_over_the_shared_deals_and_its_standard_error():
    import math
    import statistics

    from rules.core.search import paired

    rng = random.Random(5)
    a = [rng.random() for _ in range(12)]
    b = [rng.random() for _ in range(9)]  # tried on fewer deals: the shared ones count
    diffs = [x - y for x, y in zip(a, b)]
    mean, error = paired(a, b)
    assert mean == pytest.approx(statistics.fmean(diffs))
    assert error == pytest.approx(statistics.stdev(diffs) / math.sqrt(len(diffs)))
    assert paired(b, a) == (-mean, error)  # the race reads it either way round, to the bit
    assert paired(a[:1], b[:1]) == (0.0, math.inf)  # one deal tells nothing of the noise


@pytest.mark.parametrize("values, leads", [
    ((5.0, 9.0, 2.0), (-4.0, 4.0, -7.0)),  # each against its best rival: the leader's is the second
    ((9.0, 9.0, 1.0), (0.0, 0.0, -8.0)),  # tied leaders each lead by nothing
    ((3.0, 1.0), (2.0, -2.0)),
])
def test_a_playout_cut_short_gives_each_seat_the_chance_its_lead_over_its_best_rival_suggests(values, leads):
    import math

    from rules.core.search import Settings, _Search

    search = object.__new__(_Search)  # the judge alone: the estimate, the scale, the seats
    search.estimate, search.scale, search.judging = (lambda state: values), 2.0, False
    search.players, search.me, search.settings = len(values), 0, Settings()
    assert search._judge(None) == pytest.approx([1 / (1 + math.exp(-lead / 2.0)) for lead in leads])
