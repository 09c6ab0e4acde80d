"""The `cardtable` command's commands: a new game, a resumed or joined game, saves, export and
import of a game as JSON, simulate, replay, analyse, the stats of the record of finished games,
and serving the app to a browser; and the command line's parser. cardtable.cli runs them (it
imports this module only when the command line has a word: the menu starts without it).

Only the commands that open the table import the Textual app, so `cardtable saves` and
`cardtable simulate` run without a terminal UI. A mistake on the command line is reported as
one line on stderr with exit status 2; nothing found to resume exits with 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, NoReturn, Sequence

import rules
from rules.core.errors import RulesError, SaveFormatError

from . import __version__, launch
from .launch import PROG, UsageError, bring_in_earlier_saves, fail

if TYPE_CHECKING:  # the game machinery and the store load when a command needs them
    from rules.core import Match, Seat

    from .record import HeadToHead, PlayerStats
    from .store import SaveInfo, SaveStore
from .paths import default_data_dir, user_path
from .serving import CODE_VARIABLE
from .settings import config_dir

SEAT_HELP = """\
Players, in seat order, separated by commas:
  Ann            a human player named Ann
  bot:Cleo       a bot of the game's best level named Cleo
  random:Dan     a bot that plays random legal moves (also bot-random:Dan)
  LEVEL:Eve      a bot of that level (also bot-LEVEL:Eve)
  remote:Fay     a person at another screen: a line 'Fay: cardtable join CODE' is printed
                 for them (and one for spectators); the table opens for the seats here, and
                 with none here (all remote or bots) the command ends after the lines
"""

REMOTE = "remote"


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake becomes one line instead of the usage block and an exit, and
    the games list under the help is made only when help is printed (it imports every game)."""

    def __init__(self, *args: Any, games_after: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games_after = games_after

    def format_help(self) -> str:
        if self.games_after is not None:
            self.epilog = self.games_after + games_help()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        # argparse reports the words no parser knows from the top parser, with its own help:
        # words given after a command are told with that command's
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            words = list(sys.argv[1:] if args is None else args)
            command = getattr(parsed, "command", None)
            after = words[words.index(command) + 1:] if command in words else []
            prog = f"{self.prog} {command}" if unknown[0] in after else self.prog
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)} (see '{prog} --help')")
        return parsed


# -- reading the command line ----------------------------------------------------------------
def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["decks=3", "bank=unlimited"]`` → a dict; the game coerces and checks the values."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"option {pair!r} should be written KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def bot_level(spec: Any, word: str) -> str:
    """The bot level a seat word names: ``bot`` is the game's best, ``bot-X`` and ``X`` level X."""
    word = word.strip().lower()
    if word == "bot":
        return spec.best_bot
    level = word.removeprefix("bot-")
    from rules.core.bots import get_bot

    get_bot(spec, level)  # raises, naming the levels there are
    return level


def parse_players(spec: Any, text: str) -> list[Seat]:
    """``"Ann,Bob,bot:Cleo,random:Dan"`` → seats (see SEAT_HELP)."""
    return parse_seating(spec, text)[0]


def parse_seating(spec: Any, text: str) -> tuple[list[Seat], list[int]]:
    """``"Ann,remote:Bob,bot:Cleo"`` → the seats, and those played from other screens (to
    the rules, a remote seat is a human seat: the store keeps which are remote)."""
    from rules.core.match import Seat

    seats, remote = [], []
    for item in text.split(","):
        kind, sep, name = item.partition(":")
        if not sep:
            seats.append(Seat(item.strip()))
        elif kind.strip().lower() == REMOTE:
            remote.append(len(seats))
            seats.append(Seat(name.strip()))
        else:
            seats.append(Seat(name.strip(), bot_level(spec, kind)))
    return seats, remote


def parse_levels(spec: Any, text: str | None) -> list[tuple[str, str]]:
    """``"bot:Cleo,random"`` → (name, bot level) per seat for `simulate` (a seat without a name
    is called after its level and place); none: the best bot at the fewest seats."""
    words = text.split(",") if text is not None else ["bot"] * spec.players[0]
    seats = []
    for place, word in enumerate(words, 1):
        kind, sep, name = word.partition(":")
        level = bot_level(spec, kind)
        seats.append((name.strip() if sep and name.strip() else f"{level.capitalize()} {place}", level))
    low, high = spec.players
    if not low <= len(seats) <= high:
        from rules.core.words import player_count

        raise RulesError(f"{spec.title} is for {player_count(spec.players)}, not {len(seats)}")
    return seats


def games_help() -> str:
    """The games, their player counts, bot levels and options, for `--help` (imported only
    when help is asked for: every other launch starts without loading a game's rules)."""
    from rules.core.words import player_count

    lines = ["games:"]
    for name, spec in sorted(rules.GAMES.items()):
        from rules.core.bots import bot_levels

        levels = ", ".join(bot_levels(spec))
        lines.append(f"  {name:<16}{spec.title}, {player_count(spec.players)}; bots: {levels} (best: {spec.best_bot})")
        for option in spec.options:
            choices = f" [{'/'.join(map(str, option.choices))}]" if option.choices else ""
            lines.append(f"  {'':<18}--option {option.key}=...  {option.label}{choices} "
                         f"(default: {option_text(option.default)})")
    return "\n".join(lines)


def option_text(value: Any) -> str:
    """An option's value as the command line takes it: ``yes``/``no`` for a flag."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class _Unmade:
    """Stands for the parser of a command not on this command line: what is given to it is
    dropped (each parser argparse makes costs a millisecond, in gettext's lookups)."""

    epilog: str | None = None

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass


def build_parser(only: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, of those commands alone (see parse_command_line)."""
    # --data-dir is accepted before and after the command; the subcommands' copy must not
    # overwrite a value given before the command, hence SUPPRESS as its default
    top_data = _Parser(add_help=False)
    top_data.add_argument("--data-dir", type=Path, metavar="PATH", default=None,
                          help="where saved games live (default: $CARDTABLE_DATA_DIR or the user data folder)")
    sub_data = _Parser(add_help=False)
    sub_data.add_argument("--data-dir", type=Path, metavar="PATH", default=argparse.SUPPRESS,
                          help=argparse.SUPPRESS)

    parser = _Parser(
        prog=PROG,
        description="A terminal card table for economic card games. Without a command, opens the menu.",
        parents=[top_data],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        games_after="",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, summary: str, games_after: str | None = None) -> Any:
        if only is not None and name not in only:
            return _Unmade()
        return commands.add_parser(name, help=summary, description=summary, parents=[sub_data],
                                   games_after=games_after, formatter_class=argparse.RawDescriptionHelpFormatter)

    new = command("new", "Start a new game and open its table (for the seats at this screen).", SEAT_HELP + "\n")
    new.add_argument("game", metavar="GAME", help="the game to play (see the list below)")
    new.add_argument("--players", required=True, metavar="LIST", help="the players in seat order, e.g. Ann,Bob,bot:Cleo")
    new.add_argument("--seed", type=int, help="deal from this seed (the same seed, the same deal)")
    new.add_argument("--option", action="append", metavar="KEY=VALUE", help="a setup option; may be repeated")
    new.add_argument("--hints", action=argparse.BooleanOptionalAction, default=None,
                     help="the expert's hints at the table (key i); default: on when one person plays, "
                          "off when several do")

    join = command("join", "Open the table of a game played from several screens, as the seat a join code "
                           "opens (or, with the spectators' code, the public view).")
    join.epilog = ("A code is 8 letters and digits, like K7QX-M2PD: case does not matter, nor the dash or spaces;\n"
                   "I and L are read as 1, O as 0. 'cardtable new' prints the codes; the saves screen\n"
                   "(c) of the machine holding the game shows them again and can renew one.\n"
                   "With --stdio it exits 0 at the game's end, 1 when the store fails, 2 for a wrong\n"
                   "code (one line {\"type\": \"error\", ...} on the standard output), 3 when its input\n"
                   "ends first.")
    # its two halves typed apart (`join K7QX M2PD`) are one code: spaces in it do not matter
    join.add_argument("code", metavar="CODE", nargs="*",
                      help=f"the join code, e.g. K7QX-M2PD (default: the environment variable {CODE_VARIABLE})")
    join.add_argument("--stdio", action="store_true",
                      help="let a program take the seat: JSON lines on the standard output, one command a "
                           "line on the standard input, no table (see the README, 'Programs at a seat')")
    join.add_argument("--no-menu", action="store_true",
                      help="leaving the table ends cardtable: no way to the menu, the other games or the settings "
                           "(how 'cardtable serve' opens a seat for a player over SSH or at its join page)")

    resume = command("resume", "Open a saved game (by default the most recent unfinished one).")
    resume.add_argument("id", nargs="?", metavar="ID", help="the save's id, or the start of it (see 'cardtable saves')")

    command("saves", "List the saved games.")

    export = command("export", "Write one game as JSON (the match format), to FILE or to the standard output.")
    export.add_argument("id", metavar="ID", help="the game's id, or the start of it (see 'cardtable saves')")
    export.add_argument("file", nargs="?", metavar="FILE", type=Path, help="where to write it (default: the standard output)")
    export.add_argument("--original", action="store_true",
                        help="the game as it was before it was last repaired at its last good move")

    import_ = command("import", "Add a game from a JSON file (an export, or a save of an earlier cardtable) under a new id.")
    import_.add_argument("file", metavar="FILE", type=Path, help="the file to read")

    simulate = command(
        "simulate", "Play bot games without the table and print how each seat did.",
        "seats: 'bot' is the game's best bot, 'random' plays random legal moves, or name a level.\n\n",
    )
    simulate.add_argument("game", metavar="GAME", help="the game to simulate")
    simulate.add_argument("--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    simulate.add_argument("--seats", metavar="LEVELS",
                          help="one bot per seat, a level with an optional name: bot:Cleo,random:Dan "
                               "(default: the best bot at the fewest seats)")
    simulate.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    simulate.add_argument("--option", action="append", metavar="KEY=VALUE", help="a setup option; may be repeated")

    replay = command("replay", "Step through a saved or finished game move by move (it is only read, never changed).")
    replay.add_argument("id", nargs="?", metavar="ID",
                        help="the save's id, or the start of it (default: the most recently played game)")

    analyse = command("analyse", "Judge every decision of a finished game from the mover's own view: each "
                                 "player's accuracy, luck and skill, and the turning points.")
    analyse.epilog = ("Each decision is weighed by the expert's search over hidden cards dealt from what the\n"
                      "mover saw (never the real ones). A loss of 5 points of winning chance is an inaccuracy,\n"
                      "10 a mistake, 20 a blunder. The analysis is kept: a second look is instant.")
    analyse.add_argument("id", metavar="ID", help="the game's id, or the start of it (see 'cardtable saves')")
    analyse.add_argument("--seconds", type=float, metavar="S",
                         help="thinking time per position (default: the expert's for the game)")
    analyse.add_argument("--json", action="store_true",
                         help="print one JSON object: the moves judged and the players (chances in percent)")

    stats = command("stats", "Games, wins, win rate, best score and winning streaks from the record of finished games.")
    stats.add_argument("name", nargs="?", metavar="NAME", help="one player (a bot as LEVEL:Name, e.g. bot:Cleo): their games and their opponents")
    stats.add_argument("other", nargs="?", metavar="OTHER", help="a second player: NAME and OTHER head to head (the human Bob is not the bot Bob)")
    stats.add_argument("--game", metavar="GAME", help="only this game")

    serve = command("serve", "Serve cardtable to web browsers (textual-serve): the same app, pass-and-play on a tablet.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument("--public-url", metavar="URL",
                       help="the address browsers use to reach it, when not http://HOST:PORT (behind a proxy)")
    if not isinstance(serve, _Unmade):
        from .serve import MAX_TABS  # (no textual-serve: that is imported only to serve)

        serve.add_argument("--max-tabs", type=int, default=MAX_TABS, metavar="N",
                           help=f"browser tabs that can play at once, each running its own cardtable "
                                f"(default {MAX_TABS}); as many SSH players again")
    serve.add_argument("--ssh-port", type=int, metavar="PORT",
                       help="also serve over SSH on this port, on the same --host: 'ssh -p PORT CODE@HOST' opens "
                            "the seat of a join code (needs the ssh extra: pip install 'cardtable[ssh]')")
    serve.add_argument("--ssh-only", action="store_true", help="serve over SSH alone (no web server)")
    return parser


def parse_command_line(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read by a parser of the commands it names alone (the menu's, of none:
    a start of the app does not pay for every command's parser); help, and any mistake, by the
    whole parser, which knows every command."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "-h" in argv or "--help" in argv:
        return build_parser().parse_args(argv)
    try:
        return build_parser([word for word in argv if word in COMMANDS]).parse_args(argv)
    except UsageError:
        return build_parser().parse_args(argv)


# -- the commands ----------------------------------------------------------------------------
def cmd_new(args: argparse.Namespace, store: SaveStore) -> int:
    spec = rules.find_game(args.game)
    from rules.core.match import Match

    seats, remote = parse_seating(spec, args.players)
    match = Match(spec, seats, parse_options(args.option), args.seed)
    try:
        from .store.hints import hints_by_default

        people = sum(1 for seat in match.seats if seat.is_human)
        hints = hints_by_default(people) if args.hints is None else args.hints
        game_id: str | None = store.create(match, remote, hints=hints)
    except OSError as error:  # play on, unsaved: the table says so at once and keeps trying
        if remote:  # the other screens meet in the store: without it they cannot join
            return fail(f"{error} A game with players at other screens needs the store: it was not begun.", 1)
        print(f"{PROG}: {error} The game opens all the same, but it is not being saved.", file=sys.stderr)
        game_id = None
    if remote and game_id is not None:
        print_join_lines(args, store, match, game_id)
        if not any(seat.is_human and place not in remote for place, seat in enumerate(match.seats)):
            return 0  # nobody plays here: the others open it with their codes
    return launch.launch_app(store, match, game_id)


def print_join_lines(args: argparse.Namespace, store: SaveStore, match: Match, game_id: str) -> None:
    """One line per remote seat, ``NAME: cardtable join CODE``, and the spectators' line. A
    data folder given on the command line is part of the command (the codes live there). A
    ``cardtable serve`` of the same data folder that is running adds its SSH and browser forms."""
    import shlex

    from .serving import running

    codes = store.codes(game_id)
    data_dir = f" --data-dir {shlex.quote(str(args.data_dir))}" if args.data_dir is not None else ""
    server = running(store.root)
    for seat, code in codes.items():
        who = "Spectators" if seat is None else match.names[seat]
        print(f"{who}: {PROG}{data_dir} join {code}")
        for form in server.forms(code) if server is not None else ():
            print(f"  or: {form}")
    sys.stdout.flush()


def cmd_join(args: argparse.Namespace, store: SaveStore) -> int:
    from .store import CodeError

    code = " ".join(args.code) if args.code else os.environ.get(CODE_VARIABLE)
    if args.stdio:
        from .stdio import run  # no Textual on this path: a program starts it, and it starts fast

        try:
            return run(store, code)
        finally:
            report_problems(store)
            store.close()
    try:
        joined = store.join(code)
        opened = store.open(joined.game_id)
    except (CodeError, LookupError) as error:
        return fail(str(error.args[0]), 1)
    finally:
        report_problems(store)
    return launch.launch_app(store, opened.match, joined.game_id, opened.notice, joined=joined, confined=args.no_menu)


def chosen_id(store: SaveStore, text: str | None, unfinished: bool) -> str | None:
    """The id of the save ``text`` names (see resolve_id); without ``text``, of the most
    recently played save (``unfinished``: of the unfinished ones), or None if there is none."""
    if text is not None:
        return resolve_id(store, text)
    info = store.latest(unfinished=unfinished)
    report_problems(store)
    return None if info is None else info.id


def cmd_resume(args: argparse.Namespace, store: SaveStore) -> int:
    game_id = chosen_id(store, args.id, unfinished=True)
    if game_id is None:
        return fail(f"there is no unfinished game to resume; start one with '{PROG} new GAME'", 1)
    try:
        opened = store.open(game_id)
    except LookupError as error:
        return fail(error.args[0], 1)
    finally:
        report_problems(store)
    return launch.launch_app(store, opened.match, game_id, opened.notice)


def cmd_saves(args: argparse.Namespace, store: SaveStore) -> int:
    infos = store.list()
    if infos:
        print(format_saves(infos))
    elif not store.problems:
        print(f"No saved games in {store.path}.")
    sys.stdout.flush()  # a closed pipe (`cardtable saves | head`) fails here, inside main
    status = 1 if store.problems else 0
    report_problems(store)
    return status


def cmd_export(args: argparse.Namespace, store: SaveStore) -> int:
    game_id = resolve_id(store, args.id)
    try:
        if args.file is None or str(args.file) == "-":
            from .store.files import game_text

            text = game_text(store.export(game_id, original=args.original))
            report_problems(store)
            sys.stdout.write(text)
            sys.stdout.flush()
            return 0
        path = store.export_to(game_id, user_path(args.file, "the file"), original=args.original)
    except LookupError as error:
        return fail(error.args[0], 1)
    finally:
        report_problems(store)
    print(f"Exported {game_id} to {path}")
    return 0


def cmd_import(args: argparse.Namespace, store: SaveStore) -> int:
    path = user_path(args.file, "the file")
    try:
        game_id, notice = store.import_file(path)
    finally:
        report_problems(store)
    if notice:
        print(f"{PROG}: {notice}", file=sys.stderr)
    # the id is the last word of the last line, for scripts
    print(f"Imported {path.name} as {game_id}")
    return 0


def cmd_simulate(args: argparse.Namespace, store: SaveStore) -> int:
    from rules.core.simulate import NeverEnds, simulate

    spec = rules.find_game(args.game)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    seats = parse_levels(spec, args.seats)
    options = parse_options(args.option)
    levels = [level for _name, level in seats]
    try:
        with simulation_progress(spec.title, args.games) as progress:
            summary = simulate(spec, levels, args.games, args.seed, options, progress)
    except NeverEnds as error:  # stopped at once: a game twice the longest is taken never to end
        return fail(f"{error}, seats {','.join(error.levels)}: these bots do not end the game", 1)
    print(format_summary(spec, summary, [name for name, _level in seats]))
    return 0


@contextmanager
def simulation_progress(title: str, games: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr while the games are played (only for runs long enough to want
    one); yields the callback ``simulate`` calls after each game."""
    with progress_bar(f"simulating {title}", shown=games >= 20) as update:
        yield lambda done: update(done, games)


@contextmanager
def progress_bar(label: str, shown: bool = True) -> Iterator[Callable[[int, int], None]]:
    """A progress bar with the time left on stderr (only on a terminal); yields
    ``update(done, total)``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=console, transient=True, disable=not console.is_terminal or not shown)
    with progress:
        task = progress.add_task(label, total=None)
        yield lambda done, total: progress.update(task, completed=done, total=total)


def cmd_replay(args: argparse.Namespace, store: SaveStore) -> int:
    game_id = chosen_id(store, args.id, unfinished=False)
    if game_id is None:
        return fail(f"there is no saved game to replay; play one with '{PROG} new GAME'", 1)
    try:
        replayed = store.replay(game_id)
    except LookupError as error:
        return fail(error.args[0], 1)
    except SaveFormatError as error:
        return fail(str(error), 1)
    return launch.launch_app(store, notice=replayed.notice, replay=replayed.replay)


def cmd_analyse(args: argparse.Namespace, store: SaveStore) -> int:
    import json

    from rules.core.analysis import NotFinished

    from .store.analyses import analysis_of, thinking_time

    if args.seconds is not None and not 0.01 <= args.seconds <= 600:
        raise UsageError("--seconds must be between 0.01 and 600 (the thinking time per position)")
    game_id = resolve_id(store, args.id)
    try:
        replay = store.replay(game_id).replay
    except LookupError as error:
        return fail(error.args[0], 1)
    if not replay.over:
        return fail(f"{game_id} is not over: only a finished game can be analysed "
                    f"(play it to the end with '{PROG} resume {game_id}')", 1)
    seconds = thinking_time(replay.spec, args.seconds)
    try:
        with progress_bar(f"analysing {replay.spec.title}") as progress:
            analysis, _kept, problem = analysis_of(store, game_id, replay, seconds, progress)
    except NotFinished as error:  # pragma: no cover - refused above
        return fail(str(error), 1)
    except KeyboardInterrupt:
        return fail("analysis stopped: nothing was kept", 130)
    if problem:
        print(f"{PROG}: {problem}", file=sys.stderr)
    if args.json:
        print(json.dumps(analysis.to_json(), ensure_ascii=False))
        return 0
    print(f"{replay.spec.title}, {game_id}: {len(analysis.decisions)} decisions judged at {seconds:g} s each.")
    for line in analysis.summary():
        print(line)
    points = analysis.turning_points()
    if points:
        print("\nTurning points:")
        for _move, sentence in points:
            print(f"  {sentence}")
    return 0


def cmd_stats(args: argparse.Namespace, store: SaveStore) -> int:
    from .record import Record, RecordError

    record = Record(store.root)
    game = rules.game_key(args.game) if args.game else None
    if game is not None and game not in rules.INFO:
        raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(rules.INFO)}")
    try:
        status = print_stats(record, args.name, args.other, game)
    except RecordError as error:
        return fail(str(error), 1)
    finally:
        for notice in record.notices:
            print(f"{PROG}: {notice}", file=sys.stderr)
        record.close()
    return 1 if record.notices else status


def who(record: Any, text: str) -> tuple[str, str | None]:
    """A player as ``stats`` is given one: ``Bob`` (the human; a bot of that name when no human
    has it and only one bot level does), or ``LEVEL:Name`` for a bot (``bot:Cleo``,
    ``random:Dan``), as seats are written for ``new``."""
    level, colon, name = text.partition(":")
    if colon and level.strip():
        return name.strip(), level.strip().lower()
    kinds = record.kinds(text)
    if None not in kinds and len(kinds) == 1:
        return text, kinds[0]
    return text, None


def print_stats(record: Any, name: str | None, other: str | None, game: str | None) -> int:
    """Print the stats asked for; the exit status (1 when the player or the pair is not found).
    A player is a name and a kind (a human, or a bot of one level): the human Bob is never
    counted with a bot called Bob."""
    if name is None:
        stats = [s for s in record.players() if game is None or s.game == game]
        if not stats:
            where = f" of {rules.INFO[game].title}" if game else ""
            print(f"No finished games{where} in the record yet ({record.path}): it fills as games end.")
            return 0
        print(format_player_stats(stats, game))
        return 0
    if other is None:
        plain_name, level = who(record, name) if ":" in name else (name, None)
        stats = [s for s in record.players(plain_name) if (game is None or s.game == game)
                 and (":" not in name or s.bot == level)]
        if not stats:
            return fail(_no_games(name, game), 1)
        print(format_player_stats(stats, game))
        for bot in dict.fromkeys(s.bot for s in stats):
            opponents = record.opponents(plain_name, game, bot)
            if opponents:
                print()
                print(format_opponents(opponents))
        return 0
    (first, first_bot), (second, second_bot) = who(record, name), who(record, other)
    meetings = [h for h in record.head_to_head(first, second, first_bot, second_bot)
                if game is None or h.game == game]
    if not meetings:
        if not [s for s in record.players(first) if s.bot == first_bot and (game is None or s.game == game)]:
            return fail(_no_games(name, game), 1)
        return fail(f"{name} and {other} have not finished a game together"
                    + (f" of {rules.INFO[game].title}" if game else ""), 1)
    print(format_head_to_head(meetings))
    return 0


def _no_games(name: str, game: str | None) -> str:
    if game is not None:
        return f"{name!r} has no finished game of {rules.INFO[game].title} in the record"
    return f"no finished game of {name!r} is in the record"


def game_title(name: str | None) -> str:
    if name is None:
        return "all games"
    info = rules.INFO.get(name)
    return info.title if info else name


def columns(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    """Rows as aligned columns (the first row the header); ``right`` aligns numbers."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(w) if r else cell.ljust(w) for cell, w, r in zip(row, widths, right)).rstrip()
                     for row in rows)


def format_player_stats(stats: Sequence[PlayerStats], game: str | None = None) -> str:
    """One line per player and game, each player's games together first ("all games", only
    for a player of several games), players with the most games first."""
    kinds: dict[tuple[str, str | None], list[PlayerStats]] = {}
    for s in stats:
        kinds.setdefault((s.name.casefold(), s.bot), []).append(s)
    rows = [("PLAYER", "GAME", "GAMES", "WINS", "WIN RATE", "BEST", "STREAK", "LONGEST", "LAST PLAYED")]
    order = sorted(kinds.values(), key=lambda group: -max(s.games for s in group))
    for group in order:
        per_game = [s for s in group if s.game is not None]
        shown = sorted(per_game, key=lambda s: (-s.games, s.game or ""))
        if game is None and len(per_game) > 1:
            shown = [s for s in group if s.game is None] + shown
        for s in shown:
            rows.append((s.label, game_title(s.game), str(s.games), str(s.wins), f"{s.win_rate:.0%}",
                         "-" if s.best is None else str(s.best), str(s.streak), str(s.longest),
                         s.last.astimezone().strftime("%Y-%m-%d")))
    return columns(rows, [False, False, True, True, True, True, True, True, False])


def format_opponents(opponents: Sequence[HeadToHead]) -> str:
    name = opponents[0].first
    rows = [("HEAD TO HEAD", "GAMES", f"{name.upper()} AHEAD", "THEY WERE AHEAD", "TIED")]
    for h in opponents:
        rows.append((h.second, str(h.games), str(h.first_ahead), str(h.second_ahead), str(h.tied)))
    return columns(rows, [False, True, True, True, True])


def format_head_to_head(meetings: Sequence[HeadToHead]) -> str:
    first, second = meetings[0].first, meetings[0].second
    total = meetings[-1]
    lines = [f"{first} against {second}: {total.games} game{'s' * (total.games != 1)} together; "
             f"{first} finished ahead {total.first_ahead}, {second} {total.second_ahead}, tied {total.tied}."]
    rows = [("GAME", "GAMES", f"{first.upper()} AHEAD", f"{second.upper()} AHEAD", "TIED")]
    for h in meetings:
        rows.append((game_title(h.game), str(h.games), str(h.first_ahead), str(h.second_ahead), str(h.tied)))
    return "\n".join([*lines, "", columns(rows, [False, True, True, True, True])])


def cmd_serve(args: argparse.Namespace, store: SaveStore) -> int:
    from .serve import ServeError, serve

    try:
        return serve(store.root, args.host, args.port, args.public_url, args.max_tabs, args.ssh_port, args.ssh_only)
    except ServeError as error:
        return fail(str(error), 1)


COMMANDS = {"new": cmd_new, "join": cmd_join, "resume": cmd_resume, "saves": cmd_saves,
            "export": cmd_export, "import": cmd_import, "simulate": cmd_simulate, "replay": cmd_replay,
            "stats": cmd_stats, "serve": cmd_serve, "analyse": cmd_analyse}
OPENS_THE_APP = frozenset({None, "new", "join", "resume", "replay", "serve"})
"""The commands that run the app (serve: one for each browser), which reads the settings; None,
no command, is the menu (``open_menu``)."""


# -- output ----------------------------------------------------------------------------------
def format_saves(infos: Sequence[SaveInfo]) -> str:
    """The saves as aligned columns: id, game, players, turn, last played (local), state (whose
    turn it is, the result, or why a file cannot be opened)."""
    rows = [("ID", "GAME", "PLAYERS", "TURN", "LAST PLAYED", "STATE")]
    for info in infos:
        when = info.updated.astimezone().strftime("%Y-%m-%d %H:%M")
        turn = "-" if info.damaged else str(info.turn)
        rows.append((info.id, info.title, info.players or "-", turn, when, info.status))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1]
        for row in rows
    )


def format_summary(spec: Any, summary: Any, names: Sequence[str] | None = None) -> str:
    n = summary.games
    lines = [f"{spec.title}: {n} game{'s' if n != 1 else ''}, {len(summary.levels)} seats (seats rotate)"]
    names = list(names) if names is not None else [f"Seat {i}" for i in range(1, len(summary.levels) + 1)]
    from rules.core.bots import kind_of

    labels = [f"{name} ({kind_of(level, spec.best_bot)})" for name, level in zip(names, summary.levels)]
    width = max(len(label) for label in labels)
    for label, share, ms in zip(labels, summary.shares, summary.ms_per_move):
        lines.append(f"  {label:<{width}}  {share * 100:5.1f}% of wins  {ms:6.2f} ms a move")
    lines.append(f"mean game: {summary.mean_turns:.1f} turns, {summary.mean_commands:.1f} commands")
    lines.append(f"speed: {summary.games_per_second:.1f} games/s, {summary.commands_per_second:,.0f} commands/s")
    return "\n".join(lines)


def report_problems(store: SaveStore) -> None:
    """What the store could not read, and what it had to do (a damaged database set aside,
    earlier saves brought in), each said once on stderr."""
    for problem in [*store.problems, *store.notices]:
        print(f"{PROG}: {problem}", file=sys.stderr)
    store.problems.clear()
    store.notices.clear()


def resolve_id(store: SaveStore, text: str) -> str:
    """An exact id, or the one save whose id starts with ``text``; else the text unchanged
    (so loading it reports "no saved game"). Text that cannot be an id is a usage error."""
    from .store import is_valid_id

    text = text.strip().removesuffix(".json")
    if not is_valid_id(text):
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise UsageError(f"{shown!r} is not the id of a saved game (see '{PROG} saves')")
    if store.exists(text):
        return text
    matches = [info.id for info in store.list() if info.id.startswith(text)]
    report_problems(store)
    if len(matches) > 1:
        raise UsageError(f"{text!r} could be any of: {', '.join(matches)}")
    return matches[0] if matches else text


def run(argv: Sequence[str]) -> int:
    """Run the command line ``argv`` (not empty: see cli.main, which reports what it raises)."""
    try:
        args = parse_command_line(argv)
    except SystemExit as done:  # --help and --version have printed what was asked
        return done.code if isinstance(done.code, int) else 0
    data_dir = default_data_dir() if args.data_dir is None else user_path(args.data_dir, "--data-dir")
    if args.command in OPENS_THE_APP and not getattr(args, "stdio", False):
        config_dir()  # where the app keeps its settings: a value that cannot be used is said now
        if args.command is None:
            return launch.open_menu(data_dir)
    from .store import SaveStore

    store = SaveStore(data_dir)
    if args.command in OPENS_THE_APP and not getattr(args, "stdio", False):
        bring_in_earlier_saves(store)
    return COMMANDS[args.command](args, store)
