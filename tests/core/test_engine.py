import pytest

from rules.core import Option, Outcome, RulesError, chance, resolve_options


def test_competition_ranks_share_ties():
    assert Outcome.rank_by([10, 30, 30, 5]) == (3, 1, 1, 4)
    assert Outcome.rank_by([(10, 2), (10, 5), (10, 2)]) == (2, 1, 2)
    assert Outcome(ranks=(1, 1, 3), scores=(5, 5, 1)).winners == (0, 1)


def test_options_coerce_and_refuse_with_a_clear_message():
    options = (Option("count-property", "Count property", False),
               Option("bankruptcies", "Bankruptcies", 1, kind="int", choices=(1, 2, 3)),
               Option("bank", "Bank", "finite", kind="choice", choices=("finite", "unlimited")))
    assert resolve_options(options, None) == {"count-property": False, "bankruptcies": 1, "bank": "finite"}
    got = resolve_options(options, {"count_property": "yes", "bankruptcies": "2", "bank": "Unlimited"})
    assert got == {"count-property": True, "bankruptcies": 2, "bank": "unlimited"}
    with pytest.raises(RulesError, match="one of 1, 2, 3, not 4"):
        resolve_options(options, {"bankruptcies": 4})
    with pytest.raises(RulesError, match="unknown option 'speed'"):
        resolve_options(options, {"speed": 1})
    with pytest.raises(RulesError, match="yes or no"):
        resolve_options(options, {"count-property": "perhaps"})


def test_chance_is_a_pure_function_of_seed_and_counter():
    assert chance(7, 3).random() == chance(7, 3).random()
    assert chance(7, 3).random() != chance(7, 4).random()


def test_made_with_makes_the_instance_a_call_by_keyword_makes():
    import dataclasses

    from rules.core import quick_init
    from rules.core.engine import made_with

    @quick_init
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple = ()

    fields = {"x": 3, "y": 4, "tags": ("a",)}
    made = made_with(Point, dict(fields))
    assert made == Point(**fields) and vars(made) == vars(Point(**fields)) and type(made) is Point
    assert repr(made).endswith("Point(x=3, y=4, tags=('a',))") and hash(made) == hash(Point(**fields))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.x = 5  # type: ignore[misc]
