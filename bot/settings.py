"""Settings from the environment and an optional ``.env`` file (see ``.env.example``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

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


def load_settings(env_file: str | None = ".env") -> Settings:
    if env_file:
        load_dotenv(env_file, override=False)
    owners = tuple(int(x) for x in os.environ.get("OWNER_IDS", "").replace(",", " ").split() if x.isdigit())
    return Settings(
        discord_token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH,
        log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        discord_api_base=os.environ.get("DISCORD_API_BASE", "").strip() or "https://discord.com/api/v10",
        discord_gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        owner_ids=owners,
    )
