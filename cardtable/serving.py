"""Where a running `cardtable serve` of a data folder can be reached, so that `cardtable new`
can print the SSH and browser forms of a join code beside `cardtable join CODE`.

`serve` writes ``serving.json`` in the data folder while it runs (its process id, the join page's
address, the SSH command's forms with ``CODE`` in place of the code) and removes it when it
ends; a file left by a server that was killed names a process that is gone and is ignored. It
holds no secret: the join page needs no token, and the codes are not in it."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

FILE = "serving.json"
CODE_VARIABLE = "CARDTABLE_JOIN_CODE"
"""Where `cardtable join` without CODE reads it: a server starting a seat's app passes the code
there, out of the process list that every user of the machine can read."""


@dataclass(frozen=True)
class Serving:
    """A running server's ways in: ``join_page`` (None: SSH only) and ``ssh`` (forms with CODE)."""

    join_page: str | None
    ssh: tuple[str, ...]

    def forms(self, code: str) -> list[str]:
        """The ways a player holding ``code`` reaches their seat through this server."""
        out = [form.replace("CODE", code) for form in self.ssh]
        if self.join_page:
            out.append(f"open {self.join_page} and type {code}")
        return out


@contextmanager
def announced(root: Path, join_page: str | None, ssh: list[str]) -> Iterator[None]:
    """Say where this server can be reached while the block runs (a folder that cannot be
    written only means `new` prints no server forms)."""
    path = Path(root) / FILE
    data = {"pid": os.getpid(), "join_page": join_page, "ssh": ssh}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")
    except OSError:
        pass
    try:
        yield
    finally:
        try:
            if running(root) is not None and json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
                path.unlink()
        except (OSError, ValueError):
            pass


def running(root: Path) -> Serving | None:
    """The server of ``root`` that is running now, if one says so."""
    try:
        data = json.loads((Path(root) / FILE).read_text(encoding="utf-8"))
        pid, page, ssh = data["pid"], data.get("join_page"), data.get("ssh", [])
        if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
            return None
        os.kill(pid, 0)  # gone (killed without tidying up): ProcessLookupError
    except PermissionError:
        pass  # alive, another user's
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not (page is None or isinstance(page, str)) or not isinstance(ssh, list):
        return None
    return Serving(page, tuple(form for form in ssh if isinstance(form, str) and "CODE" in form))
