"""Player names: display names made safe to store and show, and player arguments that name two seats.

``clean_display_name`` is applied where an actor's name enters the host core, so every name the
store, the game state, the boards and the transcripts hold is valid Unicode, visible, on one line
and at most ``MAX_NAME_LENGTH`` characters, as Discord caps display names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

MAX_NAME_LENGTH = 32
FALLBACK_NAME = "player"
# Joiners inside emoji sequences and some scripts' words: the only invisible formatting kept.
_KEPT_FORMAT = {"\u200c", "\u200d"}
# Letters and symbols that draw nothing: names made of them look empty (or like someone else's).
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
_COUNT_WORDS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def clean_display_name(name: str) -> str:
    """``name`` as a safe display name: valid Unicode (a lone surrogate becomes U+FFFD), composed
    (NFC), no control or invisible formatting characters, whitespace collapsed to single spaces,
    at most ``MAX_NAME_LENGTH`` characters, and never empty or all marks ("player" instead)."""
    kept = []
    for char in unicodedata.normalize("NFC", valid_unicode(name)):
        if char.isspace() or char in _BLANK:
            kept.append(" ")
        elif unicodedata.category(char) not in ("Cc", "Cf") or char in _KEPT_FORMAT:
            kept.append(char)
    text = " ".join("".join(kept).split())[:MAX_NAME_LENGTH]
    text = text.rstrip(" " + "".join(_KEPT_FORMAT))  # a cut may end on a space or a joiner
    return text if any(not unicodedata.category(c).startswith("M") for c in text) else FALLBACK_NAME


def valid_unicode(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (a surrogate pair becomes its character),
    so it can be encoded as UTF-8: stored, sent and written to transcripts."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def name_key(name: str) -> str:
    """What two names must share to be the same name when a player is looked up by name."""
    return unicodedata.normalize("NFC", name).casefold()


class AmbiguousPlayer(Exception):
    """A player argument that names more than one seat: two players are called "bob".

    Raised by ``Table.find_seat`` instead of picking one; ``seats`` are the 0-based seats it could
    mean, ``message`` tells the sender how to name one of them (a mention or the seat number ``#n``).
    """

    def __init__(self, word: str, seats: Sequence[int]) -> None:
        self.word = word
        self.seats = tuple(seats)
        count = _COUNT_WORDS.get(len(self.seats), str(len(self.seats)))
        numbers = [f"#{seat + 1}" for seat in self.seats]
        choice = f"{', '.join(numbers[:-1])} or {numbers[-1]}"
        self.message = (
            f"{count} players are called {shown(word.lstrip('@'))}: use a mention or the seat number, {choice}."
        )
        super().__init__(self.message)


def seat_number(word: str) -> int | None:
    """The 0-based seat that ``#n`` names (n counted from 1, ASCII digits), or None if ``word`` is not
    such a number."""
    digits = word.removeprefix("#")
    if digits == word or not (digits.isascii() and digits.isdigit()) or len(digits) > 2 or int(digits) < 1:
        return None
    return int(digits) - 1


def shown(word: str, limit: int = 40) -> str:
    """A word the sender typed, made safe and cut short to be quoted back in a reply."""
    word = "".join(c for c in valid_unicode(word) if unicodedata.category(c) != "Cc")
    return word if len(word) <= limit else word[: limit - 1] + "…"
