"""The app shell, driven like a player would: the menu, a new game, the saves list, the rules
pages, the results, the settings, and a terminal too small to play in. Every store lives in
tmp_path; the settings file goes to the temporary XDG config folder (tests/conftest.py)."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, MarkdownViewer, OptionList, Select

import rules
from cardtable.app import CardtableApp, SizeGuard
from cardtable.rulesdoc import rules_page
from cardtable.store import SaveStore
from cardtable.screens.confirm import ConfirmScreen
from cardtable.screens.menu import MenuScreen
from cardtable.screens.results import ResultsScreen
from cardtable.screens.resume import ResumeScreen, SavesList
from cardtable.screens.rules import RulesScreen
from cardtable.screens.settings import SettingsScreen
from cardtable.screens.setup import SeatRow, SetupScreen, kind_label
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings, load_settings, read_settings, save_settings, settings_path
from rules.core import Match, Seat

from pilot_helpers import screen_text, settle
from store_helpers import legacy_save

SIZE = (80, 24)


@pytest.fixture
def store(tmp_path):
    return SaveStore(tmp_path / "data")


def make_app(store, **kwargs):
    return CardtableApp(store=store, settings=Settings(bot_delay=0), **kwargs)


def played_out(game: str, seed: int = 3, names=("Ann", "Bob")) -> Match:
    """A finished game between random bots."""
    match = Match(rules.find_game(game), [Seat(name, "random") for name in names], seed=seed)
    while not match.over:
        match.submit(min(match.awaiting), match.bot_move(min(match.awaiting)))
    return match


def in_play(game: str = "property", seed: int = 1) -> Match:
    return Match(rules.find_game(game), [Seat("Ann"), Seat("Bob", "random")], seed=seed)


def toasts(app) -> str:
    """The text of every notification on screen."""
    return "\n".join(str(n.message) for n in app._notifications)


# -- the menu and a new game ----------------------------------------------------------------------
async def test_new_game_by_keys_and_clicks_starts_a_saved_table(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        # the game list has focus: arrow down to Property, Enter goes on to the seats
        names = list(rules.GAMES)
        for _ in range(names.index("property") - names.index(setup.game_name)):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert setup.game_name == "property"
        assert isinstance(app.focused, Input) and app.focused.value == "Ann"
        # three players, chosen with the mouse and the arrow keys
        await pilot.click("#setup-count")
        await pilot.press("down", "enter")
        await pilot.pause()
        rows = list(setup.query(SeatRow))
        assert [row.seat for row in rows] == [Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "bot")]
        # the third seat becomes a random bot (past the greedy one)
        await pilot.click(rows[2].query_one(Select))
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        await pilot.click("#setup-start")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen_stack[:-1] == [app.screen_stack[0]]  # the table sits on the menu
        [info] = store.list()
        assert info.game == "property"
        assert info.seats == (Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "random"))
        assert app.screen.game_id == info.id


@pytest.mark.parametrize("entry, screen", [
    ("new_game", SetupScreen), ("resume", ResumeScreen), ("stats", "StatsScreen"), ("rules", RulesScreen),
    ("settings", SettingsScreen), ("join", "JoinScreen")])
async def test_enter_on_a_menu_entry_opens_it(store, entry, screen):
    # the menu's handler ran the entry's action without awaiting it: Enter (or a click) on an
    # entry did nothing but warn "coroutine 'Widget.run_action' was never awaited" (the monkey)
    from cardtable.screens.menu import ENTRIES

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * list(ENTRIES).index(entry), "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == (screen if isinstance(screen, str) else screen.__name__)


async def choose_kind(pilot, row: SeatRow, label: str) -> None:
    """Pick ``label`` in the seat row's kind list, by keys."""
    select = row.query_one(Select)
    await pilot.click(select)
    labels = [prompt for prompt, _value in select._options]
    current = next(index for index, (_p, value) in enumerate(select._options) if value == select.value)
    target = labels.index(label)
    await pilot.press(*(["down"] * (target - current) if target > current else ["up"] * (current - target)), "enter")
    await pilot.pause()


@pytest.mark.parametrize("here", [True, False])
async def test_a_seat_at_another_screen_gets_its_join_code_when_the_game_starts(store, here):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        setup = app.screen
        rows = list(setup.query(SeatRow))
        await choose_kind(pilot, rows[1], "Human at another screen")
        if not here:  # nobody at this screen: the first seat is a bot
            await choose_kind(pilot, rows[0], "Bot")
        assert rows[1].seat == Seat("Bob") and rows[1].remote
        await pilot.press("ctrl+s")
        await pilot.pause()
        [info] = store.list()
        codes = store.codes(info.id)
        assert set(codes) == {1, None}  # Bob's seat and the spectators'
        assert info.players.endswith("Bob (at another screen)")  # as the saves list names him
        # the codes are shown first, names as typed
        text = screen_text(app)
        assert f"Bob: {codes[1]}" in text and f"Spectators: {codes[None]}" in text
        assert store.join(codes[1]).seat == 1
        await pilot.press("escape")
        await pilot.pause()
        tables = [screen for screen in app.screen_stack if isinstance(screen, TableScreen)]
        if here:  # Ann plays here (her first decision may open over it); Bob never does
            assert [table.elsewhere for table in tables] == [(1,)]
        else:
            assert tables == [] and isinstance(app.screen, MenuScreen)


def test_the_seat_list_names_each_games_expert_with_its_own_time_a_move():
    abundance, property_ = rules.find_game("abundance"), rules.find_game("property")
    assert kind_label(abundance, "expert") == "Bot: expert (searches ~0.2 s a move)"
    assert kind_label(property_, "expert") == "Bot: expert (searches ~0.4 s a move)"
    assert kind_label(property_, "random") == "Bot: random (plays any legal move)"
    assert kind_label(property_, "bot") == "Bot" and kind_label(property_, "greedy") == "Bot: greedy"


async def at_an_empty_second_name(pilot) -> tuple[SetupScreen, Input]:
    """The new-game screen, its second player's name emptied and clicked into."""
    await pilot.press("n")
    setup = pilot.app.screen
    second = list(setup.query(SeatRow))[1].query_one(Input)
    second.value = ""
    await pilot.click(second)
    return setup, second


async def test_a_name_typed_and_ctrl_s_in_one_read_start_the_game_with_the_whole_name(store):
    # keys typed fast (or over a slow connection) come in one read: ctrl+s was a priority
    # binding and started the game before the last letters reached the name's field
    from monkey_helpers import in_one_read

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        setup, second = await at_an_empty_second_name(pilot)
        in_one_read(app, [*"Zed", "ctrl+s"])
        await settle(pilot, lambda: store.list())
        [info] = store.list()
        assert "Zed" in info.players and second.value == "Zed"


async def test_bad_setup_shows_the_rules_message_and_keeps_the_form(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        setup, second = await at_an_empty_second_name(pilot)
        await pilot.press(*"ann")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup
        error = setup.query_one("#setup-error")
        assert error.display and "name of their own" in str(error.render())
        assert second.value == "ann"  # nothing typed is lost
        assert store.list() == []
        # a seed that is not a number is refused by the field itself
        seed = setup.query_one("#setup-seed", Input)
        await pilot.click(seed)
        await pilot.press(*"4x2")
        assert seed.value == "42"


async def test_escape_leaves_setup_for_the_menu(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "escape")
        assert isinstance(app.screen, MenuScreen)


# -- the saves list ---------------------------------------------------------------------------
async def test_resume_lists_saves_and_a_finished_game_opens_its_results(store):
    finished = played_out("portfolio")
    finished_id = store.create(finished)
    playing_id = store.create(in_play())
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        await pilot.pause()  # the saves are counted just after the first paint
        assert "2 saved games" in str(menu.query_one(OptionList).get_option("resume").prompt)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        saves = screen.query_one(SavesList)
        prompts = {option.id: str(option.prompt) for option in saves.options}
        assert set(prompts) == {finished_id, playing_id}
        winner = finished.names[finished.outcome.winners[0]]
        assert f"finished — {winner} won" in prompts[finished_id]
        assert "to play" in prompts[playing_id] and "Bob (bot: random)" in prompts[playing_id]
        saves.highlighted = saves.get_option_index(finished_id)
        await pilot.press("enter")
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("escape")
        saves.highlighted = saves.get_option_index(playing_id)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game_id == playing_id


async def test_an_app_without_a_store_opens_its_data_folders_once_the_menu_is_up(tmp_path, monkeypatch):
    SaveStore(tmp_path / "data").create(in_play())
    at_mount = []
    mount = CardtableApp.on_mount

    def watched(app) -> None:
        mount(app)
        at_mount.append(app._store)

    monkeypatch.setattr(CardtableApp, "on_mount", watched)
    app = CardtableApp(settings=Settings(bot_delay=0), data_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()  # the saves are counted just after the first paint
        assert at_mount == [None]  # nothing of the store (SQLite and all) before the menu
        assert "1 saved game" in str(app.screen.query_one(OptionList).get_option("resume").prompt)
        assert app.store.root == tmp_path / "data"


async def test_a_corrupt_save_of_an_earlier_version_is_listed_as_damaged_and_left_as_it_was(store):
    legacy_save(store.root, in_play(seed=1), "good")
    path = legacy_save(store.root, in_play(seed=2), "bad")
    path.write_text(path.read_text()[:-40])  # torn
    text = path.read_text()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        saves = app.screen.query_one(SavesList)
        prompts = {option.id: str(option.prompt) for option in saves.options}
        assert "damaged" in prompts["bad"] and "saves/bad.json: not a cardtable save (broken JSON" in prompts["bad"]
        saves.highlighted = saves.get_option_index("bad")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        assert "Cannot open saves/bad.json" in toasts(app) and "broken JSON" in toasts(app)
        assert {option.id for option in saves.options} == {"good", "bad"}
    assert path.read_text() == text


async def test_unreadable_files_are_reported_on_the_menu_once(store):
    store.folder.mkdir(parents=True)
    (store.folder / "scribble.json").write_text("{not json")  # left by an earlier version
    store.create(in_play())
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()  # the saves are read just after the first paint
        assert "scribble.json" in toasts(app)
        prompt = str(app.screen.query_one(OptionList).get_option("resume").prompt)
        assert "1 saved game, 1 damaged" in prompt
        app.clear_notifications()
        await pilot.press("r", "escape")  # back on the menu: not said again
        await pilot.pause()
        assert "scribble.json" not in toasts(app)
        assert (store.folder / "scribble.json").exists()


async def test_delete_asks_first_with_no_as_the_default(store):
    game_id = store.create(in_play())
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "d")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.focused.id == "confirm-no"
        await pilot.press("enter")  # the default: keep it
        await pilot.pause()
        assert [info.id for info in store.list()] == [game_id]
        await pilot.press("d")
        await pilot.press("n")
        assert [info.id for info in store.list()] == [game_id]
        await pilot.press("d")
        await pilot.press("y")
        await pilot.pause()
        assert store.list() == []
        assert [info.id for info in store.trash()] == [game_id]
        assert isinstance(app.screen, ResumeScreen)
        assert not app.screen.query_one(SavesList).display


# -- rules, results ---------------------------------------------------------------------------
async def test_rules_screen_shows_the_games_page(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        assert isinstance(app.screen, RulesScreen) and app.screen.game_name is None
        games = app.screen.query_one(OptionList)
        games.highlighted = games.get_option_index("property")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen) and screen.game_name == "property"
        viewer = screen.query_one(MarkdownViewer)
        assert viewer.document.source == rules_page("property")
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, MenuScreen)


def test_rules_page_reads_the_seed_file_or_says_it_is_missing(tmp_path, monkeypatch):
    (tmp_path / "property.md").write_text("# Property\n\nOur own words.\n", encoding="utf-8")
    monkeypatch.setattr("cardtable.rulesdoc.seed_folders", lambda: (tmp_path / "none", tmp_path))
    assert rules_page("property") == "# Property\n\nOur own words.\n"
    missing = rules_page("portfolio")
    assert missing.startswith("# Portfolio") and "missing" in missing
    assert "missing" in rules_page("../../etc/passwd")


async def test_results_show_the_winner_and_the_score_sheet(store):
    match = played_out("property", names=("Ann", "Bob", "Cleo"))
    app = make_app(store, match=match, game_id=store.create(match))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        outcome = match.outcome
        winners = [match.names[seat] for seat in outcome.winners]
        assert winners[0] in str(screen.query_one("#results-winners").render())
        sheet = screen.query_one("#results-scores")
        first_column = sheet.ordered_columns[1].label.plain
        assert first_column.startswith(winners[0])
        # the last line carries the score: Property's breakdown ends with it ("Worth"), so no
        # separate "Score" line repeats it
        labels = [str(sheet.get_row_at(row)[0]) for row in range(sheet.row_count)]
        assert labels[-1] == "Worth" and "Score" not in labels
        assert sheet.get_row_at(sheet.row_count - 1)[1] == str(max(outcome.scores))
        await pilot.press("n")
        assert isinstance(app.screen, SetupScreen)  # a rematch: same game, same players
        assert [row.seat.name for row in app.screen.query(SeatRow)] == list(match.names)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


# -- settings ---------------------------------------------------------------------------------
async def test_settings_screen_and_palette_persist_at_once(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#settings-theme", Select).value = "nord"
        box = app.screen.query_one("#settings-four-colour")
        assert str(box.render()).startswith("[ ] ")  # off and on differ in shape, not only colour
        await pilot.click("#settings-four-colour")
        await pilot.pause()
        assert str(box.render()).startswith("[✔] ") and "✔" in screen_text(app)
        saved = json.loads(settings_path().read_text())
        assert saved["theme"] == "nord" and saved["four_colour"] is True
        assert app.theme == "nord"
        # the command palette's bot speed command
        await pilot.press("escape", "ctrl+p")
        await pilot.press(*"bot speed: slow")
        await app.workers.wait_for_complete()  # the palette searches in a worker
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert load_settings() == Settings(theme="nord", bot_delay=1.2, four_colour=True)


async def test_palette_commands_know_the_game_on_the_table(store):
    match = in_play("portfolio")
    app = make_app(store, match=match, game_id=store.create(match))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = next(screen for screen in app.screen_stack if isinstance(screen, TableScreen))
        commands = {command.title: command.callback for command in app.get_system_commands(table)}
        assert {"Bot speed: fast", "Bot speed: normal", "Bot speed: slow", "Theme"} <= set(commands)
        commands["Four-colour deck: on"]()
        assert load_settings().four_colour and table.settings.four_colour  # the table's too
        commands["Rules"]()
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game_name == "portfolio"


async def test_a_saved_theme_is_applied_and_a_bad_settings_file_is_survived(store):
    save_settings(Settings(theme="gruvbox"))
    app = CardtableApp(store=store)
    async with app.run_test(size=SIZE):
        assert app.theme == "gruvbox"
    settings_path().write_text('{"theme": "no-such-theme", "bot_delay": "fast"}')
    app = CardtableApp(store=store)
    async with app.run_test(size=SIZE):
        assert app.theme == "textual-dark"
        assert app.settings.bot_delay == Settings().bot_delay
        assert "no-such-theme" in toasts(app) and "bot_delay" in toasts(app)


def test_settings_file_problems_give_defaults_in_words(tmp_path):
    path = tmp_path / "settings.json"
    for text in ("{broken", "[1, 2]", "\xff"):
        path.write_bytes(text.encode("latin-1"))
        settings, problems = read_settings(path)
        assert settings == Settings() and len(problems) == 1
    path.write_text('{"four_colour": true, "bot_delay": -1, "from_the_future": 1}')
    settings, problems = read_settings(path)
    assert settings == Settings(four_colour=True)
    assert len(problems) == 1 and "bot_delay" in problems[0]
    save_settings(Settings(theme="nord", bot_delay=0.2), path)
    assert read_settings(path) == (Settings(theme="nord", bot_delay=0.2), [])
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temporary file left


def test_config_dir_can_be_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", str(tmp_path / "elsewhere"))
    save_settings(Settings(four_colour=True))
    assert (tmp_path / "elsewhere" / "settings.json").is_file()
    assert load_settings().four_colour is True


# -- a terminal too small -----------------------------------------------------------------------
async def until(pilot, condition, tries: int = 200) -> bool:
    """Let the app run until ``condition()`` holds (the bots move between pauses)."""
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause()
    return condition()


async def test_a_tiny_terminal_says_so_and_the_game_goes_on(store):
    match = in_play()
    app = make_app(store, match=match, game_id=store.create(match))
    async with app.run_test(size=(60, 20)) as pilot:
        assert await until(pilot, lambda: match.awaiting == {0})
        table = app.screen
        assert isinstance(table, TableScreen)
        guard = table.query_one(SizeGuard)
        assert "at least 80×24" in str(guard.render())
        assert guard.display and all(not child.display for child in table.children if child is not guard)
        # the game goes on under the message: Ann moves, the bot answers, all is saved
        played = len(match.history)
        assert table.submit(match.legal(min(match.awaiting))[0])
        assert await until(pilot, lambda: match.awaiting == {0} and len(match.history) >= played + 2)
        assert store.list()[0].turn == match.turn
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.screen is table and not guard.display
        assert table.query_one("#hand").display


def test_every_game_has_its_rules_page_and_card_stock_market_is_named_for_the_game():
    from cardtable.rulesdoc import page_name
    import rules
    for name in rules.GAMES:
        assert "missing from this installation" not in rules_page(name), name
    assert page_name("stock-market") == "card-stock-market"
    assert rules_page("stock-market").startswith("# Card Stock Market")


async def test_a_name_tab_and_more_keys_in_one_read_leave_the_name_as_typed(store):
    # Tab moves the focus when it comes back up to the app's bindings: the keys behind it in
    # one read had gone on to the name's field already ("Zed42")
    from monkey_helpers import in_one_read, quiet

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        setup, second = await at_an_empty_second_name(pilot)
        in_one_read(app, [*"Zed", "tab", *"42"])
        await settle(pilot, lambda: quiet(app) and app.focused is not second)  # every key handled
        assert second.value == "Zed"
