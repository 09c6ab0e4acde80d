"""Programs at a seat: `cardtable join CODE --stdio`. Whole games of every game played to the end
by processes through the store with bots between them, a process killed and joined again, the
refusals, wrong codes, names as typed, what one seat's lines never carry, the example client,
and the input lines fuzzed in-process."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
from enum import Enum
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from cardtable import stdio
from cardtable.stdio import MAX_LINE, Lines, SeatSession, Stop
from cardtable.store import Joined, SaveStore
from rules.core import Card, Match, Seat
from rules.core.jsonio import to_plain

from stdio_helpers import SeatProcess, play_all

GAMES = sorted(rules.GAMES)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "first_legal.py"


def new_game(data: Path, game: str, seats: list[Seat], remote: list[int], seed: int = 7) -> tuple[str, dict]:
    """A stored game with ``remote`` seats; its id and its codes (seat, or None: spectators)."""
    store = SaveStore(data)
    try:
        game_id = store.create(Match(rules.find_game(game), seats, seed=seed), remote)
        return game_id, store.codes(game_id)
    finally:
        store.close()


def stored(data: Path, game_id: str) -> Match:
    store = SaveStore(data)
    try:
        return store.open(game_id).match
    finally:
        store.close()


@pytest.fixture
def processes() -> Iterator[list[SeatProcess]]:
    started: list[SeatProcess] = []
    yield started
    for process in started:
        process.close()


def strings(value: Any) -> set[str]:
    """Every text value inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value)) if value else set()
    return set()


def hidden_from(match: Match, seat: int | None) -> set[str]:
    """The keys of what the other seats hold in their private zones (hands, capital, tools)."""
    return {text for other in range(len(match.seats)) if other != seat
            for text in strings(to_plain(match.view(other).zones))}


def check_secrets(data: Path, game_id: str, seat: int | None, messages: list[dict]) -> int:
    """Replay the game along the seat's state lines. Each line's view is the rules' view of the
    seat at that move; its log, line after line, is the sentences of the events the seat may
    see (as the rules word them for it); and no key of what another seat holds hidden is in its
    view or its legal commands: hidden, unless the public view shows it now (Property's cut
    card) or the seat's own view showed it at some move before (a card taken from the discard
    pile in sight of all). The number of lines at which something was hidden from the seat."""
    final = stored(data, game_id)
    replay = Match(final.spec, final.seats, final.options, final.seed)
    known: set[str] = set()  # whatever the seat's views have shown so far
    logged: list[str] = []
    checked = 0
    for message in messages:
        if message["type"] != "state":
            continue
        while len(replay.history) < message["moves"]:
            known |= strings(to_plain(replay.view(seat)))
            entry = final.history[len(replay.history)]
            replay.submit(entry.seat, entry.text)
        assert message["view"] == to_plain(replay.view(seat))
        logged = message["log"] if message["whole_log"] else logged + message["log"]
        assert logged == [str(event.describe(replay.names, seat)) for played in replay.history
                          for event in played.events if event.visible_to(seat)]
        secret = hidden_from(replay, seat) - strings(to_plain(replay.view(None))) - known
        said = strings(message["view"]) | set(message["legal"])
        assert not secret & said, (message["moves"], secret & said)
        checked += bool(secret)
    return checked


# -- whole games, through processes ------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_stdio_seats_play_every_game_to_the_end_with_a_bot_between_them(tmp_path, processes, game):
    spec = rules.find_game(game)
    people = 2 if spec.players[1] >= 3 else 1  # Abundance is for two: one program and the bot
    seats = [Seat("Ann"), Seat("Bob")][:people] + [Seat("Cleo", "bot")]
    data = tmp_path / "data"
    game_id, codes = new_game(data, game, seats, list(range(people)), seed=3)
    programs = [SeatProcess(data, codes[seat]) for seat in range(people)]
    watcher = SeatProcess(data, codes[None])
    processes.extend([*programs, watcher])
    refused = play_all(programs, seed=11)
    final = stored(data, game_id)
    assert final.over
    for process in [*programs, watcher]:
        assert process.wait() == 0, process.stderr()
        *_, last_state, over = process.messages
        assert over == {"type": "over", "outcome": {**to_plain(final.outcome), "winners": list(final.outcome.winners)}}
        assert last_state["type"] == "state" and last_state["moves"] == len(final.history)
    # a refusal only when another screen's move came first (a bot both programs played)
    assert all("first" in message["reason"] for message in refused), refused
    hides_cards = game != "abundance"  # whose secrets are sealed bids: the log's check covers them
    for seat, process in enumerate(programs):
        assert {m["name"] for m in process.messages if m["type"] == "state"} == {seats[seat].name}
        assert (check_secrets(data, game_id, seat, process.messages) > 1) == hides_cards
    states = [m for m in watcher.messages if m["type"] == "state"]
    assert all(m["legal"] == [] and m["awaiting"] is False and m["seat"] is None for m in states)
    assert (check_secrets(data, game_id, None, watcher.messages) > 1) == hides_cards
    # the log: the whole in the first line, then only what came since
    assert states[0]["whole_log"] and not any(m["whole_log"] for m in states[1:])


def test_a_program_killed_mid_game_joins_again_where_it_was(tmp_path, processes):
    data = tmp_path / "data"
    seats = [Seat("Ann"), Seat("Bob"), Seat("Cleo", "bot")]
    game_id, codes = new_game(data, "property", seats, [0, 1], seed=5)
    ann, bob = SeatProcess(data, codes[0]), SeatProcess(data, codes[1])
    processes.extend([ann, bob])
    play_all([ann, bob], seed=1, stop_after=15)
    ann.process.send_signal(signal.SIGKILL)
    assert ann.wait() == -signal.SIGKILL
    before = stored(data, game_id)
    assert 15 <= len(before.history) and not before.over
    again = SeatProcess(data, codes[0])
    processes.append(again)
    first = again.next()
    assert first["type"] == "state" and first["moves"] == len(before.history) and first["whole_log"]
    assert first["view"] == to_plain(before.view(0))
    again.held = first  # the client answers it
    play_all([again, bob], seed=2)
    assert again.wait() == 0 and bob.wait() == 0
    final = stored(data, game_id)
    assert final.over and [p.text for p in final.history[:len(before.history)]] == [p.text for p in before.history]


def test_the_seat_is_present_while_its_program_runs_and_gone_when_its_input_ends(tmp_path, processes):
    data = tmp_path / "data"
    game_id, codes = new_game(data, "property", [Seat("Ann"), Seat("Bob")], [0, 1])
    ann = SeatProcess(data, codes[0])
    processes.append(ann)
    ann.until(lambda m: m["type"] == "state")
    store = SaveStore(data)
    assert store.present(game_id) == {0}
    ann.process.stdin.close()
    assert ann.wait() == stdio.INPUT_ENDED
    assert store.present(game_id) == frozenset()
    store.close()


def test_refusals_for_bytes_a_huge_line_and_the_wrong_seat_and_the_seat_plays_on(tmp_path, processes):
    data = tmp_path / "data"
    game_id, codes = new_game(data, "property", [Seat("Ann"), Seat("Bob")], [0, 1], seed=2)
    match = stored(data, game_id)
    awaited = min(match.awaiting)
    waiting, other = SeatProcess(data, codes[1 - awaited]), SeatProcess(data, codes[awaited])
    processes.extend([waiting, other])
    first = waiting.until(lambda m: m["type"] == "state")
    assert first["awaiting"] is False and first["legal"] == []
    waiting.send(b"\n\r\n   \n\xff\xfe not text\n" + b"x" * (3 * MAX_LINE) + b"\nplay 3D 5C\n")
    answers = [waiting.until(lambda m: m["type"] == "refused") for _ in range(3)]
    assert "not UTF-8" in answers[0]["reason"]
    assert "too long" in answers[1]["reason"] and len(answers[1]["command"]) <= 200
    assert answers[2]["command"] == "play 3D 5C" and "not" in answers[2]["reason"]
    legal = other.until(lambda m: m["type"] == "state")["legal"]
    other.send(legal[0] + "\r\n")  # a line ended as Windows ends them
    assert other.until(lambda m: m["type"] != "refused" or pytest.fail(str(m)))["moves"] == 1
    assert waiting.until(lambda m: m["type"] == "state")["moves"] == 1  # reached the other program
    assert not [m for m in waiting.messages if m["type"] == "error"]


@pytest.mark.parametrize("code, words", [
    ("0000-0000", "No game has the join code 0000-0000"),
    ("K7QX", "is not a join code"),
    ("[b]x[/b]", "cannot be in one"),
])
def test_a_wrong_code_is_one_error_line_and_exit_2(tmp_path, code, words):
    new_game(tmp_path / "data", "property", [Seat("Ann"), Seat("Bob")], [0])
    done = subprocess.run([sys.executable, "-m", "cardtable", "--data-dir", str(tmp_path / "data"), "join", code,
                           "--stdio"], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    [line] = done.stdout.splitlines()
    message = json.loads(line)
    assert message["type"] == "error" and words in message["reason"] and set(message) == {"type", "reason"}


def test_a_renewed_code_says_so(tmp_path):
    data = tmp_path / "data"
    game_id, codes = new_game(data, "abundance", [Seat("Ann"), Seat("Bob")], [0])
    store = SaveStore(data)
    store.renew(game_id, 0)
    store.close()
    out = []
    assert stdio.run(SaveStore(data), codes[0], stdin=os.open(os.devnull, os.O_RDONLY),
                     stdout=_Lines(out)) == stdio.WRONG_CODE
    assert [m["type"] for m in out] == ["error"] and "replaced by a new one" in out[0]["reason"]


def test_names_are_data_exactly_as_typed_and_the_lines_are_ascii(tmp_path, processes):
    names = ["[red]Ann[/]", '"}{\\ \'x', "Zoë ✓ 🂡 ＡＮＮ ﷽"]
    data = tmp_path / "data"
    game_id, codes = new_game(data, "property", [Seat(name) for name in names], [0, 1, 2], seed=4)
    programs = [SeatProcess(data, codes[seat]) for seat in range(3)]
    processes.extend(programs)
    for seat, process in enumerate(programs):
        state = process.until(lambda m: m["type"] == "state")
        assert state["name"] == names[seat] and state["view"]["names"] == names
        assert all(line.isascii() and line.endswith(b"\n") and line.count(b"\n") == 1 for line in process.lines)


def test_the_example_client_plays_a_game_to_the_end(tmp_path):
    data = tmp_path / "data"
    game_id, codes = new_game(data, "property", [Seat("Ann"), Seat("Bob", "bot"), Seat("Cleo", "random")], [0])
    done = subprocess.run([sys.executable, str(EXAMPLE), codes[0], "--data-dir", str(data)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("{'type': 'over'")
    assert stored(data, game_id).over


def test_the_readme_shows_the_example_client_as_it_is():
    readme = (EXAMPLE.parent.parent / "README.md").read_text(encoding="utf-8")
    body = EXAMPLE.read_text(encoding="utf-8").split("import sys\n\n", 1)[1]
    assert f"```python\n{body}```" in readme


def test_the_stdio_path_never_imports_textual(tmp_path):
    data = tmp_path / "data"
    _game_id, codes = new_game(data, "property", [Seat("Ann"), Seat("Bob")], [0])
    script = ("import sys; from cardtable.cli import main; status = main(sys.argv[1:]); "
              "print(status, sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich', 'platformdirs'}), "
              "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script, "--data-dir", str(data), "join", codes[0], "--stdio"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.stderr.splitlines()[-1] == f"{stdio.INPUT_ENDED} ['platformdirs']"


# -- in-process: the session and its messages ---------------------------------------------------

class _Lines:
    """A stdout that keeps each JSON line written, parsed."""

    def __init__(self, out: list) -> None:
        self.out = out

    def write(self, text: str) -> None:
        assert text.isascii() and text.endswith("\n") and text.count("\n") == 1
        self.out.append(json.loads(text))

    def flush(self) -> None:
        pass


@pytest.fixture
def session(tmp_path) -> Iterator[tuple[SeatSession, list, SaveStore, str]]:
    store = SaveStore(tmp_path / "data")
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Bob")], seed=9)
    game_id = store.create(match, [0, 1])
    out: list = []
    seat = min(match.awaiting)
    session = SeatSession(store, Joined(game_id, seat), stdio.json_writer(_Lines(out)))
    session.start()
    yield session, out, store, game_id
    session.leave()
    store.close()


def test_a_refused_command_leaves_the_state_as_it_was(session):
    session, out, store, game_id = session
    before = (len(session.match.history), to_plain(session.match.view(session.seat)))
    for text in ("play 3D 5C 7H", "buy", "décliné", "\x00", "play " + "9S " * 500):
        out.clear()
        session.line(text.encode())
        [message] = out
        assert message["type"] == "refused" and message["reason"]
    assert (len(session.match.history), to_plain(session.match.view(session.seat))) == before
    assert len(store.export(game_id)["commands"]) == before[0]


def test_a_spectator_is_refused_in_words(tmp_path):
    store = SaveStore(tmp_path / "data")
    game_id = store.create(Match(rules.find_game("abundance"), [Seat("Ann"), Seat("Bob")], seed=1), [0])
    out: list = []
    session = SeatSession(store, Joined(game_id, None), out.append)
    session.start()
    [state] = out
    assert state["seat"] is None and state["name"] is None and state["legal"] == [] and not state["awaiting"]
    session.line(b"choose 1")
    assert out[-1]["type"] == "refused" and "spectator" in out[-1]["reason"]
    store.close()


def test_moves_taken_back_elsewhere_send_the_whole_log_again(tmp_path):
    store = SaveStore(tmp_path / "data")
    match = Match(rules.find_game("stock-market"), [Seat("Ann"), Seat("Bob")], seed=9)
    game_id = store.create(match, [0, 1])
    seat = min(match.awaiting)
    out: list = []
    session = SeatSession(store, Joined(game_id, seat), out.append)
    session.start()
    session.line(b"buy 3S")  # undoable: it reveals nothing
    assert out[-1]["moves"] == 1 and out[-1]["whole_log"] is False and out[-1]["log"]
    elsewhere = SaveStore(store.root)  # the same seat's table at another screen takes it back
    table = elsewhere.open(game_id).match
    elsewhere.undo(game_id, table, seat)
    session.poll()
    assert out[-1]["type"] == "state" and out[-1]["moves"] == 0 and out[-1]["whole_log"] is True
    assert out[-1]["view"] == to_plain(table.view(seat))
    elsewhere.close()
    store.close()


def test_a_store_that_cannot_be_written_ends_the_process_saying_why(session, monkeypatch):
    session, out, store, game_id = session
    from cardtable.store import SaveError

    def refuse(*args, **kwargs):
        raise SaveError("Games cannot be saved in here: the disk is full.")

    monkeypatch.setattr(store, "_write", refuse)
    with pytest.raises(Stop) as stop:
        session.line(session.match.format(session.match.legal(session.seat)[0]).encode())
    assert stop.value.status == stdio.STORE_FAILED and "disk is full" in stop.value.reason


def test_lines_split_bytes_and_refuse_a_line_too_long_once():
    lines = Lines()
    assert lines.feed(b"a\nb") == [b"a"]
    assert lines.feed(b"c\n\n") == [b"bc", b""]
    long = lines.feed(b"x" * (MAX_LINE + 5))
    assert [len(line) for line in long] == [MAX_LINE + 1]
    assert lines.feed(b"y" * MAX_LINE) == []  # still the same line: dropped
    assert lines.feed(b"zz\nok\n") == [b"ok"]
    assert lines.feed(b"last") == [] and lines.end() == [b"last"]


# -- the view as JSON, in the rules' core --------------------------------------------------------

class Shade(Enum):
    DARK = "dark"


@dataclasses.dataclass(frozen=True)
class Thing:
    cards: tuple
    seats: frozenset
    by: dict
    shade: Shade
    _private: int = 0


def test_to_plain_writes_cards_as_keys_dataclasses_as_objects_and_sets_sorted():
    seven = Card.parse("7S.1")
    value = Thing((seven, Card.parse("JK")), frozenset({10, 2}), {seven: [Shade.DARK], 3: float("nan")}, Shade.DARK)
    assert to_plain(value) == {"cards": ["7S.1", "JK"], "seats": [2, 10], "by": {"7S.1": ["dark"], "3": None},
                               "shade": "dark"}
    with pytest.raises(TypeError):
        to_plain(object())


@pytest.mark.parametrize("game", GAMES)
def test_every_games_views_are_plain_json_from_every_seat(game):
    spec = rules.find_game(game)
    match = Match(spec, [Seat("Ann", "random"), Seat("Bob", "random")], seed=2)
    for _ in range(60):
        for seat in (None, 0, 1):
            plain = to_plain(match.view(seat))
            assert json.loads(json.dumps(plain, allow_nan=False)) == plain and plain["seat"] == seat
        if match.over:
            break
        seat = min(match.awaiting)
        match.submit(seat, match.bot_move(seat))


# -- the input, fuzzed ---------------------------------------------------------------------------

LINE = st.one_of(
    st.binary(max_size=80),
    st.text(max_size=60).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.sampled_from([b"play", b"buy", b"decline", b"play 3D 5C", b"buy KS JH", b"\xef\xbb\xbfdecline", b" \t "]),
    st.integers(0, 40),  # a legal command, when there is one
)


def legal_line(match: Match, index: int) -> bytes:
    legal = match.legal(0)
    return match.format(legal[index % len(legal)]).encode() if legal else b"decline"


def test_any_input_lines_get_an_answer_each_and_never_a_traceback():
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(Path(folder))

        @given(st.lists(LINE, max_size=12), st.sampled_from(GAMES))
        @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        def fuzz(items: list[bytes | int], game: str) -> None:
            match = Match(rules.find_game(game), [Seat("Ann"), Seat("Bob", "random")], seed=len(items))
            game_id = store.create(match, [0])
            out: list = []
            session = SeatSession(store, Joined(game_id, 0), stdio.json_writer(_Lines(out)))
            session.start()
            reader = Lines()
            for raw in (line for item in items for line in (
                    reader.feed(item + b"\n") if isinstance(item, bytes) else [legal_line(session.match, item)])):
                before, moves = len(out), len(session.match.history)
                session.line(raw)
                answers = out[before:]
                if not raw.decode("utf-8", "replace").strip():
                    assert answers == []
                    continue
                assert answers, raw
                first = answers[0]
                assert first["type"] == "refused" or first["moves"] > moves
                if session.over_written:
                    break
            assert len(store.export(game_id)["commands"]) == len(session.match.history)

        fuzz()
        store.close()
