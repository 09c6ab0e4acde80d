"""The analysis's chances are calibrated on its own output (tests/fit_scale.py): the record of
a game's analysis gives back the chances the analysis reported, the fit finds the scale that
made the results, and each game's fitted scale rates a decided position as decided."""

from __future__ import annotations

import math
import random

import pytest

import rules
from fit_scale import chance, fit, fit_with_lead, log_loss, record, spread
from rules.core import View
from rules.core.search import ExpertBot, settings_for, weigh
from tests.test_search import Nudge


def test_the_record_of_an_analysis_gives_back_its_chances_at_the_games_scale():
    """What fit_scale fits is the analysis's own chance: recomputed from the recorded playouts
    at the game's scale, it is the chance the analysis reported, decision by decision."""
    found = record(("property", 5001, 12, 1, 3))
    assert len(found) == 3
    scale = settings_for(rules.GAMES["property"]).analysis_scale
    assert any(not ended for _won, playouts, _c in found for ended, _v in playouts)  # the scale counts
    for won, playouts, reported in found:
        assert won in (0.0, 0.5, 1.0) and playouts
        assert 100 * chance(playouts, scale) == pytest.approx(reported, abs=1e-6)
        # another scale gives another chance (unless every playout ended)
        if not all(ended for ended, _v in playouts):
            assert 100 * chance(playouts, 2 * scale) != pytest.approx(reported, abs=1e-3)


def test_the_fit_finds_the_scale_that_made_the_results():
    """Decisions whose deals lead by random amounts, each won with the analysis's chance at
    scale 3 (a third of the playouts ended, won or lost as likely as that chance): the fitted
    scale is near 3, and its log loss below that of a scale three times off either way."""
    rng = random.Random(7)
    points = []
    for _ in range(3000):
        centre = rng.gauss(0, 6)
        playouts = [(False, rng.gauss(centre, 3)) for _ in range(8)]
        p = chance(playouts, 3.0)
        playouts += [(True, float(rng.random() < p)) for _ in range(4)]
        points.append((float(rng.random() < p), playouts))
    scale = fit(points, around=50.0)
    assert scale == pytest.approx(3.0, rel=0.2)
    assert log_loss(points, scale) < min(log_loss(points, 1.0), log_loss(points, 9.0))


def test_playouts_that_all_ended_have_the_same_chance_at_any_scale():
    playouts = [(True, 1.0), (True, 0.0), (True, 1.0), (True, 0.5)]
    assert chance(playouts, 0.1) == chance(playouts, 1000.0) == 0.625


def test_a_long_game_is_sampled_as_thinly_as_a_short_one():
    assert spread(list(range(100)), seed=0, stride=3) == list(range(0, 100, 3))
    assert spread(list(range(100)), seed=1, stride=1, count=4) == [1, 26, 51, 76]
    assert spread(list(range(10)), seed=7, stride=1, count=4) == [1, 3, 5, 7]
    assert spread(list(range(3)), seed=5, stride=1, count=4) == [0, 1, 2]


def test_the_analysis_lead_moves_the_judged_seats_chance_and_not_the_experts():
    """A position judged before the end, the seat ahead by 1: with an ``analysis_lead`` of 1 the
    analysis rates it as ahead by 2, at its scale; the expert's own race ignores the lead."""

    class Ahead(Nudge):
        def sample(self, view, rng):
            return {"nudge": 1.0, "called": None}

    spec = Ahead()
    view = View(0, ("Ann", "Bob"), frozenset({0}))
    legal = spec.legal(None, 0)
    for lead in (0.0, 1.0):
        settings = settings_for(spec, seconds=None, iterations=8, turns=0, analysis_scale=2.0, analysis_lead=lead)
        weighed = weigh(spec, view, legal, legal[:1], random.Random(3), settings)
        called_two = next(w for w in weighed if w.command == legal[1])
        assert called_two.mean == pytest.approx(1 / (1 + math.exp(-(1.0 + lead) / 2.0)))
        # the margin (the tie-break) stays the lead itself
        assert set(called_two.margins) == {0.5}
    expert = ExpertBot(spec, seconds=None, iterations=8, turns=0, analysis_scale=2.0, analysis_lead=1.0)
    expert.choose(view, legal, random.Random(3))
    means = {command: mean for command, _deals, mean in expert.last.choices}
    assert means[legal[1]] == pytest.approx(1 / (1 + math.exp(-1.0 / spec.estimate_scale)))


def test_the_fit_finds_the_lead_with_the_scale():
    """Results made at scale 3 with a lead of 2 for the judged seat: fitting both finds them."""
    rng = random.Random(8)
    points = []
    for _ in range(800):
        playouts = [(False, rng.gauss(rng.gauss(0, 6), 3)) for _ in range(4)]
        points.append((float(rng.random() < chance(playouts, 3.0, 2.0)), playouts))
    scale, lead = fit_with_lead(points, around=5.0)
    assert scale == pytest.approx(3.0, rel=0.2) and lead == pytest.approx(2.0, abs=0.6)
    assert log_loss(points, scale, lead) < log_loss(points, fit(points, 5.0))
