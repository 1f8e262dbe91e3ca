"""Numbered schema migrations: ``migrations/NNNN_name.sql`` applied in order, once each."""

from __future__ import annotations

import re
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def available() -> list[tuple[int, str]]:
    """(number, sql) for every migration file shipped with the package, in order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


async def current_version(db: aiosqlite.Connection) -> int:
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring the schema up to ``target`` (default: newest). Each migration is its own transaction."""
    version = await current_version(db)
    await db.commit()
    for number, sql in available():
        if number <= version or (target is not None and number > target):
            continue
        # executescript would COMMIT first and run outside our transaction; wrap it explicitly.
        await db.executescript(
            f"BEGIN;\n{sql}\nINSERT INTO schema_migrations (version, applied_at) "
            f"VALUES ({number}, strftime('%s','now'));\nCOMMIT;"
        )
        version = number
    return version
