"""Small helpers for the sentences games write in their events and messages."""


def plural(count: int, word: str) -> str:
    """``plural(1, "cell")`` → "1 cell", ``plural(6, "cell")`` → "6 cells"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def dollars(amount: int) -> str:
    """``dollars(8)`` → "$8"."""
    return f"${amount}"
