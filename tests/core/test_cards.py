import pytest

from rules.core import Card, Colour, NotationError, Suit, build_deck, find_card, parse_card, parse_cards, sort_cards


@pytest.mark.parametrize(
    "text, rank, suit",
    [("10H", 10, Suit.HEARTS), ("th", 10, Suit.HEARTS), ("A♠", 1, Suit.SPADES), ("qd", 12, Suit.DIAMONDS),
     ("KC", 13, Suit.CLUBS), (" 2s ", 2, Suit.SPADES)],
)
def test_parse_card_faces(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit, card.copy) == (rank, suit, 0)


def test_joker_and_copy_numbers():
    assert parse_card("JK").is_joker and parse_card("jk.1") == Card(0, None, 1)
    assert parse_card("7S.2") == Card(7, Suit.SPADES, 2)
    assert Card(7, Suit.SPADES, 2).key == "7S.2" and Card(7, Suit.SPADES).key == "7S"


@pytest.mark.parametrize(
    "text, says",
    [("1X", "'X' is not a suit"), ("ZS", "'Z' is not a rank"), ("", "got nothing"), ("7S.x", "copy number"),
     ("11H", "'11' is not a rank")],
)
def test_parse_errors_say_what_was_wrong(text, says):
    with pytest.raises(NotationError, match=says):
        parse_card(text)


def test_notation_round_trip_for_every_card_of_a_multi_deck_build():
    deck = build_deck(decks=3, jokers=2)
    assert len(deck) == 3 * 54 and len({c.key for c in deck}) == len(deck)
    assert all(parse_card(c.key) == c for c in deck)
    assert eval(repr(deck[5]), {"Card": Card}) == deck[5]


def test_colours_and_order():
    assert parse_card("5H").colour is Colour.RED and parse_card("5D").is_red
    assert parse_card("5S").is_black and parse_card("5C").colour is Colour.BLACK
    assert parse_card("JK").colour is None
    assert [c.code for c in sort_cards(parse_cards("2C KS JK 3H AS 3H.1"))] == ["AS", "KS", "3H", "3H", "2C", "JK"]


def test_find_card_resolves_a_face_to_a_physical_card():
    hand = parse_cards("7S.1 7S.2 8H")
    assert find_card(hand, parse_card("7S")) == Card(7, Suit.SPADES, 1)
    assert find_card(hand, parse_card("7S.2")) == Card(7, Suit.SPADES, 2)
    assert find_card(hand, parse_card("9H")) is None


def test_cards_are_equal_when_rank_suit_and_copy_are():
    seven = Card(7, Suit.SPADES, 1)
    assert seven == Card(7, Suit.SPADES, 1) and hash(seven) == hash(Card(7, Suit.SPADES, 1))
    assert seven != Card(7, Suit.SPADES) and seven != Card(7, Suit.CLUBS, 1) and seven != Card(8, Suit.SPADES, 1)
    assert Card(0, None, 1) == Card(0, None, 1) != Card(0, None)
    assert seven != (7, Suit.SPADES, 1) and seven != "7S.1" and seven is not None
    assert build_deck(2) == build_deck(2) and build_deck(2) is not build_deck(2)  # a new list each time
    deck = build_deck(1)
    deck.pop()
    assert len(build_deck(1)) == 52  # changing one does not change the next
