"""Shared helpers for move notation: tokenising command text and suggesting words."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from games.base import IllegalMove


def tokens(text: str, group: str) -> list[str]:
    """Split ``/group verb args...`` into lower-case words after the group.

    Raises IllegalMove when the text does not start with ``/group``.
    """
    words = text.strip().split()
    if not words or words[0].lower() != f"/{group}":
        raise IllegalMove(f"Commands for this game start with /{group}.")
    return [w.lower() for w in words[1:]]


def suggest(word: str, known: Iterable[str]) -> str:
    """`` (did you mean "x"?)`` for the closest known word, or an empty string."""
    matches = difflib.get_close_matches(word.lower(), list(known), n=1, cutoff=0.6)
    return f' (did you mean "{matches[0]}"?)' if matches else ""


def expect_word(word: str, known: Iterable[str], what: str) -> str:
    """Return ``word`` if it is one of ``known``; otherwise raise a helpful IllegalMove."""
    known_list = list(known)
    if word in known_list:
        return word
    raise IllegalMove(f'Unknown {what} "{word}"{suggest(word, known_list)}. Choose one of: {", ".join(known_list)}.')
