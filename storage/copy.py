"""``conductor migrate-db``: copy every row of an SQLite database into an empty PostgreSQL one.

Both ends are opened (and so migrated) first, so they have the same schema; every table of the
source (games, seats, moves, timers, settings, the outbox, notes, and whatever later migrations
add) is copied with its ids, in one PostgreSQL transaction, and the id sequences are moved past
the copied ids. Nothing is copied into a database that already holds games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.db import Store, StoreError
from storage.postgres import PostgresStore

# Parents before children (foreign keys); tables not named here follow in name order.
_FIRST = ("games",)
_SKIP = ("schema_migrations",)


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


async def _source_tables(source: Store) -> dict[str, list[str]]:
    names = [
        row[0]
        for row in await source._all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    tables = {}
    for name in sorted((n for n in names if n not in _SKIP), key=lambda n: (n not in _FIRST, n)):
        tables[name] = [row[1] for row in await source._all(f'PRAGMA table_info("{name}")')]
    return tables


async def _target_columns(target: PostgresStore) -> dict[str, dict[str, str]]:
    rows = await target._all(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    found: dict[str, dict[str, str]] = {}
    for table, column, kind in rows:
        found.setdefault(table, {})[column] = kind
    return found


def _coerce(value: Any, kind: str) -> Any:
    """An SQLite value as the PostgreSQL column's type wants it (SQLite does not enforce column types)."""
    if value is None:
        return None
    if kind == "bigint":
        return int(value)
    if kind == "double precision":
        return float(value)
    if kind == "bytea":
        return value if isinstance(value, bytes) else str(value).encode()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


async def copy_sqlite_to_postgres(source: Store, target: PostgresStore) -> list[Copied]:
    """Copy every table; raises StoreError when the target already has games or lacks a table."""
    if await target._one("SELECT 1 FROM games LIMIT 1") is not None:
        raise StoreError("the target database already holds games; migrate-db copies into an empty database only")
    columns = await _target_columns(target)
    plan = []
    for table, source_columns in (await _source_tables(source)).items():
        if table not in columns:
            raise StoreError(f"the target database has no table {table}; are both on the same version?")
        shared = [c for c in source_columns if c in columns[table]]
        listed = ", ".join(f'"{c}"' for c in shared)
        rows = await source._all(f'SELECT {listed} FROM "{table}"')
        kinds = [columns[table][c] for c in shared]
        plan.append((table, shared, [tuple(_coerce(v, k) for v, k in zip(row, kinds, strict=True)) for row in rows]))
    copied = []
    async with target.pool.acquire() as connection, connection.transaction():
        for table, shared, records in plan:
            if records:
                await connection.copy_records_to_table(table, records=records, columns=shared)
            if "id" in shared:  # identity columns: the next new row gets an id past the copied ones
                await connection.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f'(SELECT COALESCE(MAX(id), 0) + 1 FROM "{table}"), false)'
                )
            copied.append(Copied(table, len(records)))
    return copied
