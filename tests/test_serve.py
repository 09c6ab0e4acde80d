"""`cardtable serve`'s parts without a server: the gate (token, cookie, Host, Origin), the names
and addresses it answers to, what it prints, --public-url, and the app process that ends with
its server."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable import serve as serving
from cardtable.serve import ServeError, greeting, machine_addresses, public_address, served_names
from cardtable.web.gate import Gate

ROOT = Path("/saves")


# -- the gate ----------------------------------------------------------------------------------
def test_the_token_and_the_cookie_are_compared_whole_and_differ_at_each_start():
    gate, other = Gate(8000, ["127.0.0.1"]), Gate(8000, ["127.0.0.1"])
    assert gate.token != other.token and len(gate.token) >= 40
    name, value = gate.cookie()
    assert name == "cardtable-8000" and value != gate.token
    assert gate.token_ok(gate.token)
    for wrong in (other.token, gate.token[:-1], gate.token + "x", "", "é" * 43):
        assert not gate.token_ok(wrong)
    assert gate.cookie_ok(value) and not gate.cookie_ok(other.cookie()[1]) and not gate.cookie_ok(None)
    assert not gate.cookie_ok(gate.token)  # the token is not the cookie


def test_the_gate_answers_only_to_the_names_it_gave_out():
    gate = Gate(8000, served_names("127.0.0.1", []))
    for host in ("127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000"):
        assert gate.host_ok(host), host
    for host in ("evil.example:8000", "127.0.0.1", "127.0.0.1:8001", "localhost.:8000", "[::1]", "",
                 None, "127.0.0.1:8000@evil.example", "evil.example/127.0.0.1:8000", "127.0.0.1:port",
                 "127.0.0.1.nip.io:8000", "[::1:8000"):
        assert not gate.host_ok(host), host
    on_80 = Gate(80, ["cards.lan"])
    assert on_80.host_ok("cards.lan") and on_80.host_ok("cards.lan:80")  # the default port left out


def test_a_public_url_is_a_name_and_an_origin_of_the_server():
    gate = Gate(8000, served_names("127.0.0.1", []), "https://cards.example.org/table/")
    assert gate.host_ok("cards.example.org") and gate.host_ok("cards.example.org:443")
    assert gate.host_ok("127.0.0.1:8000")  # a proxy that passes its own Host on
    assert gate.origin_ok("https://cards.example.org") and gate.origin_ok("https://cards.example.org:443")
    assert not gate.origin_ok("http://cards.example.org")
    assert gate.secure("cards.example.org") and not gate.secure("127.0.0.1:8000")


def test_the_gate_lets_in_the_server_s_own_pages_only():
    gate = Gate(8000, served_names("127.0.0.1", []))
    for origin in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        assert gate.origin_ok(origin), origin
    for origin in ("http://evil.example", "http://127.0.0.1:8001", "https://127.0.0.1:8000", "null", "",
                   "file://", "http://127.0.0.1", "ws://127.0.0.1:8000"):
        assert not gate.origin_ok(origin), origin
    assert not Gate(8000, ["127.0.0.1"]).secure("127.0.0.1:8000")


def test_the_refusals_say_how_to_get_in_in_order_host_origin_token_cookie():
    gate = Gate(8000, ["127.0.0.1"])
    name, cookie = gate.cookie()
    host = "127.0.0.1:8000"
    assert gate.refusal(host, None, gate.token, None) is None
    assert gate.refusal(host, "http://127.0.0.1:8000", None, cookie) is None
    assert "does not answer to the name evil.example:8000" in gate.refusal("evil.example:8000", None, gate.token, cookie)
    assert "not another site's" in gate.refusal(host, "http://evil.example", gate.token, cookie)
    assert "That token is not this server's" in gate.refusal(host, None, "wrong", cookie)
    for missing in (None, "forged"):
        assert "This cardtable is private. Open the address" in gate.refusal(host, None, None, missing)


# -- the names, the addresses and what is printed ------------------------------------------------
def test_a_wildcard_server_answers_to_this_machine_s_names_and_addresses(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "table")
    monkeypatch.setattr(socket, "getfqdn", lambda: "table.lan")
    names = served_names("0.0.0.0", ["192.168.1.20"])
    assert {"0.0.0.0", "localhost", "127.0.0.1", "table", "table.lan", "192.168.1.20"} <= set(names)
    assert served_names("192.168.1.20", []) == ["192.168.1.20"]
    assert set(served_names("localhost", [])) == {"localhost", "127.0.0.1", "::1"}


def test_the_machine_s_addresses_leave_out_loopback_and_link_local(monkeypatch):
    answers = {"table": ["127.0.1.1", "192.168.1.20"], "table.lan": ["192.168.1.20", "10.0.0.5", "169.254.3.4"]}
    monkeypatch.setattr(socket, "gethostname", lambda: "table")
    monkeypatch.setattr(socket, "getfqdn", lambda: "table.lan")
    monkeypatch.setattr(socket, "getaddrinfo", lambda name, *_args: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, 0)) for address in answers[name]])
    found = machine_addresses("0.0.0.0")
    assert found[:2] == ["192.168.1.20", "10.0.0.5"]  # and perhaps the route's, found by the kernel
    for address in found:
        assert not address.startswith(("127.", "169.254."))


def test_the_greeting_gives_each_address_with_the_token():
    said = greeting("0.0.0.0", 8000, "TOKEN", ROOT, 8, addresses=["192.168.1.20", "10.0.0.5"])
    assert "cardtable is being served at http://127.0.0.1:8000/?token=TOKEN on this machine" in said
    assert "  http://192.168.1.20:8000/?token=TOKEN\n  http://10.0.0.5:8000/?token=TOKEN\n" in said
    assert "ANYONE ON YOUR NETWORK WHO HAS THE ADDRESS" in said and said.endswith("Press Ctrl+C to stop.")
    v6 = greeting("::", 8000, "TOKEN", ROOT, 8, addresses=["2001:db8::5"])
    assert "http://[::1]:8000/?token=TOKEN" in v6 and "  http://[2001:db8::5]:8000/?token=TOKEN" in v6
    alone = greeting("0.0.0.0", 8000, "TOKEN", ROOT, 8, addresses=[])
    assert "no network address of this machine was found: say how others reach it with --public-url" in alone


def test_the_greeting_of_a_loopback_or_public_server():
    said = greeting("127.0.0.1", 8000, "TOKEN", ROOT, 1)
    assert said.startswith("cardtable is being served at http://127.0.0.1:8000/?token=TOKEN — open it")
    assert "Only this machine can reach it" in said and "At most 1 browser tab can play at once" in said
    public = greeting("0.0.0.0", 8000, "TOKEN", ROOT, 8, public_address("https://cards.example.org/table"),
                      ["192.168.1.20"])
    assert public.startswith("cardtable is being served at https://cards.example.org/table/?token=TOKEN")
    assert "192.168.1.20" not in public


def test_a_public_url_must_be_a_web_address():
    assert public_address("https://cards.example.org") == "https://cards.example.org/"
    assert public_address("http://table.lan:8080/cards/") == "http://table.lan:8080/cards/"
    for bad in ("cards.example.org", "ftp://cards.example.org/", "https://", "https://cards.example.org/?a=1",
                "http://table.lan:port/"):
        with pytest.raises(ServeError, match="--public-url must be an http:// or https:// address"):
            public_address(bad)


def test_serve_refuses_a_cap_below_one_and_a_bad_public_url_in_a_sentence(tmp_path):
    with pytest.raises(ServeError, match=r"--max-tabs must be 1 or more \(not 0\)"):
        serving.serve(tmp_path, max_tabs=0)
    with pytest.raises(ServeError, match="--public-url"):
        serving.serve(tmp_path, public_url="cards.example.org")


# -- the app process ends with its server ----------------------------------------------------------
def test_an_app_whose_server_has_already_gone_ends_at_once():
    """The server may die between starting the app and the app asking to end with it."""
    gone = subprocess.run([sys.executable, "-m", "cardtable.serve_child", "1", "--version"],
                          capture_output=True, timeout=60)
    assert gone.returncode == -signal.SIGTERM and not gone.stdout
    mine = subprocess.run([sys.executable, "-c", "import os, sys; from cardtable.serve_child import main; "
                           "sys.exit(main([str(os.getppid()), '--version']))"], capture_output=True, timeout=60)
    assert mine.returncode == 0 and mine.stdout.startswith(b"cardtable ")
