"""Replays and results, driven by real keys: a saved game stepped forward and back, by turns,
to a turn or a move, as the public or any player saw it (secrets only in their owner's view,
the log as that seat read it), never written; every registered game replays on its own table;
the results show the chart and the final table; the saves screen and the results open replays.
The app's guard (conftest) fails any read of a game's state from cardtable/."""

from __future__ import annotations

import pytest

import rules
from cardtable.app import CardtableApp
from cardtable.store import SaveStore
from cardtable.screens.menu import MenuScreen
from cardtable.screens.replay import GoToScreen, ReplayScreen
from cardtable.screens.results import ResultsScreen
from cardtable.screens.resume import ResumeScreen, SavesList
from cardtable.settings import Settings
from cardtable.widgets.game_log import visible_lines
from cardtable.widgets.score_chart import ScoreChart
from rules.core import Match, Replay, Seat

from game_helpers import play_bot
from pilot_helpers import drawn, screen_text, settle
from store_helpers import contents, spoil_move

GAMES = sorted(rules.GAMES)
SMALL, LARGE = (80, 24), (120, 40)


@pytest.fixture
def store(tmp_path):
    return SaveStore(tmp_path / "data")


def make_app(store, **kwargs):
    return CardtableApp(store=store, settings=Settings(bot_delay=0), **kwargs)


def finished(game: str = "property", seed: int = 3, names=("Ann", "Bob")) -> Match:
    """A game played to its end by the game's bot in every seat (the seats are humans')."""
    match = Match(rules.find_game(game), [Seat(name) for name in names], seed=seed)
    while not match.over:
        play_bot(match)
    return match


def after(match: Match, moves: int) -> Match:
    """The same game played again up to ``moves`` (what the replay must show)."""
    again = Match(match.spec, match.seats, match.options, match.seed)
    for played in match.history[:moves]:
        again.submit(played.seat, played.text)
    return again


def log_of(match: Match, moves: int, viewer: int | None) -> list[str]:
    # as the log writes them: each command by its game's notation's display
    return [line for played in match.history[:moves]
            for line in visible_lines(played, match.names, viewer, match.spec.notation)]


def files(store: SaveStore) -> list[str]:
    """What the store holds (a replay writes nothing there)."""
    return contents(store.root)


def footer_key(screen, action: str):
    return next(key for key in screen.query("FooterKey") if key.action == action)


async def test_a_replay_by_keys_shows_each_position_as_the_viewer_saw_it_and_writes_nothing(store):
    match = finished("property", names=("Ann", "Bob"))
    game_id = store.create(match)
    before = files(store)
    app = make_app(store, replay=store.replay(game_id).replay)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        replay = screen.replay
        assert replay.position == 0 and screen.viewer is None
        assert footer_key(screen, "step(-1)")._disabled  # nothing before the deal
        await pilot.press(*["right"] * 6)
        assert replay.position == 6
        assert screen.view == after(match, 6).view(None) and screen.hand.cards == ()
        assert screen.game_log.plain == log_of(match, 6, None)
        assert "Move 6/" in str(screen.query_one("#status").render())
        # Ann's view: her hand, and the log as she read it (what she drew, by name)
        await pilot.press("1")
        assert screen.viewer == 0
        ann = after(match, 6).view(0)
        assert screen.view == ann and sorted(c.key for c in screen.hand.cards) == sorted(c.key for c in ann.hand) != []
        assert screen.game_log.plain == log_of(match, 6, 0) != log_of(match, 6, None)
        assert "Log as Ann read it" in screen_text(app)
        # back two moves: the log loses its last entries, as Ann read them
        await pilot.press("left", "left")
        assert replay.position == 4 and screen.game_log.plain == log_of(match, 4, 0)
        assert screen.view == after(match, 4).view(0)
        # v goes through the views: Bob's, then the public's
        await pilot.press("v")
        assert screen.viewer == 1 and screen.game_log.plain == log_of(match, 4, 1)
        await pilot.press("v")
        assert screen.viewer is None and screen.hand.cards == ()
        # by turns
        await pilot.press("right_square_bracket")
        assert replay.position == replay.next_turn(4, 1) and replay.turn == after(match, 4).turn + 1
        await pilot.press("left_square_bracket")
        assert replay.turn_at(replay.position) == after(match, 4).turn
        # to the end and back to the deal
        await pilot.press("end")
        assert replay.position == replay.moves and replay.over
        assert footer_key(screen, "step(1)")._disabled and not footer_key(screen, "step(-1)")._disabled
        assert screen.game_log.plain == log_of(match, replay.moves, None)  # the whole game
        await pilot.press("home")
        assert replay.position == 0 and screen.game_log.plain == []
        # go to a move, then a turn; a turn the game never had is refused in words
        await pilot.press("g", *"#10", "enter")
        assert replay.position == 10
        await pilot.press("g", *"999", "enter")
        assert isinstance(app.screen, GoToScreen)
        assert "This game's turns go from 1 to" in str(app.screen.query_one("#goto-error").render())
        await pilot.press("escape")
        assert app.screen is screen and replay.position == 10
        await pilot.press("g", *"3", "enter")
        assert replay.position == replay.start_of_turn(3) and replay.turn == 3
        # nothing to play here: the game's own keys are gone, the hand cannot be picked from
        assert screen.check_action("play", ()) is False and screen.check_action("command_bar", ()) is False
        assert screen.hand.disabled
        await pilot.press("q")
        assert isinstance(app.screen, MenuScreen)
    assert files(store) == before


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_replays_on_its_own_table(store, game):
    spec = rules.find_game(game)
    match = finished(game, names=["Ann", "Bob", "Cleo"][: max(2, spec.players[0])])
    from cardtable.games import table_screen_for

    app = make_app(store, replay=store.replay(store.create(match)).replay)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and isinstance(screen, table_screen_for(game))
        await pilot.press("end", *["left"] * 5, *["right"] * 3)
        position = screen.replay.moves - 2
        assert screen.replay.position == position
        for number in range(len(match.seats) + 1):  # 0: the public; then each player
            await pilot.press(str(number))
            viewer = None if number == 0 else number - 1
            assert screen.viewer == viewer and screen.view == after(match, position).view(viewer)
            assert screen.game_log.plain == log_of(match, position, viewer)
            assert len(screen.hand.cards) == len(after(match, position).view(viewer).hand)


async def test_the_results_chart_the_game_show_the_final_table_and_open_its_replay(store):
    match = finished("property", names=("Ann", "Bob", "Cleo"))
    app = make_app(store, match=match, game_id=store.create(match))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        chart = screen.query_one("#results-chart", ScoreChart)
        assert chart.series.label == "Money" and len(chart.series.values) == len(match.history) + 1
        assert chart.series.values[-1] == match.outcome.scores
        text = screen_text(app)
        assert "Money over the game" in text
        for seat, name in enumerate(match.names):  # the legend: each player's final money
            assert f"{name} {match.outcome.scores[seat]:,}" in text
        # the final table, as the public saw it
        await pilot.press("t")
        assert screen.showing_table and screen.query_one("#results-tabs").active == "final-tab"
        assert screen.viewer is None and screen.view == match.view(None)
        assert "The final table, as everyone saw it" in screen_text(app)
        await pilot.press("t")
        assert not screen.showing_table and screen.query_one("#results-chart").display
        # the replay, from the deal; back to the results where they were
        await pilot.press("r")
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.replay.position == 0
        await pilot.press("right", "q")
        assert app.screen is screen and screen.replay.position == screen.replay.moves


async def test_the_saves_screen_replays_a_game_and_says_why_it_cannot(store):
    match = finished("property")
    store.folder.mkdir(parents=True)
    store.folder.joinpath("broken.json").write_text("{ nope", encoding="utf-8")  # an earlier version's
    game_id = store.create(match)
    cut_id = store.create(finished("property", seed=4))
    spoil_move(store.root, cut_id, 4, text="play 99H 99S")
    before = files(store)
    app = make_app(store)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        saves = app.screen
        assert isinstance(saves, ResumeScreen)
        options = saves.query_one(SavesList)
        options.highlighted = options.get_option_index("broken")
        await pilot.pause()
        assert saves.check_action("replay", ()) is None  # greyed on a damaged save
        options.highlighted = options.get_option_index(game_id)
        await pilot.pause()
        await pilot.press("r")
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.moves == len(match.history)
        await pilot.press("q")
        assert app.screen is saves
        options.highlighted = options.get_option_index(cut_id)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.moves == 3
        assert any("Move 4 of this game ('play 99H 99S') no longer replays: the replay ends after move 3"
                   in str(n.message) for n in app._notifications)
    assert files(store) == before  # a replay writes nothing, repairs nothing


def hand_on_screen(app, view) -> list[str]:
    """The cards of ``view``'s hand that can be read on screen."""
    text = screen_text(app)
    return [card.symbol for card in view.hand if card.symbol in text]


@pytest.mark.parametrize("how", ["saved", "in play"])
async def test_a_game_not_over_replays_in_the_public_view_only(store, how):
    match = finished("property", names=("Ann", "Bob"))
    unfinished = after(match, 12)  # Ann and Bob still hold cards they will play
    position = 12
    if how == "saved":  # the saves screen's r and `cardtable replay ID` open it so
        app = make_app(store, replay=store.replay(store.create(unfinished)).replay)
    else:  # the results of a game replay it through Replay.of
        from rules.core import Replay

        app = make_app(store, replay=Replay.of(unfinished))
    ann = unfinished.view(0)
    assert ann.hand
    async with app.run_test(size=LARGE, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("end")
        assert screen.replay.position == position and screen.viewer is None
        for key in ("v", "1", "2"):
            app.clear_notifications()
            await pilot.press(key)
            assert hand_on_screen(app, ann) == [] and screen.hand.cards == ()
            assert screen.viewer is None and screen.view == unfinished.view(None)
            assert [str(n.message) for n in app._notifications] == [
                "The game is not over: only the public view can be replayed until it ends."]
        assert screen.game_log.plain == log_of(unfinished, position, None)
        app.clear_notifications()  # (a toast lies over the hand's note)
        await pilot.pause()
        assert "every hand is hidden until the game is over." in screen_text(app)


async def test_a_finished_game_replays_every_view(store):
    match = finished("property", names=("Ann", "Bob"))
    app = make_app(store, replay=store.replay(store.create(match)).replay)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("g", *"#12", "enter")
        assert screen.replay.position == 12
        ann = after(match, 12).view(0)
        await pilot.press("v")
        assert screen.viewer == 0 and hand_on_screen(app, ann) == [card.symbol for card in ann.hand] != []
        await pilot.press("2")
        assert screen.viewer == 1 and screen.view == after(match, 12).view(1)


async def test_the_board_takes_the_room_the_hand_leaves_when_the_view_changes(store):
    # the public view's hand is a line of text that wraps; a player's is a row of cards, laid
    # out a frame after the table fitted its board: the board was left a row short of its room
    replayed = finished("property", seed=7, names=("Ann", "Cleo", "Dan"))
    app = make_app(store, replay=Replay.of(replayed))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted)
        screen = app.screen
        await pilot.press("0", *["right"] * 12)
        await settle(pilot, lambda: screen.replay.position == 12 and drawn(screen))
        play, board = screen.query_one("#play"), screen.query_one("#board")
        await pilot.press("1")
        await settle(pilot, lambda: screen.viewer == 0 and drawn(screen))
        others = sum(child.outer_size.height for child in play.children if child is not board and child.display)
        assert board.styles.max_height.value == play.content_size.height - others
        assert board.outer_size.height == play.content_size.height - others  # (the grid fills its room)

