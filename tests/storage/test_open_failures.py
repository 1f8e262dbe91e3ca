"""Why a database cannot be opened, as the one line the operator sees: each cause of ``_open_failure``
word for word, the folder checks before SQLite is asked, what ``Store.open`` says for a file that is not
a database or is truncated, and PostgreSQL URLs shown without their password."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import Store, StoreError
from storage.db import _open_failure
from storage.postgres import PostgresStore, _safe


@contextlib.contextmanager
def not_writable(path: Path, mode: int, check: int) -> Iterator[None]:
    """``path`` with ``mode``, and as root (who ignores modes) the immutable flag, which access(2) reports
    as not writable for root too; the test fails (never passes silently) if ``check`` still passes."""
    path.chmod(mode)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    try:
        assert not os.access(path, check), f"cannot take {path} away from this process here"
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o755)


def test_each_cause_is_said_in_one_line(tmp_path: Path):
    where = str(tmp_path / "c.db")
    said = _open_failure(where, sqlite3.DatabaseError("file is not a database"))
    assert (
        said
        == f"cannot open the database {where}: it is not an SQLite database, or it is damaged (file is not a database)"
    )
    said = _open_failure(where, sqlite3.DatabaseError("database disk image is malformed"))
    damaged = "the file is damaged, for example truncated (database disk image is malformed)"
    assert said == f"cannot open the database {where}: {damaged}"
    assert _open_failure(str(tmp_path), sqlite3.OperationalError("unable to open database file")) == (
        f"cannot open the database {tmp_path}: it is a directory, not a file"
    )
    # Whitespace in the driver's text is folded to single spaces; an exception without text is named.
    assert _open_failure(where, sqlite3.OperationalError("disk\n  I/O   error")) == (
        f"cannot open the database {where}: disk I/O error"
    )
    assert _open_failure(where, sqlite3.OperationalError()) == f"cannot open the database {where}: OperationalError"
    assert _open_failure(where, OSError("")) == f"cannot open the database {where}: OSError"


def test_a_folder_that_cannot_be_written_and_a_file_that_cannot_be_read(tmp_path: Path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "c.db").write_bytes(b"")
    where = str(folder / "c.db")
    with not_writable(folder, 0o555, os.W_OK | os.X_OK):
        assert _open_failure(where, sqlite3.OperationalError("unable to open database file")) == (
            f"cannot open the database {where}: the folder {folder} is not writable; SQLite needs to create files "
            "next to the database (unable to open database file)"
        )
    with not_writable(folder / "c.db", 0, os.R_OK | os.W_OK):
        assert _open_failure(where, sqlite3.OperationalError("attempt to write a readonly database")) == (
            f"cannot open the database {where}: the file is not readable and writable "
            "(attempt to write a readonly database)"
        )
    # The file readable and writable again, in a usable folder: the driver's own words.
    assert _open_failure(where, sqlite3.OperationalError("locked")) == f"cannot open the database {where}: locked"
    missing = str(folder / "new.db")  # not there yet: only the folder matters
    assert _open_failure(missing, sqlite3.OperationalError("locked")) == f"cannot open the database {missing}: locked"


async def test_store_open_says_what_is_wrong_with_the_file(tmp_path: Path):
    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n" * 100)
    with pytest.raises(StoreError) as refused:
        await Store.open(notes)
    assert str(refused.value) == (
        f"cannot open the database {notes}: it is not an SQLite database, or it is damaged (file is not a database)"
    )
    path = tmp_path / "cut.db"
    store = await Store.open(path)
    for i in range(200):
        await store.create_game("g", f"c{i}", "tiny-towns", "u1", "ann" * 50, {"pad": "x" * 500}, "1")
    await store.close()
    data = path.read_bytes()
    assert len(data) > 65536 and not Path(f"{path}-wal").exists()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError) as refused:
        await Store.open(path)
    damaged = "the file is damaged, for example truncated (database disk image is malformed)"
    assert str(refused.value) == f"cannot open the database {path}: {damaged}"
    with pytest.raises(StoreError) as refused:
        await Store.open(tmp_path)
    assert str(refused.value) == f"cannot open the database {tmp_path}: it is a directory, not a file"
    blocker = tmp_path / "plain-file"
    blocker.write_text("")
    with pytest.raises(StoreError) as refused:
        await Store.open(blocker / "sub" / "c.db")
    assert str(refused.value) == (
        f"cannot open the database {blocker / 'sub' / 'c.db'}: cannot create its folder {blocker / 'sub'} "
        "(Not a directory)"
    )


def test_urls_are_shown_without_their_password():
    assert _safe("postgresql://bot:s3cret@db.example:5432/conductor") == "postgresql://bot@db.example:5432/conductor"
    assert _safe("postgresql://bot:p@ss@db/conductor") == "postgresql://bot@db/conductor"  # the last @ ends them
    assert _safe("postgresql://:s3cret@db/conductor") == "postgresql://db/conductor"
    assert _safe("postgresql://bot:a://b@db/conductor") == "postgresql://bot@db/conductor"  # "://" in the password
    assert _safe("postgresql://bot:pa:ss@db/conductor") == "postgresql://bot@db/conductor"  # ":" in the password
    assert _safe("postgresql://bot@db/conductor") == "postgresql://bot@db/conductor"
    assert _safe("postgresql://db/conductor") == "postgresql://db/conductor"
    assert _safe("user:pw@db") == "user:pw@db"  # not a URL: left as it is


async def test_a_server_that_is_not_there_is_one_line_without_the_password(postgres_cluster):
    url = postgres_cluster.database_url("nothing").replace(
        f"@127.0.0.1:{postgres_cluster.port}/", ":s3cret@127.0.0.1:1/"
    )
    with pytest.raises(StoreError) as refused:
        await PostgresStore.open(url)
    said = str(refused.value)
    assert said.startswith("cannot open the database postgresql://postgres@127.0.0.1:1/nothing: ")
    assert "s3cret" not in said and "\n" not in said and "  " not in said
    assert "Connect call failed ('127.0.0.1', 1)" in said  # the driver's own words, on one line


async def test_a_damaged_table_is_found_at_open_not_in_the_middle_of_a_command(tmp_path: Path):
    """Opening reads the first page of every table: a table whose pages were overwritten fails Store.open
    with the damaged-file line, although the schema and the migrations table are intact."""
    import sqlite3

    path = tmp_path / "hurt.db"
    store = await Store.open(path)
    await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    await store.close()
    with sqlite3.connect(path) as raw:
        [(root,)] = raw.execute("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'games'")
        [(page_size,)] = raw.execute("PRAGMA page_size")
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size : root * page_size] = b"\xff" * page_size
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as refused:
        await Store.open(path)
    damaged = "the file is damaged, for example truncated (database disk image is malformed)"
    assert str(refused.value) == f"cannot open the database {path}: {damaged}"


async def test_a_name_the_file_system_refuses_is_one_line(tmp_path: Path):
    where = tmp_path / ("a" * 300 + ".db")
    with pytest.raises(StoreError) as refused:
        await Store.open(where)
    assert str(refused.value) == f"cannot open the database {where}: File name too long"


async def test_missing_folders_are_created_and_the_connection_thread_never_holds_the_process(tmp_path: Path):
    where = tmp_path / "a" / "b" / "games.db"
    store = await Store.open(where)
    try:
        assert where.is_file()
        # aiosqlite's worker thread is not a daemon by itself: left running it would keep the process alive.
        assert store.connection._thread.daemon is True
    finally:
        await store.close()


async def test_a_file_sqlite_cannot_create_fails_in_one_line_and_stops_its_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The failed connection's worker thread is waited for, so it never reports to an event loop that has
    closed meanwhile (a traceback at exit). Its stop is made slow here, so a store that did not wait would
    still have the thread running when open fails."""
    import threading
    import time

    import aiosqlite

    stop = aiosqlite.Connection.stop

    def slow_stop(connection: aiosqlite.Connection) -> object:
        connection._tx.put_nowait((None, lambda: time.sleep(0.3)))  # runs on the worker thread first
        return stop(connection)

    monkeypatch.setattr(aiosqlite.Connection, "stop", slow_stop)
    folder = tmp_path / "data"
    folder.mkdir()
    where = folder / "new.db"
    before = set(threading.enumerate())
    with not_writable(folder, 0o555, os.W_OK | os.X_OK), pytest.raises(StoreError) as refused:
        await Store.open(where)
    assert str(refused.value) == (
        f"cannot open the database {where}: the folder {folder} is not writable; SQLite needs to create files "
        "next to the database (unable to open database file)"
    )
    # The failed connection's thread has ended, not been left behind (asyncio's own pool threads aside).
    assert {t for t in threading.enumerate() if not t.name.startswith("asyncio_")} <= before


async def test_without_asyncpg_a_postgresql_url_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch):
    import storage.postgres

    monkeypatch.setattr(storage.postgres, "asyncpg", None)  # as on a machine without the "postgres" extra
    with pytest.raises(StoreError) as refused:
        await PostgresStore.open("postgresql://bot:s3cret@db/conductor")
    assert str(refused.value) == (
        "cannot open the database postgresql://bot@db/conductor: PostgreSQL support is not installed "
        '(pip install -e ".[postgres]")'
    )


def test_a_postgresql_migration_without_a_shared_one_is_refused(monkeypatch: pytest.MonkeyPatch):
    import storage.postgres_migrate

    monkeypatch.setattr(storage.postgres_migrate, "overrides", lambda: {99: "SELECT 1", 98: "SELECT 1", 1: ""})
    with pytest.raises(RuntimeError) as refused:
        storage.postgres_migrate.available_postgres()
    assert str(refused.value) == "PostgreSQL migrations [98, 99] have no shared migration of that number"


async def test_one_postgresql_store_keeps_at_most_ten_connections(postgres_url: str):
    """Each bot process (shard) opens one pool: 1 connection at first, at most 10, within the server's limit."""
    store = await PostgresStore.open(postgres_url)
    try:
        assert (store.pool.get_min_size(), store.pool.get_max_size()) == (1, 10)
    finally:
        await store.close()


async def test_a_postgresql_schema_that_cannot_be_migrated_is_one_line(postgres_url: str):
    """A database holding a table of the store's own name that no migration made: the first migration cannot
    create it, and opening says so in one line, without the password (the pool is closed again)."""
    import asyncpg

    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("CREATE TABLE games (something_else TEXT)")
    finally:
        await connection.close()
    with pytest.raises(StoreError) as refused:
        await PostgresStore.open(postgres_url)
    assert str(refused.value) == f'cannot migrate the database {_safe(postgres_url)}: relation "games" already exists'


def test_migration_files_with_a_gap_in_their_numbers_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import storage.migrate

    for name in ("0001_initial.sql", "0003_later.sql", "README.txt"):
        (tmp_path / name).write_text("SELECT 1;\n")

    class Package:  # the migrations folder as importlib.resources gives it, here with number 2 missing
        @staticmethod
        def files(package: str) -> Path:
            assert package == "storage.migrations"
            return tmp_path

    monkeypatch.setattr(storage.migrate, "resources", Package)
    with pytest.raises(RuntimeError) as refused:
        storage.migrate.available()
    assert str(refused.value) == "migrations must be numbered 1..n without gaps, found [1, 3]"
