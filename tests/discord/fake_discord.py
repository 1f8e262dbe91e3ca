"""A small local Discord: the gateway and REST subset the bot uses, validating like Discord.

Test infrastructure only. An aiohttp server on 127.0.0.1 (random port) that

* speaks the gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE (one guild with roles,
  text channels and members), heartbeat ACKs, RESUME, and dispatches INTERACTION_CREATE;
* shards like Discord: more guilds can be added (``add_guild``); an IDENTIFY with
  ``shard: [id, count]`` gets the guilds with ``(guild_id >> 22) % count == id``, and each
  guild's events go to the connection of its shard only;
* serves the REST routes the bot calls (login, command registration, interaction callbacks
  as JSON or multipart, follow-up and @original webhooks, channel messages, threads);
* validates what it receives the way Discord does (message and component limits, the
  3-second callback deadline, one callback per interaction, decodable attachments) and
  answers 400/404 like Discord when something is wrong;
* records every request; anything it does not know is a 404 and recorded in ``unknown``.

Tests drive it with ``slash()``, ``click()`` and ``autocomplete()``, which dispatch an
interaction for a user and return an ``InteractionRecord`` to wait on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord.limits import choice_problems, command_problems, message_problems

# ----- permissions (Discord bit numbers) -------------------------------------------------
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
ALL_PERMISSIONS = (1 << 50) - 1

EPHEMERAL, LOADING = 1 << 6, 1 << 7
CALLBACK_DEADLINE = 3.0
GUILDS_INTENT = 1 << 0


def snowflakes() -> Callable[[], int]:
    counter = itertools.count(1)
    base = (int(time.time() * 1000) - 1420070400000) << 22
    return lambda: base + next(counter)


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord labels it: discord.py only parses ``application/json`` without a charset."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Attachment:
    id: int
    filename: str
    description: str | None
    data: bytes

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": f"https://cdn.invalid/{self.id}/{self.filename}",
            "proxy_url": f"https://media.invalid/{self.id}/{self.filename}",
            "content_type": "image/png" if self.filename.endswith(".png") else "text/plain",
            **({"description": self.description} if self.description else {}),
        }


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    flags: int = 0
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: only this user sees it
    deleted: bool = False
    edits: int = 0
    created: float = field(default_factory=time.monotonic)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", []) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for row in self.components:
            for item in row.get("components", []):
                if item.get("custom_id") == custom_id:
                    return item
        return None

    def mentioned_users(self) -> list[int]:
        """Users this message really pings: mentioned in the text and allowed by allowed_mentions."""
        found = [int(x) for x in re.findall(r"<@!?(\d+)>", self.content)]
        allowed = self.allowed_mentions
        if allowed is None:
            return found
        users = {int(u) for u in allowed.get("users", [])}
        return [u for u in found if u in users or "users" in allowed.get("parse", [])]


@dataclass
class InteractionRecord:
    """One dispatched interaction and everything the bot answered to it."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    dispatched_at: float = field(default_factory=time.monotonic)
    component_message: int | None = None
    callback_type: int | None = None
    callback_at: float | None = None
    callbacks: int = 0
    original: int | None = None
    message_ids: list[int] = field(default_factory=list)
    original_deleted: bool = False
    choices: list[dict[str, Any]] | None = None
    answered_at: float | None = None  # first real content (not a loading state)
    shard: int = 0  # the gateway shard it was dispatched on (its guild's)
    handled: bool = False  # the bot reported that its handling of this interaction has ended

    @property
    def messages(self) -> list[Message]:
        return [self.fake.messages[m] for m in self.message_ids if not self.fake.messages[m].deleted]

    @property
    def public(self) -> list[Message]:
        return [m for m in self.messages if not m.ephemeral and not m.loading]

    @property
    def ephemeral(self) -> list[Message]:
        return [m for m in self.messages if m.ephemeral and not m.loading]

    @property
    def text(self) -> str:
        return "\n".join(m.content for m in self.messages if not m.loading)

    @property
    def private_text(self) -> str:
        return "\n".join(m.content for m in self.ephemeral)

    @property
    def public_text(self) -> str:
        return "\n".join(m.content for m in self.public)

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    def latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.dispatched_at

    async def wait(
        self, predicate: Callable[[InteractionRecord], bool] | None = None, timeout: float = 15.0
    ) -> InteractionRecord:
        """Until ``predicate`` holds (default: the bot has answered with real content)."""
        check = predicate or (lambda r: r.answered)
        await self.fake.wait_until(lambda: check(self), timeout)
        return self

    async def settle(self, timeout: float = 15.0) -> InteractionRecord:
        """Answered, and the bot has reported that it finished handling the interaction: every
        response, follow-up and edit of it was sent before that report (the bot runs with
        CONDUCTOR_TEST_REPORT_HANDLED=1, see bot/discord/testhooks.py)."""
        return await self.wait(lambda r: r.answered and r.handled, timeout)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    at: float
    status: int = 0
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)


RECORD = web.RequestKey("record", Recorded)


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class FakeDiscord:
    GUILD = 900000000000000001
    APP = 900000000000000002  # application id = bot user id
    OWNER = 900000000000000003  # owns the application
    ANN, BOB, CAT, MOD, PAL = (
        900000000000000101,
        900000000000000102,
        900000000000000103,
        900000000000000104,
        900000000000000105,
    )
    MODERATORS, HELPERS, BOT_ROLE = 900000000000000201, 900000000000000202, 900000000000000203
    GENERAL, GAMES, QUIET = 900000000000000301, 900000000000000302, 900000000000000303
    TOKEN = "fake-token"
    NAMES = {ANN: "ann", BOB: "bob", CAT: "cat", MOD: "mod", PAL: "pal", OWNER: "owner"}

    def __init__(self, extra_channels: int = 0) -> None:
        self.guild_ids = [self.GUILD]
        self.guild_of: dict[int, int] = {}  # channel id -> guild id (channels of GUILD are not listed)
        self.next_id = snowflakes()
        self.requests: list[Recorded] = []
        self.violations: list[str] = []
        self.unknown: list[str] = []
        self.identifies: list[dict[str, Any]] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.faults: list[tuple[str, re.Pattern[str], int, int, str]] = []
        self.port = 0
        self._shards: dict[int, web.WebSocketResponse] = {}  # shard id -> its live connection
        self._shard_count = 1
        self._seqs: dict[int, int] = {}  # id(ws) -> its sequence number
        self._session_shard: dict[str, int] = {}
        self._sessions: set[str] = set()
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.roles = [
            {"id": str(self.GUILD), "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS)},
            {"id": str(self.MODERATORS), "name": "Moderators", "permissions": str(MANAGE_CHANNELS)},
            {"id": str(self.HELPERS), "name": "Helpers", "permissions": "0"},
            {"id": str(self.BOT_ROLE), "name": "Conductor", "permissions": str(MANAGE_THREADS), "managed": True},
        ]
        self.users = {uid: self._user(uid, name) for uid, name in self.NAMES.items()}
        self.users[self.APP] = self._user(self.APP, "Conductor", bot=True)
        self.member_roles = {self.MOD: [self.MODERATORS], self.PAL: [self.HELPERS], self.APP: [self.BOT_ROLE]}
        self.channels: dict[int, dict[str, Any]] = {}
        for cid, name in ((self.GENERAL, "general"), (self.GAMES, "games"), (self.QUIET, "quiet")):
            self._add_text_channel(cid, name)
        # The bot may not post in #quiet: timer posts there get 403, which must not break anything.
        self.channels[self.QUIET]["permission_overwrites"] = [
            {"id": str(self.APP), "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)}
        ]
        self.extra_channels = [self._add_text_channel(None, f"table-{i}") for i in range(extra_channels)]

    # ----- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self._shards.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def fail_next(self, method: str, path_pattern: str, status: int, code: int, message: str = "Injected") -> None:
        """Make the next matching REST request fail like Discord would (403, 404, ...)."""
        self.faults.append((method.upper(), re.compile(path_pattern), status, code, message))

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 15.0) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ----- guild model -----------------------------------------------------------------

    def _user(self, uid: int, name: str, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(uid),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def add_guild(self, guild_id: int, channels: int = 1) -> list[int]:
        """Another guild (same roles and members) with ``channels`` text channels; returns their ids."""
        self.guild_ids.append(guild_id)
        return [self._add_text_channel(None, f"table-{i}", guild_id) for i in range(channels)]

    def guild_for(self, channel_id: int) -> int:
        channel = self.channels.get(channel_id)
        if channel is not None and channel["type"] == 11:
            channel_id = int(channel["parent_id"])
        return self.guild_of.get(channel_id, self.GUILD)

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self._shard_count

    def _add_text_channel(self, cid: int | None, name: str, guild_id: int | None = None) -> int:
        cid = cid or self.next_id()
        if guild_id is not None:
            self.guild_of[cid] = guild_id
        self.channels[cid] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(guild_id or self.GUILD),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "last_message_id": None,
        }
        return cid

    def member(self, uid: int) -> dict[str, Any]:
        return {
            "user": self.users[uid],
            "roles": [str(r) for r in self.member_roles.get(uid, [])],
            "nick": None,
            "avatar": None,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }

    def permissions(self, uid: int, channel_id: int) -> int:
        channel = self.channels[channel_id]
        if channel["type"] == 11:  # threads use their parent's permissions
            channel = self.channels[int(channel["parent_id"])]
        roles = {int(r["id"]): int(r["permissions"]) for r in self.roles}
        mine = self.member_roles.get(uid, [])
        value = roles[self.GUILD]
        for role in mine:
            value |= roles[role]
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        for overwrite in channel.get("permission_overwrites", []):
            target = int(overwrite["id"])
            if (overwrite["type"] == 0 and (target == self.GUILD or target in mine)) or (
                overwrite["type"] == 1 and target == uid
            ):
                value = (value & ~int(overwrite["deny"])) | int(overwrite["allow"])
        return value

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild = guild_id or self.GUILD
        text = [c for c in self.channels.values() if c["type"] == 0 and int(c["guild_id"]) == guild]
        roles = [
            {
                "color": 0,
                "colors": {"primary_color": 0},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "position": i,
                "flags": 0,
                **r,
                **({"id": str(guild)} if r["id"] == str(self.GUILD) else {}),  # @everyone's id is the guild's
            }
            for i, r in enumerate(self.roles)
        ]
        return {
            "id": str(guild),
            "name": "Board Game Club",
            "icon": None,
            "owner_id": str(self.OWNER),
            "roles": roles,
            "channels": text,
            "threads": [],
            "members": [self.member(u) for u in self.users],
            "member_count": len(self.users),
            "large": False,
            "unavailable": False,
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "mfa_level": 0,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "afk_timeout": 300,
            "nsfw_level": 0,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_progress_bar_enabled": False,
        }

    # ----- gateway ---------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                await self._identify(ws, data["d"])
            elif op == 6:
                await self._resume(ws, data["d"])
        for shard, live in list(self._shards.items()):
            if live is ws:
                del self._shards[shard]
        await self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if data.get("token") != self.TOKEN:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if data.get("intents") != GUILDS_INTENT:
            self.violations.append(f"IDENTIFY asks for intents {data.get('intents')}; expected guilds only (1)")
        shard, count = data.get("shard") or [0, 1]
        if count != self._shard_count and self._shards:
            self.violations.append(f"IDENTIFY with shard count {count}; other connections use {self._shard_count}")
        self._shard_count = count
        guilds = [g for g in self.guild_ids if self.shard_of(g) == shard]
        session = f"session-{self.next_id()}"
        self._sessions.add(session)
        self._session_shard[session] = shard
        self._seqs[id(ws)] = 0
        self._shards[shard] = ws
        await self._send_on(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.users[self.APP],
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": session,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard, count],
                "application": {"id": str(self.APP), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "user_settings": {},
            },
        )
        for guild in guilds:
            await self._send_on(ws, "GUILD_CREATE", self.guild_payload(guild))
        await self._notify()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("session_id") in self._sessions and data.get("token") == self.TOKEN:
            self._shards[self._session_shard[data["session_id"]]] = ws
            self._seqs.setdefault(id(ws), 0)
            await self._send_on(ws, "RESUMED", {})
        else:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
        await self._notify()

    async def _send(self, event: str, data: dict[str, Any], guild_id: int | None = None) -> None:
        """An event of ``guild_id`` (default: the first guild), on its shard's connection only."""
        ws = self._shards.get(self.shard_of(guild_id or self.GUILD))
        if ws is None or ws.closed:
            raise ConnectionError("the bot is not connected to the fake gateway (for that guild's shard)")
        await self._send_on(ws, event, data)

    async def _send_on(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._seqs[id(ws)] = self._seqs.get(id(ws), 0) + 1
        await ws.send_json({"op": 0, "t": event, "s": self._seqs[id(ws)], "d": data})

    @property
    def _ws(self) -> web.WebSocketResponse | None:
        """The connection of the first guild's shard."""
        return self._shards.get(self.shard_of(self.GUILD))

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    def shard_connected(self, shard: int) -> bool:
        ws = self._shards.get(shard)
        return ws is not None and not ws.closed

    async def wait_connected(self, timeout: float = 30.0) -> None:
        await self.wait_until(lambda: self.connected, timeout)

    # ----- driving the bot ---------------------------------------------------------------

    def find_command(self, name: str) -> dict[str, Any]:
        for scope in (str(self.GUILD), "global"):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise AssertionError(f"/{name} is not registered (was `conductor sync` run?)")

    def visible_commands(self, user: int, channel_id: int | None = None) -> list[str]:
        """The top-level commands ``user`` sees in the command picker: Discord shows a command whose
        ``default_member_permissions`` is set only to members holding all of those permissions in the
        channel ("0": administrators only)."""
        permissions = self.permissions(user, channel_id or self.GAMES)
        seen = []
        for command in self.commands.get(str(self.GUILD), []) + self.commands.get("global", []):
            wanted = command.get("default_member_permissions")
            if (
                wanted is None
                or permissions == ALL_PERMISSIONS
                or (int(wanted) and permissions & int(wanted) == int(wanted))
            ):
                seen.append(command["name"])
        return seen

    def _options(
        self,
        command: dict[str, Any],
        path: list[str],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """Nested interaction options for ``path`` (subcommand names) with typed ``values``."""
        level = command.get("options", [])
        if path:
            node = next((o for o in level if o["name"] == path[0] and o["type"] in (1, 2)), None)
            if node is None:
                raise AssertionError(f"no subcommand {path[0]!r} under /{command['name']}")
            return [
                {
                    "type": node["type"],
                    "name": node["name"],
                    "options": self._options(node, path[1:], values, focused, resolved),
                }
            ]
        out = []
        known = {o["name"]: o for o in level}
        for name, value in values.items():
            if value is None:
                continue
            spec = known.get(name)
            if spec is None:
                raise AssertionError(f"/{command['name']} has no option {name!r}; it has {list(known)}")
            kind = spec["type"]
            option: dict[str, Any] = {"type": kind, "name": name}
            if name == focused:
                option.update(value=str(value), focused=True)
            elif kind == 6:
                uid = int(value)
                option["value"] = str(uid)
                resolved.setdefault("users", {})[str(uid)] = self.users[uid]
                member = {k: v for k, v in self.member(uid).items() if k != "user"}
                member["permissions"] = str(self.permissions(uid, self.GAMES))
                resolved.setdefault("members", {})[str(uid)] = member
            elif kind == 8:
                role = next(r for r in self.roles if int(r["id"]) == int(value))
                option["value"] = role["id"]
                resolved.setdefault("roles", {})[role["id"]] = {
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "position": 1,
                    **role,
                }
            elif kind == 4:
                option["value"] = int(value)
            elif kind == 5:
                option["value"] = bool(value)
            else:
                option["value"] = str(value)
                choices = [c["value"] for c in spec.get("choices", [])]
                if choices and option["value"] not in choices:
                    raise AssertionError(f"{value!r} is not a choice of {name}: {choices}")
            out.append(option)
        missing = [o["name"] for o in level if o.get("required") and o["name"] not in values]
        if missing and focused is None:
            raise AssertionError(f"missing required options {missing}")
        return out

    async def slash(
        self, user: int, command: str, options: dict[str, Any] | None = None, channel: int | None = None
    ) -> InteractionRecord:
        """Dispatch a slash command, e.g. ``slash(ANN, "game new", {"game": "tiny-towns"})``."""
        path = command.split()
        spec = self.find_command(path[0])
        resolved: dict[str, Any] = {}
        data = {
            "id": spec["id"],
            "name": spec["name"],
            "type": 1,
            "guild_id": str(self.guild_for(channel or self.GAMES)),
            "options": self._options(spec, path[1:], options or {}, None, resolved),
        }
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(2, user, channel or self.GAMES, data)

    async def autocomplete(
        self, user: int, command: str, options: dict[str, Any], focused: str, channel: int | None = None
    ) -> list[dict[str, Any]]:
        path = command.split()
        spec = self.find_command(path[0])
        data = {
            "id": spec["id"],
            "name": spec["name"],
            "type": 1,
            "guild_id": str(self.guild_for(channel or self.GAMES)),
            "options": self._options(spec, path[1:], options, focused, {}),
        }
        record = await self._dispatch(4, user, channel or self.GAMES, data)
        await record.wait(lambda r: r.choices is not None)
        return record.choices or []

    async def click(
        self, user: int, message: Message, custom_id: str, values: list[str] | None = None
    ) -> InteractionRecord:
        """Press a button (or choose ``values`` in a select) on ``message``."""
        if message.deleted:
            raise AssertionError("cannot click on a deleted message")
        if message.visible_to is not None and message.visible_to != user:
            raise AssertionError("this user cannot see that ephemeral message")
        component = message.component(custom_id)
        if component is None:
            raise AssertionError(f"{custom_id!r} is not on that message: {message.custom_ids}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            if not values or any(v not in allowed for v in values):
                raise AssertionError(f"{values} not among the select's options {allowed}")
            data["values"] = values
        return await self._dispatch(3, user, message.channel_id, data, message)

    async def _dispatch(
        self, kind: int, user: int, channel_id: int, data: dict[str, Any], message: Message | None = None
    ) -> InteractionRecord:
        iid = self.next_id()
        token = f"tok{iid}"
        channel = self.channels[channel_id]
        guild = self.guild_for(channel_id)
        member = self.member(user)
        member["permissions"] = str(self.permissions(user, channel_id))
        payload = {
            "id": str(iid),
            "application_id": str(self.APP),
            "type": kind,
            "data": data,
            "guild_id": str(guild),
            "channel_id": str(channel_id),
            "channel": {**channel, "permissions": member["permissions"]},
            "member": member,
            "token": token,
            "version": 1,
            "app_permissions": str(self.permissions(self.APP, channel_id)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        record = InteractionRecord(
            self, iid, token, kind, user, channel_id, payload, component_message=message.id if message else None
        )
        record.shard = self.shard_of(guild)
        self.interactions[iid] = record
        await self._send("INTERACTION_CREATE", payload, guild)
        return record

    def message_payload(self, message: Message) -> dict[str, Any]:
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(self.guild_for(message.channel_id)),
            "author": self.users.get(message.author_id, self.users[self.APP]),
            "content": message.content,
            "timestamp": _now(),
            "edited_timestamp": _now() if message.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.payload() for a in message.attachments],
            "embeds": message.embeds,
            "pinned": False,
            "type": 20 if message.interaction_id else 0,
            "flags": message.flags,
            "components": message.components,
            **({"webhook_id": str(self.APP), "application_id": str(self.APP)} if message.interaction_id else {}),
        }

    # ----- what the bot posted -----------------------------------------------------------

    def visible_messages(self, channel_id: int | None = None) -> list[Message]:
        return [
            m for m in self.messages.values() if not m.deleted and (channel_id is None or m.channel_id == channel_id)
        ]

    def public_messages(self, channel_id: int | None = None) -> list[Message]:
        return [m for m in self.visible_messages(channel_id) if not m.ephemeral and not m.loading]

    def requests_to(self, method: str, pattern: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method and re.search(pattern, r.path)]

    # ----- REST ------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/api/v10/_test/"):
            return await handler(request)  # not Discord's REST: not recorded, never faulted
        record = Recorded(request.method, request.path, dict(request.query), time.monotonic())
        self.requests.append(record)
        request[RECORD] = record
        for i, (method, pattern, status, code, message) in enumerate(self.faults):
            if method == request.method and pattern.search(request.path):
                del self.faults[i]
                record.status = status
                await self._read_body(request)  # drain the upload like a real server
                self._fault_side_effect(request.path, code)
                return _json({"message": message, "code": code}, status=status)
        try:
            response = await handler(request)
        except DiscordError as exc:
            response = _json(
                {"message": exc.message, "code": exc.code, **({"errors": {}} if exc.code == 50035 else {})},
                status=exc.status,
            )
        record.status = response.status
        await self._notify()
        return response

    def _fault_side_effect(self, path: str, code: int) -> None:
        """An injected "Unknown Message" on a webhook message means that message is really gone."""
        match = re.search(r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)$", path)
        if code != 10008 or match is None:
            return
        record = next((r for r in self.interactions.values() if r.token == match[1]), None)
        mid = (record.original if record else None) if match[2] == "@original" else int(match[2])
        if mid in self.messages:
            self.messages[mid].deleted = True
            if record is not None and mid == record.original:
                record.original_deleted = True

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        record: Recorded = request[RECORD]
        if record.json is not None or record.files:
            return record.json, record.files
        payload: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    files.append((part.filename or "", bytes(await part.read())))  # type: ignore[union-attr]
        elif request.can_read_body:
            text = await request.text()
            payload = json.loads(text) if text else None
        record.json, record.files = payload, files
        return payload, files

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        webhook = path.startswith(("/webhooks/", "/interactions/"))
        if not webhook and request.headers.get("Authorization") != f"Bot {self.TOKEN}":
            raise DiscordError(401, 0, "401: Unauthorized")
        for pattern, handler in self._routes():
            match = re.fullmatch(pattern[1], path)
            if match and pattern[0] == method:
                return await handler(request, *match.groups())
        self.unknown.append(f"{method} {path}")
        raise DiscordError(404, 0, "404: Not Found")

    def _routes(self) -> list[tuple[tuple[str, str], Callable[..., Any]]]:
        app = str(self.APP)
        return [
            (("GET", r"/users/@me"), self._me),
            (("GET", r"/applications/@me"), self._application),
            (("GET", r"/oauth2/applications/@me"), self._application),
            (("GET", r"/gateway/bot"), self._gateway_bot),
            (("GET", r"/gateway"), self._gateway_bot),
            (("PUT", rf"/applications/{app}/commands"), self._put_commands),
            (("PUT", rf"/applications/{app}/guilds/(\d+)/commands"), self._put_commands),
            (("GET", rf"/applications/{app}/commands"), self._get_commands),
            (("GET", rf"/applications/{app}/guilds/(\d+)/commands"), self._get_commands),
            (("POST", r"/interactions/(\d+)/([^/]+)/callback"), self._callback),
            (("POST", rf"/webhooks/{app}/([^/]+)"), self._followup),
            (("GET", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)"), self._webhook_get),
            (("PATCH", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)"), self._webhook_edit),
            (("DELETE", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)"), self._webhook_delete),
            (("POST", r"/channels/(\d+)/messages"), self._channel_post),
            (("PATCH", r"/channels/(\d+)/messages/(\d+)"), self._channel_edit),
            (("DELETE", r"/channels/(\d+)/messages/(\d+)"), self._channel_delete),
            (("POST", r"/channels/(\d+)/threads"), self._thread_create),
            (("GET", r"/channels/(\d+)"), self._channel_get),
            (("DELETE", r"/channels/(\d+)"), self._channel_remove),
            (("POST", r"/_test/interactions/(\d+)/handled"), self._handled),
        ]

    async def _handled(self, request: web.Request, interaction_id: str) -> web.Response:
        """Not Discord: the bot's test hook saying it is done with an interaction (InteractionRecord.settle)."""
        record = self.interactions.get(int(interaction_id))
        if record is None:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        record.handled = True
        await self._notify()
        return web.Response(status=204)

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.users[self.APP])

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.APP),
                "name": "Conductor",
                "icon": None,
                "description": "Board games",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.users[self.OWNER],
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "bot": self.users[self.APP],
                "approximate_guild_count": 1,
            }
        )

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _put_commands(self, request: web.Request, guild: str | None = None) -> web.Response:
        payload, _ = await self._read_body(request)
        problems = command_problems(payload)
        if problems:
            self.violations += [f"command registration: {p}" for p in problems]
            raise DiscordError(400, 50035, "Invalid Form Body")
        registered = []
        for command in payload:
            registered.append(
                {
                    "id": str(self.next_id()),
                    "application_id": str(self.APP),
                    "version": "1",
                    "default_member_permissions": None,
                    "dm_permission": True,
                    "nsfw": False,
                    "type": 1,
                    **({"guild_id": guild} if guild else {}),
                    **command,
                }
            )
        self.commands[guild or "global"] = registered
        return _json(registered)

    async def _get_commands(self, request: web.Request, guild: str | None = None) -> web.Response:
        return _json(self.commands.get(guild or "global", []))

    # interactions

    def _record_by_token(self, token: str) -> InteractionRecord:
        for record in self.interactions.values():
            if record.token == token:
                return record
        raise DiscordError(404, 10015, "Unknown Webhook")

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        late = time.monotonic() - record.dispatched_at
        if late > CALLBACK_DEADLINE:
            self.violations.append(f"interaction {iid} answered after {late:.2f} s (> 3 s)")
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.callbacks:
            self.violations.append(f"interaction {iid} acknowledged twice")
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(payload["type"])
        data = payload.get("data") or {}
        allowed = {2: (4, 5), 3: (4, 5, 6, 7), 4: (8,)}[record.type]
        if kind not in allowed:
            self.violations.append(f"interaction {iid} (type {record.type}) got callback type {kind}")
            raise DiscordError(400, 50035, "Invalid Form Body")
        message: Message | None = None
        if kind in (4, 5, 7):
            problems = message_problems(data, files, editing=kind != 4) if kind != 5 else []
            if problems:
                self.violations += [f"callback {iid}: {p}" for p in problems]
                raise DiscordError(400, 50035, "Invalid Form Body")
        record.callbacks += 1
        record.callback_type, record.callback_at = kind, time.monotonic()
        if kind in (4, 5):
            flags = int(data.get("flags") or 0)
            message = Message(
                self.next_id(),
                record.channel_id,
                self.APP,
                flags=flags | (LOADING if kind == 5 else 0),
                interaction_id=record.id,
                visible_to=record.user_id if flags & EPHEMERAL else None,
            )
            if kind == 4:
                self._apply(message, data, files)
            self.messages[message.id] = message
            record.original = message.id
            record.message_ids.append(message.id)
        elif kind in (6, 7):
            record.original = record.component_message
            if kind == 7 and record.original is not None:
                message = self.messages[record.original]
                self._apply(message, data, files)
                message.edits += 1
                if record.original not in record.message_ids:
                    record.message_ids.append(record.original)
        elif kind == 8:
            choices = data.get("choices", [])
            problems = choice_problems(choices, f"autocomplete {iid}")
            if problems:
                self.violations += problems
                raise DiscordError(400, 50035, "Invalid Form Body")
            record.choices = choices
        if kind in (4, 7, 8):
            record.answered_at = time.monotonic()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        body: dict[str, Any] = {"interaction": {"id": iid, "type": record.type}}
        if message is not None:
            body["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=message.ephemeral,
            )
            body["resource"] = {"type": kind, "message": self.message_payload(message)}
        return _json(body)

    def _apply(self, message: Message, data: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        """Apply a create/edit payload (content, components, attachments) to ``message``."""
        if "content" in data:
            message.content = data["content"] or ""
        if "components" in data:
            message.components = data["components"] or []
        if "embeds" in data:
            message.embeds = data["embeds"] or []
        if "allowed_mentions" in data:
            message.allowed_mentions = data["allowed_mentions"]
        if "attachments" in data or files:
            described = {str(a.get("id")): a for a in data.get("attachments") or []}
            kept = [a for a in message.attachments if str(a.id) in described]
            for index, (name, blob) in enumerate(files):
                meta = described.get(str(index), {})
                kept.append(Attachment(self.next_id(), meta.get("filename") or name, meta.get("description"), blob))
            message.attachments = kept
        message.flags &= ~LOADING

    async def _followup(self, request: web.Request, token: str) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        record = self._record_by_token(token)
        if record.callbacks == 0:
            self.violations.append(f"follow-up before the interaction {record.id} was acknowledged")
            raise DiscordError(404, 10015, "Unknown Webhook")
        original = self.messages.get(record.original) if record.original else None
        if original is not None and original.loading and not original.deleted:
            # Discord would turn this follow-up into the deferred response itself (ignoring its own
            # ephemeral flag), so the bot must edit or delete the "thinking" message first.
            self.violations.append(f"follow-up while the deferred response of {record.id} is still loading")
        problems = message_problems(payload, files)
        if problems:
            self.violations += [f"follow-up {record.id}: {p}" for p in problems]
            raise DiscordError(400, 50035, "Invalid Form Body")
        flags = int(payload.get("flags") or 0)
        message = Message(
            self.next_id(),
            record.channel_id,
            self.APP,
            flags=flags,
            interaction_id=record.id,
            visible_to=record.user_id if flags & EPHEMERAL else None,
        )
        self._apply(message, payload, files)
        self.messages[message.id] = message
        record.message_ids.append(message.id)
        record.answered_at = record.answered_at or time.monotonic()
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(self.message_payload(message))
        return web.Response(status=204)

    def _webhook_message(self, token: str, which: str) -> tuple[InteractionRecord, Message]:
        record = self._record_by_token(token)
        mid = record.original if which == "@original" else int(which)
        if mid is None or mid not in self.messages or self.messages[mid].deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return record, self.messages[mid]

    async def _webhook_get(self, request: web.Request, token: str, which: str) -> web.Response:
        _, message = self._webhook_message(token, which)
        return _json(self.message_payload(message))

    async def _webhook_edit(self, request: web.Request, token: str, which: str) -> web.Response:
        payload, files = await self._read_body(request)
        record, message = self._webhook_message(token, which)
        problems = message_problems(payload, files, editing=True)
        if problems:
            self.violations += [f"edit {record.id}: {p}" for p in problems]
            raise DiscordError(400, 50035, "Invalid Form Body")
        self._apply(message, payload, files)
        message.edits += 1
        if not message.content and not message.attachments and not message.components:
            self.violations.append(f"edit {record.id}: message left empty")
        if message.id not in record.message_ids:
            record.message_ids.append(message.id)
        record.answered_at = record.answered_at or time.monotonic()
        return _json(self.message_payload(message))

    async def _webhook_delete(self, request: web.Request, token: str, which: str) -> web.Response:
        record, message = self._webhook_message(token, which)
        message.deleted = True
        if message.id == record.original:
            record.original_deleted = True
        return web.Response(status=204)

    # channels

    def _channel(self, cid: str) -> dict[str, Any]:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    async def _channel_post(self, request: web.Request, cid: str) -> web.Response:
        payload, files = await self._read_body(request)
        channel = self._channel(cid)
        needed = SEND_MESSAGES_IN_THREADS if channel["type"] == 11 else SEND_MESSAGES
        if not self.permissions(self.APP, int(cid)) & needed:
            raise DiscordError(403, 50013, "Missing Permissions")
        problems = message_problems(payload, files)
        if problems:
            self.violations += [f"channel message: {p}" for p in problems]
            raise DiscordError(400, 50035, "Invalid Form Body")
        message = Message(self.next_id(), int(cid), self.APP, flags=int(payload.get("flags") or 0) & ~EPHEMERAL)
        self._apply(message, payload, files)
        self.messages[message.id] = message
        return _json(self.message_payload(message))

    async def _channel_edit(self, request: web.Request, cid: str, mid: str) -> web.Response:
        payload, files = await self._read_body(request)
        message = self.messages.get(int(mid))
        if message is None or message.deleted or message.channel_id != int(cid):
            raise DiscordError(404, 10008, "Unknown Message")
        problems = message_problems(payload, files, editing=True)
        if problems:
            self.violations += [f"message edit: {p}" for p in problems]
            raise DiscordError(400, 50035, "Invalid Form Body")
        self._apply(message, payload, files)
        message.edits += 1
        return _json(self.message_payload(message))

    async def _channel_delete(self, request: web.Request, cid: str, mid: str) -> web.Response:
        message = self.messages.get(int(mid))
        if message is None or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        message.deleted = True
        return web.Response(status=204)

    async def _thread_create(self, request: web.Request, cid: str) -> web.Response:
        payload, _ = await self._read_body(request)
        parent = self._channel(cid)
        if not self.permissions(self.APP, int(cid)) & CREATE_PUBLIC_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        if not 1 <= len(payload.get("name", "")) <= 100:
            self.violations.append(f"thread name must be 1-100 characters: {payload.get('name')!r}")
            raise DiscordError(400, 50035, "Invalid Form Body")
        tid = self.next_id()
        thread = {
            "id": str(tid),
            "type": payload.get("type", 11),
            "guild_id": str(self.guild_for(int(cid))),
            "parent_id": parent["id"],
            "name": payload["name"],
            "owner_id": str(self.APP),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "locked": False,
                "invitable": True,
                "create_timestamp": _now(),
                "archive_timestamp": _now(),
                "auto_archive_duration": payload.get("auto_archive_duration", 10080),
            },
        }
        self.channels[tid] = thread
        with contextlib.suppress(ConnectionError):
            await self._send("THREAD_CREATE", {**thread, "newly_created": True}, self.guild_for(int(cid)))
        return _json(thread, status=201)

    async def _channel_get(self, request: web.Request, cid: str) -> web.Response:
        return _json(self._channel(cid))

    async def _channel_remove(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        if channel["type"] == 11 and not self.permissions(self.APP, int(cid)) & MANAGE_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        del self.channels[int(cid)]
        return _json(channel)
