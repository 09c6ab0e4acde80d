"""Several screens on one game, each a real app on the same store (as two processes would be,
each with its own connection): a move made at one appears at the other through the store's
polling; a sealed decision is asked of both at once; a joined seat never sees a curtain; a
remote seat is never curtained nor played at the screen that holds the game; the spectators'
view is public and read-only; away and back; bots played once with two screens open; two people
at one screen with a third at their own."""

from __future__ import annotations

import pytest
from textual._context import active_app

import rules
from rules.core import Match, Seat

from cardtable.app import CardtableApp
from cardtable.screens.handoff import HandoffScreen
from cardtable.screens.table import TableScreen
from cardtable.settings import Settings
from cardtable.store import Joined, SaveStore
from cardtable.store import seats as store_seats
from cardtable.widgets import GameLog
from pilot_helpers import drawn, screen_text
from tiny_game import pile  # noqa: F401  (a fixture)

SIZE = (100, 30)


async def until(pilot, done, what: str, rounds: int = 200) -> None:
    """Let the app run, polling included, until ``done()`` (at most ``rounds`` × 50 ms)."""
    for _ in range(rounds):
        if done():
            return
        await pilot.pause(0.05)
    pytest.fail(f"never got there: {what}")


def screen_app(store: SaveStore, game_id: str, joined: Joined | None = None) -> CardtableApp:
    """A cardtable on the game: the holder's (``joined`` None) or a joined seat's, each with a
    store of its own on the same folder (a connection of its own, as another process has)."""
    own = SaveStore(store.root)
    opened = own.open(game_id)
    return CardtableApp(store=own, settings=Settings(bot_delay=0), match=opened.match, game_id=game_id,
                        joined=joined)


def table(app: CardtableApp) -> TableScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, TableScreen))


def play(app: CardtableApp, command: str) -> bool:
    """``command`` typed at ``app``'s table, as its player would. Two apps run in this test's
    loop and a screen finds its app through Textual's context (the last one started): what the
    table does (a curtain pushed) must go to its own app, as it does in its own process."""
    token = active_app.set(app)
    try:
        return table(app).submit(command)
    finally:
        active_app.reset(token)


def new_game(tmp_path, spec, seats, remote, seed=1):
    store = SaveStore(tmp_path / "data")
    game_id = store.create(Match(spec, seats, seed=seed), remote)
    return store, game_id, store.codes(game_id)


async def test_two_screens_play_one_game_each_its_own_seat(tmp_path, pile):
    store, game_id, codes = new_game(tmp_path, pile, [Seat("Ann"), Seat("Bob")], remote=[1])
    holder = screen_app(store, game_id)
    joined = screen_app(store, game_id, store.join(codes[1]))
    async with holder.run_test(size=SIZE) as ann, joined.run_test(size=SIZE) as bob:
        at_ann, at_bob = table(holder), table(joined)
        # drawn, not only mounted: a screen read between the two shows half a table
        await until(ann, lambda: at_ann.is_mounted and at_bob.is_mounted and drawn(at_ann) and drawn(at_bob),
                    "both tables drawn")
        assert at_ann.humans == (0,) and at_ann.elsewhere == (1,) and at_ann.viewer == 0
        assert at_bob.humans == (1,) and at_bob.elsewhere == (0,) and at_bob.viewer == 1
        # each sees its own hand only, and no curtain anywhere
        assert "7♠" in screen_text(holder) and "8♠" not in screen_text(holder)
        assert "8♠" in screen_text(joined) and "7♠" not in screen_text(joined)
        assert play(joined, "take 1") is False  # not Bob's move: refused, nothing written
        assert play(holder, "take 1")
        await until(bob, lambda: len(at_bob.match.history) == 1, "Ann's move at Bob's screen")
        assert "  took 1" in at_bob.query_one(GameLog).plain
        at_ann._be_here()  # as its next beat would (every PRESENCE_SECONDS): Bob's screen is open
        assert "Bob (at another screen)" in str(at_ann.status_text())
        assert "Your move, Bob" in str(at_bob.status_text())
        assert play(joined, "take 1")
        await until(ann, lambda: len(at_ann.match.history) == 2, "Bob's move at Ann's screen")
        # the pile is at 3: both guess at once, each at their own screen
        assert at_ann.match.awaiting == {0, 1} == at_bob.match.awaiting
        assert at_ann.my_turn and at_bob.my_turn
        assert play(joined, "guess 2") and play(holder, "guess 1")
        await until(bob, lambda: len(at_bob.match.history) == 4, "both guesses at both screens")
        await until(ann, lambda: len(at_ann.match.history) == 4, "both guesses at both screens")
        for app in (holder, joined):
            assert not any(isinstance(screen, HandoffScreen) for screen in app.screen_stack)
        commands = SaveStore(store.root).export(game_id)["commands"]
        assert commands == [[0, "take 1"], [1, "take 1"], [1, "guess 2"], [0, "guess 1"]]


async def test_a_remote_seat_is_never_curtained_nor_played_here_and_shows_as_away(tmp_path, pile):
    store, game_id, codes = new_game(tmp_path, pile, [Seat("Ann"), Seat("Bob")], remote=[1])
    holder = screen_app(store, game_id)
    async with holder.run_test(size=SIZE) as ann:
        at_ann = table(holder)
        await until(ann, lambda: at_ann.is_mounted, "the table")
        assert play(holder, "take 1")
        await ann.pause()
        # Bob's turn: no curtain for him here, Ann's hand stays, nothing can be played for Bob
        assert not any(isinstance(screen, HandoffScreen) for screen in holder.screen_stack)
        assert at_ann.viewer == 0 and "7♠" in screen_text(holder)
        assert play(holder, "take 1") is False and len(at_ann.match.history) == 1
        # no screen of Bob's has been open: he is away
        await until(ann, lambda: 1 in at_ann.away, "Bob away")
        assert "Bob (away" in screen_text(holder)
        # Bob joins: present again, and he plays
        joined = screen_app(store, game_id, store.join(codes[1]))
        async with joined.run_test(size=SIZE) as bob:
            at_bob = table(joined)
            await until(bob, lambda: at_bob.is_mounted, "Bob's table")
            at_ann._be_here()  # as its next beat would (every PRESENCE_SECONDS)
            assert at_ann.away == frozenset() and "Bob (at another screen)" in str(at_ann.status_text())
            assert play(joined, "take 1")
            await until(ann, lambda: len(at_ann.match.history) == 2, "Bob's move")
        # Bob's screen closed: his presence is gone at once
        at_ann._be_here()
        assert at_ann.away == {1}
        # joining again resumes where the game is
        again = screen_app(store, game_id, store.join(codes[1]))
        async with again.run_test(size=SIZE) as bob:
            at_bob = table(again)
            await until(bob, lambda: at_bob.is_mounted, "Bob's table again")
            assert len(at_bob.match.history) == 2 and at_bob.my_turn


async def test_the_spectators_view_is_public_read_only_and_live(tmp_path, pile):
    store, game_id, codes = new_game(tmp_path, pile, [Seat("Ann"), Seat("Bob")], remote=[1])
    holder = screen_app(store, game_id)
    watcher = screen_app(store, game_id, store.join(codes[None]))
    async with holder.run_test(size=SIZE) as ann, watcher.run_test(size=SIZE) as eve:
        at_ann, seen = table(holder), table(watcher)
        await until(eve, lambda: seen.is_mounted and at_ann.is_mounted and drawn(seen) and drawn(at_ann),
                    "both tables drawn")
        assert seen.watching and seen.viewer is None and seen.humans == ()
        shot = screen_text(watcher)
        assert "7♠" not in shot and "8♠" not in shot and "You are watching" in shot
        assert not any(isinstance(screen, HandoffScreen) for screen in watcher.screen_stack)
        assert play(watcher, "take 1") is False
        assert play(holder, "take 2")
        await until(eve, lambda: len(seen.match.history) == 1, "Ann's move at the spectator's")
        assert "  took 2" in seen.query_one(GameLog).plain
        assert len(SaveStore(store.root).export(game_id)["commands"]) == 1


async def test_bots_are_played_once_with_two_screens_open(tmp_path):
    spec = rules.find_game("abundance")
    store, game_id, codes = new_game(tmp_path, spec, [Seat("Ann"), Seat("Cleo", "random")], remote=[0], seed=4)
    first = screen_app(store, game_id, store.join(codes[0]))
    second = screen_app(store, game_id, store.join(codes[0]))  # Ann's seat open at two screens
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        a, b = table(first), table(second)
        await until(one, lambda: a.is_mounted and b.is_mounted, "both tables")
        for _ in range(12):
            await until(one, lambda: a.match.over or 0 in a.match.awaiting, "Ann awaited at the first")
            if a.match.over:
                break
            moves = len(a.match.history)
            assert play(first, a.match.format(a.match.legal(0)[0]))
            await until(two, lambda: len(b.match.history) > moves, "the move at the second")
        await until(two, lambda: b.match.history == a.match.history or len(b.match.history) == len(a.match.history),
                    "both alike")
        stored = SaveStore(store.root).export(game_id)["commands"]
        assert [p.text for p in a.match.history] == [text for _seat, text in stored]
        assert any(seat == 1 for seat, _text in stored)  # the bot played, each of its moves once


async def test_two_people_at_one_screen_with_a_curtain_and_a_third_at_their_own(tmp_path):
    spec = rules.find_game("stock-market")  # its table opens no dialog by itself
    store, game_id, codes = new_game(tmp_path, spec, [Seat("Ann"), Seat("Bob"), Seat("Cleo")], remote=[2])
    holder = screen_app(store, game_id)
    joined = screen_app(store, game_id, store.join(codes[2]))
    async with holder.run_test(size=SIZE) as here, joined.run_test(size=SIZE) as there:
        at_here, at_cleo = table(holder), table(joined)
        await until(there, lambda: at_cleo.is_mounted and at_here.is_mounted, "both tables")
        assert at_here.humans == (0, 1) and at_here.elsewhere == (2,)
        assert at_cleo.humans == (2,) and at_cleo.viewer == 2
        seen_curtain_for = set()
        for _ in range(40):
            match = at_here.match
            if match.over:
                break
            awaited = sorted(match.awaiting)
            if 2 in awaited:
                assert 2 not in seen_curtain_for
                moves = len(at_cleo.match.history)
                await until(there, lambda: len(at_cleo.match.history) >= len(match.history), "Cleo caught up")
                assert play(joined, at_cleo.match.format(at_cleo.match.legal(2)[0]))
                await until(here, lambda: len(at_here.match.history) > moves, "Cleo's move here")
                continue
            seat = awaited[0]
            await until(here, lambda: at_here.viewer == seat or isinstance(holder.screen, HandoffScreen),
                        "the seat's screen or the curtain")
            if isinstance(holder.screen, HandoffScreen):
                await until(here, lambda: f"Pass to {match.names[seat]}" in screen_text(holder), "the curtain drawn")
                seen_curtain_for.add(seat)
                await here.press("enter")
                await here.pause()
            await until(here, lambda: at_here.viewer == seat, "the seat's screen")
            moves = len(match.history)
            assert play(holder, match.format(match.legal(seat)[0]))
            await until(here, lambda: len(at_here.match.history) > moves, "the move")
        assert seen_curtain_for and seen_curtain_for <= {0, 1}  # the curtain only between Ann and Bob
        assert any(seat == 2 for seat, _ in SaveStore(store.root).export(game_id)["commands"])


def menu_app(store: SaveStore) -> CardtableApp:
    return CardtableApp(store=SaveStore(store.root), settings=Settings(bot_delay=0))


async def press_for(pilot, key: str, kind: type) -> None:
    """Press ``key`` and wait for the screen of ``kind`` it opens."""
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), f"{kind.__name__} after {key}")


def test_presence_seconds_are_shorter_than_away():
    assert store_seats.PRESENCE_SECONDS * 3 <= store_seats.AWAY_SECONDS


async def test_join_a_game_from_the_menu_says_why_a_code_is_wrong_and_stays(tmp_path, pile):
    from cardtable.screens.join import JoinScreen

    store, game_id, codes = new_game(tmp_path, pile, [Seat("Ann"), Seat("Bob")], remote=[1])
    app = menu_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await press_for(pilot, "j", JoinScreen)
        for wrong, words in (("K7QX", "is not a join code"), ("0000-0000", "No game has the join code")):
            app.screen.query_one("#join-code").value = wrong
            await pilot.press("enter")
            await until(pilot, lambda: words in screen_text(app), f"the sentence for {wrong}")
            assert isinstance(app.screen, JoinScreen)
        app.screen.query_one("#join-code").value = codes[1].lower().replace("-", " ")
        await pilot.press("enter")
        await until(pilot, lambda: any(isinstance(s, TableScreen) for s in app.screen_stack), "Bob's table")
        assert table(app).humans == (1,) and table(app).viewer == 1


async def test_the_saves_screen_shows_a_games_codes_and_renews_one(tmp_path, pile):
    from cardtable.screens.join import CodesScreen
    from cardtable.screens.resume import ResumeScreen

    store, game_id, codes = new_game(tmp_path, pile, [Seat("Ann"), Seat("[red]Bob[/]")], remote=[1])
    app = menu_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await press_for(pilot, "r", ResumeScreen)
        await pilot.pause()
        await press_for(pilot, "c", CodesScreen)
        await until(pilot, lambda: codes[1] in screen_text(app), "the codes drawn")
        shot = screen_text(app)
        assert f"[red]Bob[/]: {codes[1]}" in shot and f"Spectators: {codes[None]}" in shot
        await pilot.press("n")  # the first line: Bob's
        await until(pilot, lambda: codes[1] not in screen_text(app), "Bob's new code")
    new = store.codes(game_id)[1]
    assert new != codes[1] and store.join(new) == Joined(game_id, 1)
    with pytest.raises(LookupError, match="replaced"):
        store.join(codes[1])
