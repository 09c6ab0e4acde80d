"""Auctions every game can run: open (bid in turn until the others pass), once around (each
seat speaks once), and sealed (everyone bids at once, in secret).

An auction knows whose turn it is, what the standing bid is and when it is over; the game
decides what a bid is paid with, what the lot is, and what happens when nobody bids. Amounts
are whole numbers (a game that bids with cards bids their total).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import IllegalCommand, RulesError
from .jsonio import read_bool, read_int, read_list, read_object


def _seats(values: Any, what: str) -> list[int]:
    return [read_int(v, what, 0, 9) for v in read_list(values, what)]


@dataclass
class OpenAuction:
    """Seats bid in turn in ``order`` (the opener first), each bid beating the standing one.

    - ``final_pass``: a pass is for good (the seat is out of this auction); otherwise a pass
      holds only until someone bids again.
    - ``once_around``: every seat speaks exactly once, then the auction is over.

    It is over when everyone but the leader has passed since the last bid (or is out), when
    nobody has bid and everyone has passed, or when each seat has spoken once around."""

    order: tuple[int, ...]
    final_pass: bool = False
    once_around: bool = False
    high: int = 0
    leader: int | None = None
    position: int = 0
    passed: list[int] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    spoken: int = 0

    @property
    def done(self) -> bool:
        if self.once_around and self.spoken >= len(self.order):
            return True
        # a loop, not all() over a generator: whose turn it is asks this at every command
        leader, passed, out = self.leader, self.passed, self.out
        for seat in self.order:
            if seat != leader and seat not in passed and seat not in out:
                return False
        return True

    @property
    def to_speak(self) -> int | None:
        """The seat whose bid or pass the auction awaits; None once it is over."""
        if self.done:
            return None
        return self.order[self.position]

    @property
    def minimum(self) -> int:
        """The smallest bid that beats the standing one."""
        return self.high + 1

    @property
    def winner(self) -> int | None:
        """The leader once the auction is over (None: nobody bid)."""
        return self.leader if self.done else None

    def bid(self, seat: int, amount: int) -> None:
        self._check_turn(seat)
        if amount <= self.high:
            raise IllegalCommand(f"A bid must beat the standing bid of {self.high}: bid at least {self.minimum}.")
        self.high, self.leader = amount, seat
        self.passed = []
        self._advance()

    def pass_(self, seat: int) -> None:
        self._check_turn(seat)
        if self.final_pass:
            self.out.append(seat)
        else:
            self.passed.append(seat)
        self._advance()

    def _check_turn(self, seat: int) -> None:
        if self.to_speak != seat:
            raise IllegalCommand("It is not that seat's turn to bid.")

    def _advance(self) -> None:
        self.spoken += 1
        for _ in range(len(self.order)):
            self.position = (self.position + 1) % len(self.order)
            if self.order[self.position] not in self.out:
                return

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "final_pass": self.final_pass, "once_around": self.once_around,
                "high": self.high, "leader": self.leader, "position": self.position,
                "passed": list(self.passed), "out": list(self.out), "spoken": self.spoken}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OpenAuction:
        data = read_object(data, "an auction")
        order = tuple(_seats(data.get("order"), "the auction's order"))
        if not order:
            raise RulesError("an auction needs at least one bidder")
        leader = data.get("leader")
        return cls(order, read_bool(data.get("final_pass", False), "final_pass"),
                   read_bool(data.get("once_around", False), "once_around"),
                   read_int(data.get("high", 0), "the standing bid", 0),
                   None if leader is None else read_int(leader, "the leader", 0, 9),
                   read_int(data.get("position", 0), "the auction's position", 0, len(order) - 1),
                   _seats(data.get("passed", []), "passed"), _seats(data.get("out", []), "out"),
                   read_int(data.get("spoken", 0), "spoken", 0))


@dataclass
class SealedAuction:
    """Every bidder bids once, at the same time, in secret; the bids are kept here until the
    last one is in. ``result`` names the highest bidders (more than one: a tie)."""

    bidders: tuple[int, ...]
    bids: dict[int, int] = field(default_factory=dict)

    @property
    def waiting(self) -> frozenset[int]:
        """The seats whose bid is still to come."""
        return frozenset(seat for seat in self.bidders if seat not in self.bids)

    @property
    def done(self) -> bool:
        return not self.waiting

    def place(self, seat: int, amount: int) -> None:
        if seat not in self.bidders:
            raise IllegalCommand("That seat does not bid in this auction.")
        if seat in self.bids:
            raise IllegalCommand("That seat's bid is already in.")
        if amount < 0:
            raise IllegalCommand("A bid cannot be negative.")
        self.bids[seat] = amount

    def result(self) -> tuple[list[int], int]:
        """(the seats with the highest bid, that bid) once every bid is in."""
        if not self.done:
            raise RulesError("the sealed bids are not all in")
        top = max(self.bids.values())
        return [seat for seat in self.bidders if self.bids[seat] == top], top

    def to_json(self) -> dict[str, Any]:
        return {"bidders": list(self.bidders), "bids": {str(s): b for s, b in sorted(self.bids.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SealedAuction:
        data = read_object(data, "a sealed auction")
        bidders = tuple(_seats(data.get("bidders"), "the bidders"))
        bids: dict[int, int] = {}
        for key, amount in read_object(data.get("bids", {}), "the sealed bids").items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit()) or int(key) not in bidders:
                raise RulesError(f"a sealed bid is for seat {key!r}, which does not bid")
            bids[int(key)] = read_int(amount, "a sealed bid", 0)
        return cls(bidders, bids)


__all__ = ["OpenAuction", "SealedAuction"]
