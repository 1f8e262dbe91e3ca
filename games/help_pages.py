"""Splitting a long rules-help topic into pages of one Discord message each."""

from __future__ import annotations

LIMIT = 2000  # one Discord message


def pages(slug: str, name: str, header: str, lines: list[str], footer: str = "") -> dict[str, str]:
    """Split a long topic into ``name``, ``name-2``, ... each within one message.

    Every page but the last ends with a pointer to the next one (``/game rules <slug> <page>``,
    which works in any channel), so a reader can follow on.
    """
    found: list[list[str]] = [[header]]
    for line in lines:
        page = found[-1]
        # Room for the pointer line and the footer on whichever page ends up last.
        if len("\n".join([*page, line])) + 60 + len(footer) > LIMIT and len(page) > 1:
            found.append([f"{header} (continued)"])
        found[-1].append(line)
    if footer:
        found[-1].append(footer)
    names = [name if i == 0 else f"{name}-{i + 1}" for i in range(len(found))]
    out: dict[str, str] = {}
    for i, page in enumerate(found):
        more = f"\nMore: `/game rules {slug} {names[i + 1]}`." if i + 1 < len(found) else ""
        out[names[i]] = "\n".join(page) + more
    return out
