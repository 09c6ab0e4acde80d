"""The `cardtable` command, run in-process: saves, simulate, new and resume (with the app
launch replaced by a recorder, so no terminal is needed), the error lines and exit codes."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys

import pytest

import rules
from cardtable import __version__
from cardtable import launch as launching
from cardtable.cli import main
from cardtable.commands import parse_players
from cardtable.store import SaveStore
from cardtable.store import games as store_games
from rules.core import Match, RulesError, Seat

from store_helpers import legacy_save, spoil_move, stored_moves

GAMES = sorted(rules.GAMES)
# the game most tests play: a quick one whose first seat (the human) is the first to act
FIRST = "property"
needs_game = pytest.mark.skipif(not GAMES, reason="no game is registered yet")


def first_spec():
    return rules.find_game(FIRST)


def players_text(spec, count=None) -> str:
    """Ann (human), then a best-level bot and random bots up to ``count`` (default: the fewest)."""
    count = count or spec.players[0]
    return ",".join(["Ann", "bot:Cleo", "random:Dan", "bot-random:Eve", "Fay", "Gus", "Hal"][:count])


def a_match(spec, seed=5) -> Match:
    seats = [Seat("Ann")] + [Seat(f"Bot {i}", spec.best_bot) for i in range(1, spec.players[0])]
    return Match(spec, seats, seed=seed)


@pytest.fixture
def data(tmp_path):
    return tmp_path / "data-dir"


@pytest.fixture
def launched(monkeypatch):
    """Replace the Textual app by a recorder of what it was asked to open."""
    calls = []

    def launch(store, match=None, game_id=None, notice=None, data_dir=None):
        calls.append({"store": store, "match": match, "game_id": game_id, "notice": notice, "data_dir": data_dir})
        return 0

    monkeypatch.setattr(launching, "launch_app", launch)
    return calls


@pytest.fixture
def clock(monkeypatch):
    stamps = iter(f"2026-11-22T14:{minute:02d}:00+00:00" for minute in range(60))
    monkeypatch.setattr(store_games, "_now", lambda: next(stamps))


def one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("cardtable: ")
    return lines[0]


# -- version and help ------------------------------------------------------------------------
def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"cardtable {__version__}\n"
    assert __version__ == "0.1.0"


def test_python_m_cardtable_version():
    done = subprocess.run([sys.executable, "-m", "cardtable", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "cardtable 0.1.0"


def test_help_documents_the_seat_syntax_and_the_games(capsys):
    assert main(["new", "--help"]) == 0
    out = capsys.readouterr().out
    for text in ("bot:Cleo", "random:Dan", "bot-random:Dan", *GAMES):
        assert text in out


# -- new -------------------------------------------------------------------------------------
@needs_game
def test_new_saves_the_game_and_opens_its_table(data, launched):
    spec = first_spec()
    argv = ["new", spec.name, "--players", players_text(spec, spec.players[1]), "--seed", "7",
            "--data-dir", str(data)]
    if spec.options:
        option = spec.options[0]
        value = option.choices[-1] if option.choices else (not option.default if option.kind == "bool" else option.default)
        argv += ["--option", f"{option.key}={value}"]
    assert main(argv) == 0

    [call] = launched
    match, game_id = call["match"], call["game_id"]
    assert call["store"].root == data
    assert match.seed == 7
    assert match.seats[:4] == (Seat("Ann"), Seat("Cleo", spec.best_bot), Seat("Dan", "random"),
                               Seat("Eve", "random"))[: spec.players[1]]
    if spec.options:
        assert match.options[option.key] == option.coerce(value)
    saved = SaveStore(data).load(game_id)
    assert spec.to_json(saved.state) == spec.to_json(match.state)
    assert [info.id for info in SaveStore(data).list()] == [game_id]


@pytest.mark.parametrize("players, flag, expected", [
    ("Ann,bot:Cleo", [], True),  # one person: hints on, as at the new-game screen
    ("Ann,Bob", [], False),  # several people: off
    ("Ann,Bob", ["--hints"], True),
    ("Ann,bot:Cleo", ["--no-hints"], False),
])
def test_new_sets_the_games_hints_as_the_new_game_screen_would(data, launched, players, flag, expected):
    assert main(["new", "property", "--players", players, "--seed", "1", "--data-dir", str(data), *flag]) == 0
    [call] = launched
    assert SaveStore(data).hints(call["game_id"]) is expected


def test_menu_opens_without_a_match(data, launched):
    assert main(["--data-dir", str(data)]) == 0
    # the app opens the store once the menu is on the screen
    assert launched == [{"store": None, "match": None, "game_id": None, "notice": None, "data_dir": data}]


@needs_game
def test_player_syntax():
    spec = first_spec()
    assert parse_players(spec, "Ann, bot:Cleo ,random:Dan,bot-random:Eve,Bot-Random:Fay") == [
        Seat("Ann"), Seat("Cleo", spec.best_bot), Seat("Dan", "random"), Seat("Eve", "random"),
        Seat("Fay", "random"),
    ]
    with pytest.raises(RulesError, match="unknown bot level 'robot'"):
        parse_players(spec, "Ann,robot:Cleo")


# -- resume ----------------------------------------------------------------------------------
@needs_game
def test_resume_opens_the_most_recent_unfinished_game(data, launched, clock):
    store = SaveStore(data)
    spec = first_spec()
    older = store.create(a_match(spec, 1))
    newer = store.create(a_match(spec, 2))
    assert main(["resume", "--data-dir", str(data)]) == 0
    assert launched[-1]["game_id"] == newer
    assert launched[-1]["match"].seed == 2

    assert main(["resume", older, "--data-dir", str(data)]) == 0
    assert launched[-1]["game_id"] == older
    assert launched[-1]["match"].seed == 1


@needs_game
def test_resume_accepts_the_unique_start_of_an_id(data, launched, monkeypatch, capsys):
    store = SaveStore(data)
    tails = iter(["aaaa", "bbbb"])
    monkeypatch.setattr(store_games.secrets, "token_hex", lambda n: next(tails))
    first, second = store.create(a_match(first_spec(), 1)), store.create(a_match(first_spec(), 2))
    assert main(["--data-dir", str(data), "resume", second[:-2]]) == 0
    assert launched[-1]["game_id"] == second
    common = first[:-4]
    if second.startswith(common):  # both made within the same second
        assert main(["--data-dir", str(data), "resume", common]) == 2
        assert "could be any of" in one_error_line(capsys)


def test_resume_with_nothing_saved(data, launched, capsys):
    assert main(["resume", "--data-dir", str(data)]) == 1
    assert "no unfinished game to resume" in one_error_line(capsys)
    assert launched == []


def test_resume_of_an_unknown_id(data, launched, capsys):
    assert main(["resume", "nope", "--data-dir", str(data)]) == 1
    assert one_error_line(capsys) == "cardtable: no saved game 'nope'"
    assert launched == []


def test_resume_of_a_save_of_an_earlier_version_that_could_not_be_brought_in(data, launched, capsys):
    (data / "saves").mkdir(parents=True)
    (data / "saves" / "torn.json").write_text("{", encoding="utf-8")
    assert main(["saves", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert "damaged — not a cardtable save (broken JSON at line 1)" in out
    assert "could not be read: the saves list says why" in err  # said once, when they were brought in
    assert main(["resume", "torn", "--data-dir", str(data)]) == 1
    assert one_error_line(capsys) == ("cardtable: Cannot open saves/torn.json: not a cardtable save (broken JSON at "
                                      "line 1) (the file is left as it was)")
    assert launched == [] and (data / "saves" / "torn.json").read_text() == "{"


# -- saves -----------------------------------------------------------------------------------
@needs_game
def test_saves_lists_games_and_damaged_files_and_moves_nothing(data, capsys):
    spec = first_spec()
    store = SaveStore(data)
    store.folder.mkdir(parents=True)
    (store.folder / "junk.json").write_text("[]", encoding="utf-8")  # left by an earlier version
    game_id = store.create(a_match(spec))

    assert main(["saves", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    [header, *rows] = out.splitlines()
    assert header.split()[:3] == ["ID", "GAME", "PLAYERS"]
    [row] = [row for row in rows if row.startswith(game_id)]
    assert spec.title in row and "Ann to play" in row
    assert "Bot 1 (bot)" in row and "(bot: " not in row
    info = next(info for info in store.list() if info.id == game_id)
    assert info.updated.astimezone().strftime("%Y-%m-%d %H:%M") in row
    [junk] = [row for row in rows if row.startswith("junk")]
    assert junk.endswith("damaged — not a cardtable save (not a JSON object)")
    assert (store.folder / "junk.json").read_text() == "[]" and [p.name for p in store.folder.iterdir()] == ["junk.json"]


@needs_game
def test_saves_names_other_bot_levels_and_whose_turn_it_is(data, capsys):
    spec = first_spec()
    store = SaveStore(data)
    match = Match(spec, [Seat("Ann", spec.best_bot), Seat("Dan", "random")], seed=2)
    while 1 not in match.awaiting:
        match.submit(min(match.awaiting), match.bot_move(min(match.awaiting)))
    store.create(match)
    assert main(["saves", "--data-dir", str(data)]) == 0
    [_, row] = capsys.readouterr().out.splitlines()
    assert "Ann (bot), Dan (bot: random)" in row and row.endswith("Dan to play")


def test_saves_of_an_empty_store(data, capsys):
    assert main(["saves", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("No saved games") and err == ""


@needs_game
@pytest.mark.parametrize("where", ["before", "after", "env"])
def test_data_dir_before_or_after_the_command_or_from_the_environment(data, where, monkeypatch, capsys):
    game_id = SaveStore(data).create(a_match(first_spec()))
    argv = {"before": ["--data-dir", str(data), "saves"], "after": ["saves", "--data-dir", str(data)],
            "env": ["saves"]}[where]
    if where == "env":
        monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data))
    assert main(argv) == 0
    assert game_id in capsys.readouterr().out


@needs_game
def test_data_dir_flag_wins_over_the_environment(data, tmp_path, monkeypatch, capsys):
    SaveStore(data).create(a_match(first_spec()))
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data))
    assert main(["saves", "--data-dir", str(tmp_path / "elsewhere")]) == 0
    assert capsys.readouterr().out.startswith("No saved games")


NOBODY = "cardtable-no-such-user"
NOBODYS_HOME = f"~{NOBODY}/games"  # Path.expanduser raises RuntimeError on it


def unknown_home(source: str) -> str:
    return (f"cardtable: {source} '{NOBODYS_HOME}' cannot be used: there is no user '{NOBODY}' on "
            f"this computer, so '~{NOBODY}' names no home folder")


@needs_game
@pytest.mark.parametrize("argv, env", [
    (["--data-dir", NOBODYS_HOME, "saves"], None),
    (["saves", "--data-dir", NOBODYS_HOME], None),
    (["new", FIRST, "--players", "Ann,bot:Cleo", "--data-dir", NOBODYS_HOME], None),
    (["saves"], "CARDTABLE_DATA_DIR"),
    (["new", FIRST, "--players", "Ann,bot:Cleo"], "CARDTABLE_DATA_DIR"),
])
def test_a_data_dir_in_the_home_of_an_unknown_user_is_a_usage_error(argv, env, monkeypatch, launched, capsys):
    if env:
        monkeypatch.setenv(env, NOBODYS_HOME)
    assert main(argv) == 2
    assert one_error_line(capsys) == unknown_home(env or "--data-dir")
    assert launched == []


@needs_game
def test_a_config_dir_in_the_home_of_an_unknown_user_is_said_before_the_app_opens(data, monkeypatch, launched, capsys):
    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", NOBODYS_HOME)
    assert main(["new", FIRST, "--players", "Ann,bot:Cleo", "--data-dir", str(data)]) == 2
    assert one_error_line(capsys) == unknown_home("CARDTABLE_CONFIG_DIR")
    assert launched == [] and not (data / "saves").exists(), "nothing may be saved"
    # a command that never reads the settings is not held up by them
    assert main(["saves", "--data-dir", str(data)]) == 0
    assert capsys.readouterr().err == ""


# -- simulate --------------------------------------------------------------------------------
def win_shares(out: str) -> list[float]:
    return [float(share) for share in re.findall(r"(\d+\.\d)% of wins", out)]


@needs_game
def test_simulate_named_seats(capsys):
    spec = first_spec()
    seats = ",".join(["bot"] + ["random"] * (spec.players[0] - 1))
    assert main(["simulate", spec.name, "--games", "2", "--seats", seats, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    shares = win_shares(out)
    assert len(shares) == spec.players[0]
    assert sum(shares) == pytest.approx(100, abs=0.2)
    assert spec.best_bot in out and "random" in out
    mean = re.search(r"mean game: (\d+\.\d) turns, (\d+\.\d) commands", out)
    assert mean and float(mean[1]) > 0 and float(mean[2]) >= float(mean[1]) - 1
    assert re.search(r"[\d.]+ games/s, [\d,]+ commands/s", out)


@needs_game
def test_simulate_defaults_to_the_best_bot_at_the_fewest_seats(capsys):
    spec = first_spec()
    assert main(["simulate", spec.name, "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert len(win_shares(out)) == spec.players[0]
    assert out.count("(bot)") == spec.players[0]


@needs_game
def test_simulate_labels_seats_by_name_and_level_and_times_moves(capsys):
    spec = first_spec()
    seats = ",".join(["bot:Cleo"] + [f"random:R{i}" for i in range(spec.players[0] - 1)])
    assert main(["simulate", spec.name, "--games", "2", "--seats", seats]) == 0
    out = capsys.readouterr().out
    assert "Cleo (bot)" in out and "R0 (bot: random)" in out
    assert len(re.findall(r"[\d.]+ ms a move", out)) == spec.players[0]


def test_simulate_card_stock_market_with_its_defaults_finishes(capsys):
    # two bots once only ended their turns from seed 10 on, and this ran for minutes (issue 20)
    assert main(["simulate", "stock-market", "--games", "2", "--seed", "10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Card Stock Market: 2 games, 2 seats") and len(win_shares(out)) == 2


def test_simulate_stops_a_game_that_does_not_end_with_one_line(capsys, monkeypatch):
    spec = rules.find_game("stock-market")
    monkeypatch.setattr(type(spec), "longest", 5)  # every game now runs past twice this
    assert main(["simulate", "stock-market", "--games", "3", "--seed", "4"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("cardtable: stock-market seed 4 ran past 2×longest (10 commands), seats bot,bot: "
                            "these bots do not end the game\n")


def test_help_lists_options_in_words_and_without_importing_games_otherwise():
    code = (
        "import sys, contextlib, io\n"
        "from cardtable.commands import build_parser\n"
        "parser = build_parser()\n"
        "print(sorted(m for m in sys.modules if m.startswith('rules.') and m.count('.') == 1 and m != 'rules.core'))\n"
        "print(parser.format_help())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    first, _, help_text = done.stdout.partition("\n")
    assert first == "[]"  # building the parser loads no game
    assert "(default False)" not in help_text and "(default True)" not in help_text
    for name in GAMES:
        assert name in help_text


def menu_start(argv: list[str], env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    """``cardtable ARGV`` in a fresh Python, its app replaced by one that imports the app and
    the menu: what it opened (store, data folder) and every module imported by then."""
    code = (
        "import sys\n"
        "from cardtable import cli, launch as launching\n"
        "def launch(store, data_dir=None, **kwargs):\n"
        "    import cardtable.app, cardtable.screens.menu  # the app and its first screen\n"
        "    print(store, data_dir)\n"
        "    print(' '.join(sorted(sys.modules)))\n"
        "    return 0\n"
        "launching.launch_app = launch\n"
        f"sys.exit(cli.main({argv!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    opened, imported = done.stdout.splitlines()
    return opened, set(imported.split())


def test_the_menu_starts_without_the_store_a_game_or_the_tables(data):
    """What the menu's start imports before its first frame: no game's rules, no store (SQLite),
    no table widgets, no server; the app makes the store once the menu is up."""
    opened, imported = menu_start(["--data-dir", str(data)])
    assert opened == f"None {data}"
    assert "cardtable.app" in imported and "cardtable.screens.menu" in imported
    games = {f"rules.{info.package}" for info in rules.INFO.values()}
    tables = {"cardtable.screens.table", "cardtable.widgets.game_log", "cardtable.widgets.hand"}
    unwanted = games | tables | {"sqlite3", "cardtable.store.games", "rules.core.match", "cardtable.serve"}
    assert imported & unwanted == set()


def test_a_bare_cardtable_reads_no_command_line(data, tmp_path):
    """`cardtable` alone opens the menu without the commands, their parser or argparse: what
    every start would otherwise compile and run before the first frame."""
    env = dict(os.environ, CARDTABLE_DATA_DIR=str(data), CARDTABLE_CONFIG_DIR=str(tmp_path / "config"))
    opened, imported = menu_start([], env)
    assert opened == f"None {data}"
    assert "cardtable.app" in imported and "cardtable.screens.menu" in imported
    assert imported & {"cardtable.commands", "argparse", "cardtable.serving"} == set()


@needs_game
def test_saves_and_simulate_never_import_textual(data):
    code = (
        "import sys\n"
        "from cardtable.cli import main\n"
        f"assert main(['saves', '--data-dir', {str(data)!r}]) == 0\n"
        f"assert main(['simulate', {GAMES[0]!r}, '--games', '1']) == 0\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'NO TEXTUAL')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "NO TEXTUAL"


# -- mistakes: one line, exit 2 --------------------------------------------------------------
def test_unknown_game(capsys):
    assert main(["new", "foo", "--players", "Ann,Bob"]) == 2
    assert one_error_line(capsys) == f"cardtable: unknown game 'foo'; the games are: {', '.join(rules.GAMES)}"
    assert main(["simulate", "foo"]) == 2
    assert "unknown game 'foo'" in one_error_line(capsys)


def game_mistakes():
    if not GAMES:
        return []
    spec = first_spec()
    name, low, high = spec.name, *spec.players
    too_many = players_text(spec, low) + "".join(f",P{i}" for i in range(high + 1 - low))
    return [
        (["new", name, "--players", too_many], f"is for {low}–{high} players, not {high + 1}"),
        (["new", name, "--players", players_text(spec), "--option", "nosuch=1"], "unknown option 'nosuch'"),
        (["new", name, "--players", players_text(spec), "--option", "nosuch"], "should be written KEY=VALUE"),
        (["new", name, "--players", "Ann,robot:Cleo"], "unknown bot level 'robot'"),
        (["new", name, "--players", "Ann,Ann" + ",X" * (low - 2)], "every player needs a name of their own"),
        (["simulate", name, "--seats", "bot,wizard"], "unknown bot level 'wizard'"),
        (["simulate", name, "--seats", ",".join(["bot"] * (high + 1))], f"not {high + 1}"),
        (["simulate", name, "--games", "0"], "--games must be at least 1"),
        (["simulate", name, "--games", "many"], "invalid int value: 'many'"),
    ]


@needs_game
@pytest.mark.parametrize("argv, message", game_mistakes())
def test_game_mistakes(argv, message, data, launched, capsys):
    assert main([*argv, "--data-dir", str(data)]) == 2
    assert message in one_error_line(capsys)
    assert launched == []
    assert not (data / "saves").exists(), "nothing may be saved"


@pytest.mark.parametrize("argv, message", [
    (["bogus"], "invalid choice: 'bogus'"),
    (["simulate"], "the following arguments are required: GAME"),
    (["new", "x"], "the following arguments are required: --players"),
    (["saves", "--colour"], "unrecognized arguments: --colour (see 'cardtable saves --help')"),
    (["stats", "--name"], "unrecognized arguments: --name (see 'cardtable stats --help')"),
    (["--bogus"], "unrecognized arguments: --bogus (see 'cardtable --help')"),
    (["--bogus", "saves"], "unrecognized arguments: --bogus (see 'cardtable --help')"),
])
def test_usage_mistakes(argv, message, capsys, launched):
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert message in line and "--help" in line
    assert launched == []


@needs_game
def test_new_builds_the_real_app_with_the_saved_game(data, monkeypatch):
    from cardtable.app import CardtableApp

    opened = []
    monkeypatch.setattr(launching, "refuse_without_a_terminal", lambda *args: None)  # pytest's input is none
    monkeypatch.setattr(CardtableApp, "run", lambda self, *args, **kwargs: opened.append(self))
    spec = first_spec()
    assert main(["new", spec.name, "--players", players_text(spec), "--data-dir", str(data)]) == 0
    [app] = opened
    assert app.store.root == data
    [info] = app.store.list()
    assert info.game == spec.name and info.seats[0] == Seat("Ann")


# -- robustness: odd ids, damaged and newer saves, an unwritable data folder ---------------
@pytest.mark.parametrize("odd", ["x" * 10_000, "../x", "a\0b", "a\nb", "..", ".hidden", "a/b", "\udcff"])
def test_resume_of_an_odd_id_is_one_short_line(data, launched, capsys, odd):
    SaveStore(data).folder.mkdir(parents=True)
    assert main(["resume", odd, "--data-dir", str(data)]) == 2
    line = one_error_line(capsys)
    assert "is not the id of a saved game" in line and len(line) < 140
    assert launched == []


@pytest.mark.parametrize("odd", ["çé", "партия", "x" * 150])
def test_resume_of_an_unusual_but_possible_id_is_no_saved_game(data, launched, capsys, odd):
    assert main(["resume", odd, "--data-dir", str(data)]) == 1
    shown = odd if len(odd) <= 60 else odd[:59] + "…"
    assert one_error_line(capsys) == f"cardtable: no saved game {shown!r}"
    assert launched == []


def test_odd_ids_in_a_real_process_give_no_traceback(data):
    for odd in ["x" * 10_000, "../x", "é\u0301", "\x1b[2J"]:
        done = subprocess.run([sys.executable, "-m", "cardtable", "--data-dir", str(data), "resume", odd],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode in (1, 2), done.stderr
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


@needs_game
@pytest.mark.parametrize("damage", ["turn", "deep", "date", "seed", "newer"])
def test_saves_and_resume_survive_earlier_saves_damaged_inside(data, launched, capsys, damage):
    good = "20260101-100000-property-good"
    bad = "20260102-100000-property-bad"
    legacy_save(data, a_match(first_spec(), 1), good, saved="2026-01-01T10:00:00+00:00")
    path = legacy_save(data, a_match(first_spec(), 2), bad, saved="2026-01-02T10:00:00+00:00")
    text = path.read_text()
    text = {
        "turn": lambda: text.replace('"turn": 0', '"turn": 1e400'),
        "deep": lambda: text.replace('"options": {', '"options": ' + "[" * 50_000 + "]" * 50_000 + ', "x": {'),
        "date": lambda: re.sub(r'"saved": "[^"]*"', '"saved": "0001-01-01T00:00:00+14:00"', text),
        "seed": lambda: re.sub(r'"seed": \d+', '"seed": ' + "9" * 5000, text),
        "newer": lambda: text.replace('"format": 3', '"format": 99'),
    }[damage]()
    path.write_text(text)

    assert main(["saves", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert good in out and bad in out
    assert main(["resume", "--data-dir", str(data)]) == 0  # the good one is never hidden
    assert launched[-1]["game_id"] == good or damage in ("turn", "date")
    status = main(["resume", bad, "--data-dir", str(data)])
    err = capsys.readouterr().err
    if damage in ("deep", "seed", "newer"):
        assert status == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
    else:  # odd metadata only: the game itself is fine
        assert status == 0 and launched[-1]["game_id"] == bad
    if damage == "newer":
        assert "saved by a newer cardtable" in err
    assert path.read_text() == text  # left where it is, as it was


@needs_game
def test_resume_of_a_game_whose_later_moves_no_longer_replay_opens_it_with_a_notice(data, launched, capsys):
    store = SaveStore(data)
    match = a_match(first_spec())
    for _ in range(4):
        match.submit(min(match.awaiting), match.bot_move(min(match.awaiting)) if match.seats[min(match.awaiting)].bot
                     else match.legal(min(match.awaiting))[0])
    game_id = store.create(match)
    spoil_move(data, game_id, 3, text="no such move")
    spoiled = stored_moves(data, game_id)
    assert main(["resume", game_id, "--data-dir", str(data)]) == 0
    call = launched[-1]
    assert call["game_id"] == game_id and len(call["match"].history) == 2
    assert call["notice"].startswith("Move 3 of this game ('no such move') no longer replays")
    assert f"'cardtable export {game_id} --original'" in call["notice"]
    capsys.readouterr()
    assert main(["export", game_id, "--original", "--data-dir", str(data)]) == 0
    assert json.loads(capsys.readouterr().out)["commands"] == spoiled


@needs_game
def test_many_earlier_saves_are_announced_before_the_app_brings_them_in(data, launched, capsys):
    match = a_match(first_spec())
    for number in range(20):
        legacy_save(data, match, f"20260101-1000{number:02}-property-aaaa")
    assert main(["--data-dir", str(data)]) == 0
    err = capsys.readouterr().err
    assert err == (f"cardtable: bringing the 20 saved games of an earlier cardtable into {data / 'games.sqlite3'} "
                   "(once; the files are left as they are)…\n")
    assert len(launched[0]["store"].list()) == 20 and launched[0]["store"].notices  # the app says the rest
    assert main(["--data-dir", str(data)]) == 0 and capsys.readouterr().err == ""


@needs_game
def test_two_cardtables_may_resume_the_same_game(data, launched):
    game_id = SaveStore(data).create(a_match(first_spec()))
    for _ in range(2):
        assert main(["resume", game_id, "--data-dir", str(data)]) == 0
    assert [call["game_id"] for call in launched] == [game_id, game_id]


@needs_game
def test_the_real_launch_closes_the_store(data, monkeypatch):
    from cardtable.app import CardtableApp

    game_id = SaveStore(data).create(a_match(first_spec()))
    seen = []
    monkeypatch.setattr(launching, "refuse_without_a_terminal", lambda *args: None)  # pytest's input is none
    monkeypatch.setattr(CardtableApp, "run", lambda self, *a, **k: seen.append(self.store))
    assert main(["resume", game_id, "--data-dir", str(data)]) == 0
    [store] = seen
    assert store._connection is None


def without_a_terminal(argv: list[str], data, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """``cardtable ARGV`` in a real process whose standard error is a pipe (and its input
    ``stdin``), as a script would run it: no browser's driver either."""
    env = {key: value for key, value in os.environ.items() if key != "TEXTUAL_DRIVER"}
    return subprocess.run([sys.executable, "-m", "cardtable", "--data-dir", str(data), *argv], stdin=stdin,
                          capture_output=True, text=True, timeout=60, env=env)


def test_the_menu_without_a_terminal_says_so_and_ends(data):
    """Textual would draw the menu and wait for keys that can never come."""
    done = without_a_terminal([], data)
    assert done.returncode == 2
    assert done.stderr == ("cardtable: the table needs a terminal, and standard input is not one (run cardtable "
                           "in a terminal; a program plays a seat with `cardtable join CODE --stdio`)\n")


@needs_game
def test_a_new_game_without_a_terminal_is_saved_and_said_so(data, launched):
    spec = first_spec()
    done = without_a_terminal(["new", spec.name, "--players", players_text(spec)], data)
    assert done.returncode == 2
    assert "standard input is not one (the game is saved: resume it in a terminal;" in done.stderr
    [info] = SaveStore(data).list()
    assert main(["resume", info.id, "--data-dir", str(data)]) == 0
    assert [call["game_id"] for call in launched] == [info.id]


@needs_game
def test_a_seat_joined_without_a_terminal_is_told_to_join_again(data):
    spec = first_spec()
    made = without_a_terminal(["new", spec.name, "--players", "remote:Ann,remote:Bob"], data)
    assert made.returncode == 0, made.stderr
    code = made.stdout.splitlines()[0].rsplit(" ", 1)[1]
    done = without_a_terminal(["join", code], data)
    assert done.returncode == 2
    assert "standard input is not one (join again in a terminal: the seat is kept;" in done.stderr


@needs_game
def test_a_table_drawn_where_nobody_sees_it_is_refused_too(data):
    """Keys from a terminal, but the screen (Textual draws on standard error) sent to a pipe."""
    import pty

    keys, terminal = pty.openpty()
    try:
        spec = first_spec()
        done = without_a_terminal(["new", spec.name, "--players", players_text(spec)], data, stdin=terminal)
    finally:
        os.close(keys)
        os.close(terminal)
    assert done.returncode == 2
    assert "the table needs a terminal, and standard error is not one (the game is saved" in done.stderr
    assert len(SaveStore(data).list()) == 1


# -- export and import ---------------------------------------------------------------------------
@needs_game
def test_export_then_import_adds_the_game_under_a_new_id_the_last_word_printed(data, tmp_path, capsys, launched):
    store = SaveStore(data)
    match = a_match(first_spec())
    match.submit(min(match.awaiting), match.legal(min(match.awaiting))[0])
    game_id = store.create(match)
    target = tmp_path / "mailed.json"
    assert main(["export", game_id[:-1], str(target), "--data-dir", str(data)]) == 0
    assert capsys.readouterr().out == f"Exported {game_id} to {target}\n"
    assert main(["export", game_id, "--data-dir", str(data)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(target.read_text())

    friend = tmp_path / "friend"
    assert main(["import", str(target), "--data-dir", str(friend)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("Imported mailed.json as ")
    new_id = out.splitlines()[-1].split()[-1]
    assert new_id != game_id and stored_moves(friend, new_id) == [[e.seat, e.text] for e in match.history]
    assert main(["resume", new_id, "--data-dir", str(friend)]) == 0 and launched[-1]["game_id"] == new_id


def test_import_of_what_is_not_a_game_is_one_sentence(data, tmp_path, capsys):
    path = tmp_path / "notes.json"
    path.write_text("[1, 2]")
    assert main(["import", str(path), "--data-dir", str(data)]) == 1
    assert one_error_line(capsys) == "cardtable: notes.json cannot be imported: not a cardtable save (not a JSON object)"
    assert main(["import", str(tmp_path / "nowhere.json"), "--data-dir", str(data)]) == 1
    assert "nowhere.json cannot be imported: could not be read" in one_error_line(capsys)
    assert main(["export", "nope", "--data-dir", str(data)]) == 1
    assert one_error_line(capsys) == "cardtable: no saved game 'nope'"


@needs_game
def test_new_with_a_file_where_the_data_folder_should_be_plays_unsaved(tmp_path, launched, capsys):
    blocker = tmp_path / "data"
    blocker.write_text("a file")
    spec = first_spec()
    assert main(["new", spec.name, "--players", players_text(spec), "--data-dir", str(blocker)]) == 0
    [call] = launched
    assert call["match"] is not None and call["game_id"] is None
    out, err = capsys.readouterr()
    assert err == (f"cardtable: Games cannot be saved in {blocker}: {blocker} is a file, not a "
                   "folder. The game opens all the same, but it is not being saved.\n")
    assert main(["saves", "--data-dir", str(blocker)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (f"cardtable: Cannot read the saved games in {blocker}: {blocker} is a "
                                 "file, not a folder.\n")
    assert main(["resume", "--data-dir", str(blocker)]) == 1
    assert "no unfinished game" in capsys.readouterr().err


@needs_game
def test_new_on_a_full_disk_plays_unsaved(data, launched, capsys, monkeypatch):
    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_games, "_insert_game", full)
    spec = first_spec()
    assert main(["new", spec.name, "--players", players_text(spec), "--data-dir", str(data)]) == 0
    assert launched[-1]["game_id"] is None
    line = one_error_line(capsys)
    assert f"Games cannot be saved in {data}: the disk is full." in line


@needs_game
def test_saves_into_a_closed_pipe_is_quiet(data):
    store = SaveStore(data)
    for _ in range(800):  # more than a pipe holds
        store.create(a_match(first_spec()))
    store.close()
    listing = subprocess.Popen([sys.executable, "-m", "cardtable", "saves", "--data-dir", str(data)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    listing.stdout.readline()
    listing.stdout.close()  # like `| head -1`
    err = listing.stderr.read().decode()
    assert listing.wait(timeout=60) == 0 and err == ""
