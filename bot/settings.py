"""Settings from the environment and an optional ``.env`` file (see ``.env.example``).

The ``.env`` file is found in this order: ``--env-file PATH`` (a file, or a folder holding ``.env``),
the folder named by ``CONDUCTOR_HOME``, the current folder. A relative ``DATABASE_PATH`` is read
from that file's folder, so ``conductor`` run from anywhere opens the same database.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from storage import DEFAULT_PATH, Shards, is_postgres, sqlite_path
from storage.db import OUTBOX_LEASE_SECONDS


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    database_path: str
    log_level: str
    discord_api_base: str
    discord_gateway_url: str | None
    owner_ids: tuple[int, ...]
    env_file: str | None = None  # the .env that was read (None: none found)
    web_bind: str | None = None  # the replay viewer's host:port (None: off)
    web_url: str | None = None  # its address as players reach it, for links (default http://<web_bind>)
    # DATABASE_URL=postgresql://... : PostgreSQL, shared by several bot processes (None: the SQLite file).
    database_url: str | None = None
    # SHARD_COUNT / SHARD_IDS: this process runs shards ``shard_ids`` of ``shard_count`` (None: unsharded).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # OUTBOX_LEASE_SECONDS: how long an announcement claimed for posting stays with this process before
    # another (or this one's successor, after a crash) may claim it again.
    outbox_lease: float = OUTBOX_LEASE_SECONDS

    @property
    def database(self) -> str:
        """What ``storage.open_store`` opens: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> Shards | None:
        """The shards this process owns (every shard of SHARD_COUNT when SHARD_IDS is empty)."""
        if self.shard_count is None:
            return None
        return Shards(self.shard_count, frozenset(self.shard_ids or range(self.shard_count)))

    @property
    def web_link_base(self) -> str | None:
        """Where finished games link to, when the viewer is on."""
        if not self.web_bind:
            return None
        return self.web_url or f"http://{self.web_bind if ':' in self.web_bind else '127.0.0.1:' + self.web_bind}"


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names it."""


def _shard_settings(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    count_text, ids_text = count_text.strip(), ids_text.replace(",", " ").strip()
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards of the bot)")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise SettingsError(f"SHARD_COUNT must be a whole number of at least 1, not {count_text!r}")
    count = int(count_text)
    words = ids_text.split()
    if any(not w.isdigit() or int(w) >= count for w in words):
        raise SettingsError(f"SHARD_IDS must be shard numbers from 0 to {count - 1}, not {ids_text!r}")
    return count, tuple(sorted({int(w) for w in words})) or None


def find_env_file(env_file: str | None = None) -> Path:
    """Where the settings file is (it may not exist): ``env_file``, else ``$CONDUCTOR_HOME/.env``, else ``./.env``."""
    if env_file:
        path = Path(env_file).expanduser()
        return path / ".env" if path.is_dir() else path
    home = os.environ.get("CONDUCTOR_HOME", "").strip()
    if home:
        return Path(home).expanduser() / ".env"
    return Path(".env")


def load_settings(env_file: str | None = None) -> Settings:
    path = find_env_file(env_file)
    found = path.is_file()
    if found:
        load_dotenv(path, override=False)
    owners = tuple(int(x) for x in os.environ.get("OWNER_IDS", "").replace(",", " ").split() if x.isdigit())
    database = os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH
    url = os.environ.get("DATABASE_URL", "").strip() or None
    if url is not None and not is_postgres(url):
        database, url = sqlite_path(url), None  # sqlite:///path is the SQLite file, as DATABASE_PATH
    shard_count, shard_ids = _shard_settings(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
    if database != ":memory:" and not Path(database).expanduser().is_absolute() and path.parent != Path("."):
        database = str(path.parent / database)
    return Settings(
        discord_token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database_path=database,
        log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        discord_api_base=os.environ.get("DISCORD_API_BASE", "").strip() or "https://discord.com/api/v10",
        discord_gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        owner_ids=owners,
        env_file=str(path) if found else None,
        database_url=url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        web_bind=os.environ.get("WEB_BIND", "").strip() or None,
        web_url=os.environ.get("WEB_URL", "").strip() or None,
        outbox_lease=_lease(os.environ.get("OUTBOX_LEASE_SECONDS", "")),
    )


def _lease(text: str) -> float:
    if not text.strip():
        return OUTBOX_LEASE_SECONDS
    try:
        lease = float(text)
    except ValueError:
        lease = -1.0
    if not lease > 0:  # also NaN
        raise SettingsError(f"OUTBOX_LEASE_SECONDS must be a positive number of seconds, not {text.strip()!r}")
    return lease
