"""`cardtable serve --ssh-port`: the real OpenSSH client, in tmux, joins a seat with its join code
as the user name and plays a move that lands in the store; a wrong code, a command, a terminal
left out, a subsystem and forwarding of any kind get nothing. The door (the throttle) and the
host key without a server."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules
from cardtable.store import CodeError, SaveStore, Throttle
from rules.core import Match, Seat
from serve_helpers import Served, Tmux, children_of, free_port, serving, until

asyncssh = pytest.importorskip("asyncssh", reason="the ssh extra (asyncssh) is not installed")
from cardtable import door as door_module  # noqa: E402
from cardtable.door import Door  # noqa: E402
from cardtable.ssh import HOST_KEY, fingerprint, host_key  # noqa: E402

needs_ssh = pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client (ssh) is not installed")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
QUIET = ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes"]


def remote_game(folder: Path) -> tuple[str, str]:
    """A game of Property, Ann at another screen against a bot: its id and Ann's code."""
    store = SaveStore(folder / "data")
    match = Match(rules.find_game("property"), [Seat("Ann"), Seat("Cleo", "random")], seed=1)
    game_id = store.create(match, [0])
    code = store.codes(game_id)[0]
    store.close()
    return game_id, code


def run_ssh(port: int, user: str, *options: str, command: tuple[str, ...] = (), timeout: float = 60
            ) -> subprocess.CompletedProcess:
    return subprocess.run(["ssh", "-p", str(port), *QUIET, *options, f"{user}@127.0.0.1", *command],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


def apps_of(server: subprocess.Popen) -> list[int]:
    return children_of(server.pid)


@dataclass
class SSHServed:
    server: Served
    port: int
    """The SSH server's."""
    game_id: str
    code: str
    """Ann's join code."""


@pytest.fixture
def ssh_served(tmp_path):
    """`cardtable serve --ssh-port` on a free port, with a game in which Ann plays from elsewhere."""
    game_id, code = remote_game(tmp_path)
    port = free_port()
    with serving(tmp_path, "--ssh-port", str(port)) as server:
        yield SSHServed(server, port, game_id, code)


@needs_ssh
@needs_tmux
def test_ssh_with_a_join_code_opens_the_seat_plays_a_move_and_follows_the_window(tmp_path, ssh_served):
    server, port, game_id, code = ssh_served.server, ssh_served.port, ssh_served.game_id, ssh_served.code
    assert f"ssh -p {port} CODE@127.0.0.1" in server.said
    key = tmp_path / "data" / HOST_KEY
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert fingerprint(asyncssh.read_private_key(key)) in server.said
    terminal = Tmux(tmp_path, ["ssh", "-t", "-p", str(port), *QUIET, f"{code.lower()}@127.0.0.1"])
    try:
        terminal.wait_for("Your move, Ann")
        store = SaveStore(tmp_path / "data")
        match = store.open(game_id).match
        text = match.format(match.legal(0)[0])
        before = len(match.history)
        terminal.send(":")
        terminal.wait_for("Enter plays")  # the command bar is open: what is typed goes there
        terminal.send(text, literal=True)
        terminal.wait_for(f": {text}")
        terminal.send("Enter")
        until(lambda: [0, text] in store.export(game_id)["commands"][before:], 60, f"{text!r} in the store")
        # the table follows the player's window: a wider one moves the log's left edge
        edge = terminal.screen().splitlines()[3].index("▏")
        terminal.resize(130, 34)
        until(lambda: "▏" in (line := terminal.screen().splitlines()[3]) and line.index("▏") > edge, 30,
              "the table redrawn at the new width")
        [app] = apps_of(server.process)
        terminal.send("q")  # leaving the table ends the app (never the menu) and the connection
        terminal.wait_for("ENDED 0")
        assert "Main menu" not in terminal.screen()
        until(lambda: not apps_of(server.process), 30, "the app ended")
        store.close()
    finally:
        terminal.close()


@needs_ssh
def test_a_wrong_code_a_command_no_terminal_and_a_subsystem_get_nothing_but_a_sentence(tmp_path, ssh_served):
    server, port, game_id, code = ssh_served.server, ssh_served.port, ssh_served.game_id, ssh_served.code
    played = SaveStore(tmp_path / "data").export(game_id)["commands"]
    wrong = run_ssh(port, "0000-0000")
    assert wrong.returncode == 255 and wrong.stdout == ""
    assert "cardtable: No game has the join code 0000-0000" in wrong.stderr
    assert "Permission denied" in wrong.stderr
    odd = run_ssh(port, "K7QX")
    assert odd.returncode == 255 and "is not a join code" in odd.stderr
    command = run_ssh(port, code, command=("id",))
    assert command.returncode == 1 and command.stdout == ""
    assert "cardtable runs no commands" in command.stderr and "uid=" not in command.stderr
    plain = run_ssh(port, code, "-T")
    assert plain.returncode == 1 and "cardtable needs a terminal" in plain.stderr
    subsystem = run_ssh(port, code, "-s", command=("sftp",))
    assert subsystem.returncode != 0 and subsystem.stdout == ""
    assert not apps_of(server.process)  # nothing was started for any of them
    assert SaveStore(tmp_path / "data").export(game_id)["commands"] == played


@needs_ssh
def test_forwarding_of_any_kind_is_refused(ssh_served):
    port, code = ssh_served.port, ssh_served.code
    with socket.socket() as target:
        target.bind(("127.0.0.1", 0))
        target.listen()
        target.setblocking(False)
        remote = run_ssh(port, code, "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9")
        assert remote.returncode == 255 and "remote port forwarding failed" in remote.stderr
        here = free_port()
        local = subprocess.Popen(["ssh", "-p", str(port), *QUIET, "-N", "-L",
                                  f"{here}:127.0.0.1:{target.getsockname()[1]}", f"{code}@127.0.0.1"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            def through() -> socket.socket | None:
                try:
                    return socket.create_connection(("127.0.0.1", here), timeout=5)
                except ConnectionRefusedError:
                    return None

            with until(through, 30, "ssh listening for its forward") as forwarded:
                assert forwarded.recv(100) == b""  # the server refused the channel: ssh closed it
            with pytest.raises(BlockingIOError):
                target.accept()  # nothing came through
        finally:
            local.terminate()
            try:
                _out, err = local.communicate(timeout=5)
            except subprocess.TimeoutExpired:  # seen on a loaded machine (it held a worker 30 s): what it said is kept
                local.kill()
                _out, err = local.communicate()
        assert b"open failed" in err


# -- without a server --------------------------------------------------------------------------

def test_the_host_key_is_made_once_and_kept_for_its_owner_only(tmp_path):
    first = host_key(tmp_path)
    path = tmp_path / HOST_KEY
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    again = host_key(tmp_path)
    assert fingerprint(again) == fingerprint(first)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_host_key_is_said_in_words(tmp_path):
    from cardtable.ssh import SSHError

    (tmp_path / HOST_KEY).write_text("not a key")
    os.chmod(tmp_path / HOST_KEY, 0o600)
    with pytest.raises(SSHError, match="cannot be read .* move it away and a new one is made"):
        host_key(tmp_path)


async def test_the_door_makes_wrong_codes_from_one_address_wait_longer_each_time(tmp_path, monkeypatch):
    waits: dict[str, list[float]] = {}
    store = SaveStore(tmp_path / "data")
    store.throttle = Throttle(first=0.5, clock=lambda: 100.0)  # time stands still: each wait is whole
    door = Door(store)
    asking: list[str] = []

    async def sleep(seconds: float) -> None:
        waits.setdefault(asking[-1], []).append(seconds)

    monkeypatch.setattr(door_module.asyncio, "sleep", sleep)

    async def guess(source: str) -> None:
        asking.append(source)
        with pytest.raises(CodeError):
            await door.check("0000-0000", source)

    # three at once from one address take turns: each waits for the one before it to fail
    for _ in range(3):
        await guess("192.0.2.7")
    await asyncio.gather(*(guess("192.0.2.7") for _ in range(2)))
    assert waits["192.0.2.7"] == [0.5, 1.0, 2.0, 4.0]
    await guess("198.51.100.1")  # another address has not guessed: no wait
    assert "198.51.100.1" not in waits
    store.close()


@needs_ssh
@needs_tmux
def test_the_app_ends_with_its_connection(tmp_path, ssh_served):
    server, port, code = ssh_served.server, ssh_served.port, ssh_served.code
    terminal = Tmux(tmp_path, ["ssh", "-t", "-p", str(port), *QUIET, f"{code}@127.0.0.1"])
    try:
        terminal.wait_for("Your move, Ann")
        assert len(apps_of(server.process)) == 1
    finally:
        terminal.close()  # the ssh client dies with its terminal: the connection drops
    until(lambda: not apps_of(server.process), 30, "the app ended with its connection")


@needs_ssh
def test_ssh_only_serves_no_web_server(tmp_path):
    _game_id, code = remote_game(tmp_path)
    port = free_port()
    with serving(tmp_path, "--ssh-port", str(port), "--ssh-only") as server:
        assert "served over SSH only" in server.said and "token" not in server.said
        assert f"ssh -p {port} CODE@127.0.0.1" in server.said
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", server.port), timeout=5).close()
        command = run_ssh(port, code, command=("id",))
        assert command.returncode == 1 and "cardtable runs no commands" in command.stderr


@pytest.mark.parametrize("arguments, words", [
    (["--ssh-only"], "--ssh-only needs --ssh-port PORT"),
    (["--port", "8123", "--ssh-port", "8123"], "need a port each"),
])
def test_serve_says_what_is_wrong_with_its_ssh_options(tmp_path, capsys, arguments, words):
    from cardtable.cli import main

    assert main(["--data-dir", str(tmp_path / "data"), "serve", *arguments]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardtable: ") and words in err
