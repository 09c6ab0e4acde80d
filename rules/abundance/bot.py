"""Abundance's bots.

``AbundanceBot`` ("bot") values every trinket by what its suit should pay at this round's sale,
from the rarity it can see coming: the tally so far and the cards still unseen, of which the
rest of this round's pile is an even chance (``expected_pays``; exact in round 4, where every
unseen card is in the last pile). A trinket is worth what it adds to a hand, corners included,
so the third of a suit is worth far more than the first. The match is won on the difference
between the two players, so a card is worth to the bot what it adds to its own sale plus what
it keeps from the other player's: in an open auction it bids on while the price is below the
average of the two; it lets the opener's privilege work for it (an opener who passes gets the
card free if the other passes too); it shades its sealed bids. Between auctions it offers to
buy a trinket that completes a corner (or to sell one at a price that pays it more than the
corner gives the other player) and accepts an offer only if it leaves it better off against
the other player. (A further term for corners still two cards away — the chance that enough of
the suit is still to come and is won — was tried: it made the bot pay too much, and it lost 167
matches of 200 to this one.)

``GreedyBot`` ("greedy") is the simple baseline of the issue: it bids up to what the card's suit
pays under the current rarity order (no corners, no looking ahead), and never trades.

Both see only their seat's view and legal commands.
"""

from __future__ import annotations

import random
from math import ceil
from typing import Sequence

from rules.core import Card, Suit
from rules.core.offers import Accept, Decline, Offer, Side

from .commands import Bid, ChoosePile, Command, Pass, Ready, SealedBid
from .market import ONE_BID, expected_pays, expected_sale
from .state import AUCTION, CHOOSE, SEALED_PHASE, TRADE, AbundanceView

SEALED_SHADE = 0.7  # a sealed bid: this share of what the card is worth to the bot
TRADE_MARGIN = 1.0  # an offer must leave the bot at least this much better off


class _Market:
    """The bot's expected sale values, from one view."""

    def __init__(self, view: AbundanceView) -> None:
        self.view = view
        self.me = view.seat if view.seat is not None else 0
        self.other = 1 - self.me
        self.expected = expected_pays(tuple(view.counts), view.round, view.pile_left)
        self.held = view.held  # counted once, by the view
        self._worth = [expected_sale(held, self.expected) for held in self.held]  # as they stand

    def worth(self, seat: int, add: Sequence[Card] = (), remove: Sequence[Card] = ()) -> float:
        if not add and not remove:
            return self._worth[seat]
        held = list(self.held[seat])
        for card in add:
            held[card.suit.order] += 1  # type: ignore[union-attr]
        for card in remove:
            held[card.suit.order] -= 1  # type: ignore[union-attr]
        return expected_sale(held, self.expected)

    def gain(self, seat: int, card: Card) -> float:
        """What ``card`` adds to ``seat``'s sale (by its suit alone)."""
        held = list(self.held[seat])
        held[card.suit.order] += 1  # type: ignore[union-attr]
        return expected_sale(held, self.expected) - self._worth[seat]

    def loss(self, seat: int, card: Card) -> float:
        """What giving up ``card`` takes from ``seat``'s sale (by its suit alone, as ``gain``)."""
        held = list(self.held[seat])
        held[card.suit.order] -= 1  # type: ignore[union-attr]
        return self._worth[seat] - expected_sale(held, self.expected)

    def swing(self, card: Card) -> float:
        """What the card is worth to the bot against the other player: the most it should pay
        in an open auction (winning at p beats losing it at p while p is below the average of
        the two players' gains)."""
        return (self.gain(self.me, card) + self.gain(self.other, card)) / 2

    def deal_gain(self, give: Side, take: Side, proposer: int) -> float:
        """How much better off (against the other player) a deal leaves the bot."""
        responder = 1 - proposer
        after = {proposer: self.worth(proposer, add=take.cards, remove=give.cards),
                 responder: self.worth(responder, add=give.cards, remove=take.cards)}
        money = {proposer: take.money - give.money, responder: give.money - take.money}
        mine = after[self.me] - self.worth(self.me) + money[self.me]
        theirs = after[self.other] - self.worth(self.other) + money[self.other]
        return mine - theirs


class AbundanceBot:
    """The strong bot: see the module's docstring."""

    def choose(self, view: AbundanceView, legal: Sequence[Command], rng: random.Random) -> Command:
        if view.phase == CHOOSE:
            return rng.choice(list(legal))  # the piles are face down: any will do
        market = _Market(view)
        if view.phase == TRADE:
            return self._trade(view, legal, market)
        money = view.money[market.me]
        if view.phase == SEALED_PHASE:
            bid = int(market.swing(view.card) * SEALED_SHADE)  # type: ignore[arg-type]
            return SealedBid(max(0, min(bid, money)))
        if view.phase == AUCTION and view.auction is not None:
            return self._open(view, market, money)
        return legal[0]

    @staticmethod
    def _open(view: AbundanceView, market: _Market, money: int) -> Command:
        auction = view.auction
        limit = market.swing(view.card)  # type: ignore[arg-type]
        minimum = auction.minimum  # type: ignore[union-attr]
        me_first = auction.opener == market.me  # type: ignore[union-attr]
        if view.auction_kind == ONE_BID:
            if me_first:
                # one say each: bid what the card is worth against the other player (shaded a
                # little), which the other can only beat by paying more than it is worth
                bid = min(money, int(limit * 0.8))
                return Bid(bid) if bid >= minimum else Pass()
            return Bid(minimum) if minimum <= min(limit, money) else Pass()
        if me_first and auction.leader is None and not auction.spoken:  # type: ignore[union-attr]
            return Pass()  # the opener loses nothing by passing: a pass back gives it the card free
        if auction.leader == market.me:  # type: ignore[union-attr]
            return Pass()  # cannot happen in a two-player open auction; safe all the same
        if minimum <= money and minimum < limit:
            return Bid(minimum)
        return Pass()

    @staticmethod
    def _trade(view: AbundanceView, legal: Sequence[Command], market: _Market) -> Command:
        if view.offer is not None:
            gain = market.deal_gain(view.offer.give, view.offer.take, view.offer.proposer)
            return Accept() if gain >= TRADE_MARGIN and Accept() in legal else Decline()
        if not view.offered[market.me]:
            offer = _best_offer(view, market)
            if offer is not None:
                return offer
        return Ready()


def _best_offer(view: AbundanceView, market: _Market) -> Offer | None:
    """The offer that helps the bot most against the other player while still paying the other
    player (judging by its own sale alone): buy a trinket that is worth more to the bot than to
    its holder (mostly: the one that makes a corner), or sell one for more than it fetches the
    bot but less than it adds to the buyer."""
    me, other = market.me, market.other
    best: tuple[float, Offer] | None = None
    # a card's offer and its worth depend on its suit alone, and a later card must be worth
    # more to win: only the first card of each suit in a hand is weighed
    seen: list[Suit | None] = []  # a list: an Enum's hash is a Python call
    for card in view.trinkets[other]:
        if card.suit in seen:
            continue
        seen.append(card.suit)
        gain, loss = market.gain(me, card), market.loss(other, card)
        price = ceil(loss + (gain - loss) / 4)
        if gain - loss > 2 and price <= view.money[me] and gain + loss - 2 * price >= TRADE_MARGIN:
            candidate = Offer(None, Side(money=price), Side(cards=(card,)))
            worth = gain + loss - 2 * price
            if best is None or worth > best[0]:
                best = (worth, candidate)
    seen = []
    for card in view.trinkets[me]:
        if card.suit in seen:
            continue
        seen.append(card.suit)
        gain, loss = market.gain(other, card), market.loss(me, card)
        price = int(gain - (gain - loss) / 4)
        if gain - loss > 2 and 0 < price <= view.money[other] and 2 * price - gain - loss >= TRADE_MARGIN:
            candidate = Offer(None, Side(cards=(card,)), Side(money=price))
            worth = 2 * price - gain - loss
            if best is None or worth > best[0]:
                best = (worth, candidate)
    return None if best is None else best[1]


class GreedyBot:
    """The baseline: bids up to what the card's suit pays under the current rarity order,
    never trades (always ready, declines every offer)."""

    def choose(self, view: AbundanceView, legal: Sequence[Command], rng: random.Random) -> Command:
        if view.phase == CHOOSE:
            return next(c for c in legal if isinstance(c, ChoosePile))
        if view.phase == TRADE:
            return Decline() if view.offer is not None else Ready()
        seat = view.seat if view.seat is not None else 0
        money = view.money[seat]
        value = view.pays[view.card.suit.order]  # type: ignore[union-attr]
        if view.phase == SEALED_PHASE:
            return SealedBid(min(value, money))
        minimum = view.auction.minimum  # type: ignore[union-attr]
        if minimum > min(value, money):
            return Pass()
        if view.auction_kind == ONE_BID:
            return Bid(min(value, money))
        return Bid(minimum)


__all__ = ["AbundanceBot", "GreedyBot"]
