"""Which bot process owns which guild: Discord's shard formula, shared by the store and the bot."""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: str, count: int) -> int:
    """Discord's documented formula ``(guild_id >> 22) % shard_count``. A guild id that is not a
    snowflake (the console's "console", tests' "g1") belongs to shard 0, as the SQL forms say too."""
    if count <= 1 or not guild_id.isdigit():
        return 0
    return (int(guild_id) >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` out of ``count``. Timers and pending announcements of a
    guild are claimed only by the process that owns the guild's shard."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: str) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def everything(self) -> bool:
        return self.ids >= frozenset(range(self.count))
