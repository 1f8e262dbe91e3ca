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

from storage import DEFAULT_PATH


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

    @property
    def web_link_base(self) -> str | None:
        """Where finished games link to, when the viewer is on."""
        if not self.web_bind:
            return None
        return self.web_url or f"http://{self.web_bind if ':' in self.web_bind else '127.0.0.1:' + self.web_bind}"


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
        web_bind=os.environ.get("WEB_BIND", "").strip() or None,
        web_url=os.environ.get("WEB_URL", "").strip() or None,
    )
