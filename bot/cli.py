"""The `conductor` command: run, console, replay, verify, check, vacuum, sync, migrate-db."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sqlite3
import sys
from pathlib import Path

from bot import discord_app
from bot.check import check_store
from bot.check_ratings import check_ratings
from bot.console import clean_out, run_console
from bot.core import Conductor
from bot.listing import fill_listings
from bot.settings import Settings, SettingsError, load_settings
from bot.transcript import TranscriptError, load, replay, verify
from bot.web import server as web_server
from storage import Store, StoreError, is_postgres, open_store, sqlite_path

# The exit status when the database cannot be opened (1 is "problems found" for check).
EXIT_BAD_DATABASE = 2


def moderator_names(values: list[str]) -> set[str]:
    """``--moderator ann,bob --moderator cat`` -> {ann, bob, cat}."""
    return {name.strip() for value in values for name in value.split(",") if name.strip()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="conductor", description="Tabletop Conductor: board games on Discord.")
    parser.add_argument(
        "--env-file",
        default=None,
        help="the settings file (or its folder); default: $CONDUCTOR_HOME/.env, else ./.env",
    )
    sub = parser.add_subparsers(dest="verb")
    moderators = {"action": "append", "default": [], "help": "names that act as moderators (ann,bob or repeated)"}
    run = sub.add_parser("run", help="start the bot (no DISCORD_TOKEN: open the local console)")
    run.add_argument("--moderator", **moderators)  # type: ignore[arg-type]
    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    console.add_argument("--moderator", **moderators)  # type: ignore[arg-type]
    console.add_argument(
        "--clean-out", action="store_true", help="delete ./out/ images of finished or aborted games, then exit"
    )
    replay = sub.add_parser("replay", help="replay a .transcript file and print the standings")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--render", metavar="DIR", default=None, help="also write every board image to DIR")
    verify = sub.add_parser(
        "verify", help="check a finished game's export: its seed matches the commitment posted at the start"
    )
    verify.add_argument("file")
    sub.add_parser("check", help="re-play every stored game and report differences")
    sub.add_parser(
        "vacuum",
        help="compact the database: compress old states, archive finished games' move logs, prune posted "
        "announcements, then VACUUM (safe while the bot runs)",
    )
    sync = sub.add_parser("sync", help="register slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None, help="register to one guild (instant) instead of globally")
    migrate_db = sub.add_parser(
        "migrate-db", help="copy every game, seat, move, timer and setting from SQLite into an empty PostgreSQL"
    )
    migrate_db.add_argument("--from", dest="source", required=True, help="sqlite:///path/to/conductor.db (or a path)")
    migrate_db.add_argument("--to", dest="target", required=True, help="postgresql://user@host:port/database")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.env_file)
    except SettingsError as exc:
        print(f"conductor: {exc}", file=sys.stderr)
        return EXIT_BAD_DATABASE
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    verb = args.verb or "run"
    try:
        if verb == "replay":
            return asyncio.run(_replay(args.file, args.json, args.render))
        if verb == "verify":
            return asyncio.run(_verify(args.file))
        if verb == "check":
            return asyncio.run(_check(settings))
        if verb == "vacuum":
            return asyncio.run(_vacuum(settings))
        if verb == "console":
            if args.clean_out:
                return asyncio.run(_clean_out(settings))
            return asyncio.run(_console(settings, moderator_names(args.moderator)))
        if verb == "sync":
            return _sync(settings, args.guild)
        if verb == "migrate-db":
            return asyncio.run(_migrate_db(args.source, args.target))
        return _run(settings, moderator_names(getattr(args, "moderator", [])))
    except StoreError as exc:
        print(f"conductor {verb}: {exc}", file=sys.stderr)
        return EXIT_BAD_DATABASE


def opened(settings: Settings) -> None:
    """Every command that opens the database says which file (and which settings file) it used."""
    where = settings.database
    if is_postgres(where):
        from storage.postgres import _safe

        shown = _safe(where)
    else:
        shown = where if where == ":memory:" else str(Path(where).expanduser().resolve())
    source = f" (settings from {settings.env_file})" if settings.env_file else ""
    print(f"Database: {shown}{source}")


def file_problem(path: str) -> str | None:
    """A one-line reason when ``path`` cannot be read as a file."""
    target = Path(path)
    if not target.exists():
        return "no such file"
    if target.is_dir():
        return "is a folder, not a transcript file"
    return None


async def _replay(path: str, as_json: bool, render: str | None) -> int:
    problem = file_problem(path)
    images: list[tuple[str, bytes]] = []
    try:
        if problem is not None:
            raise OSError(problem)
        result = await replay(
            load(path),
            render_images=render is not None,
            on_reply=lambda r: images.extend((i.filename, i.data) for i in r.images),
        )
    except (TranscriptError, OSError) as exc:
        reason = problem or (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))
        if as_json:
            print(json.dumps({"error": reason}))
        print(f"{path}: {reason}", file=sys.stderr)
        return 1
    if render is not None:
        folder = Path(render)
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in images:
            (folder / name).write_bytes(data)
    if as_json:
        print(json.dumps(result.as_json()))
    else:
        print(f"{result.game}: {result.status} after {result.moves} moves")
        for s in result.standings:
            parts = ", ".join(f"{label} {points}" for label, points in s.get("breakdown", {}).items())
            print(f"{s['rank']}. {s['player']} {s['score']}" + (f" ({parts})" if parts else ""))
        if render is not None:
            print(f"{len(images)} images written to {render}")
    return 0


async def _verify(path: str) -> int:
    """The seed and salt revealed at the end hash to the commitment posted at the start, and the moves
    replay to the stated standings."""
    try:
        problem = file_problem(path)
        if problem is not None:
            raise OSError(problem)
        transcript = load(path)
        result = await verify(transcript)
    except (TranscriptError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"{path}: NOT verified: {reason}", file=sys.stderr)
        return 1
    print(f"{path}: verified. The seed {transcript.seed} and salt match the commitment {transcript.commitment};")
    print(f"{result.moves} moves replay to: " + ", ".join(f"{s['player']} {s['score']}" for s in result.standings))
    return 0


async def _check(settings: Settings) -> int:
    where = settings.database
    if not is_postgres(where) and where != ":memory:" and not Path(where).expanduser().exists():
        # Opening would create an empty database: there is nothing to check, say so.
        print(
            f"conductor check: cannot open the database {where}: there is no such file (check never creates one)",
            file=sys.stderr,
        )
        return EXIT_BAD_DATABASE
    opened(settings)
    store = await open_store(where)
    try:
        findings = await check_store(store)
        boards = await check_ratings(store)
    except sqlite3.DatabaseError as exc:  # damage deeper in the file than opening it reads
        raise StoreError(f"cannot read the database {where}: {exc}") from None
    finally:
        await store.close()
    bad = [f for f in findings if f.kind not in ("ok", "incompatible")]
    for finding in findings:
        print(f"game {finding.game_id}: {finding.kind}: {finding.detail}")
    for board in boards:
        print(f"ratings of {board.game} in server {board.guild_id}: {board.kind}: {board.detail}")
    wrong = [b for b in boards if b.kind != "ok"]
    print(f"{len(findings)} games checked, {len(bad) + len(wrong)} problems")
    return 1 if bad or wrong else 0


async def _vacuum(settings: Settings) -> int:
    where = settings.database
    if not is_postgres(where) and where != ":memory:" and not Path(where).expanduser().exists():
        print(f"conductor vacuum: cannot open the database {where}: there is no such file", file=sys.stderr)
        return EXIT_BAD_DATABASE
    opened(settings)
    store = await open_store(where)
    try:
        done = await store.maintain()
        filled = await fill_listings(store)
    finally:
        await store.close()
    print(
        f"Compressed {done.compressed_states} states, archived the move logs of {done.archived_games} finished or "
        f"aborted games, deleted {done.pruned_outbox} posted announcements and {done.pruned_timers} stale timers, "
        f"listed {filled} older games. {done.bytes_before:,} bytes before, {done.bytes_after:,} after."
    )
    return 0


async def _clean_out(settings: Settings, out_dir: Path = Path("out")) -> int:
    opened(settings)
    store = await open_store(settings.database)
    try:
        removed = await clean_out(store, out_dir)
    finally:
        await store.close()
    print(f"Removed {len(removed)} images of finished or aborted games from {out_dir}/.")
    return 0


async def _console(settings: Settings, moderators: set[str]) -> int:
    opened(settings)
    store = await open_store(settings.database)
    viewer = await web_server.start(store, web_server.parse_bind(settings.web_bind)) if settings.web_bind else None
    try:
        await run_console(Conductor(store, web_url=settings.web_link_base), moderators, out_dir=Path("out"))
    finally:
        if viewer is not None:
            await viewer.cleanup()
        await store.close()
    return 0


def _run(settings: Settings, moderators: set[str]) -> int:
    if not settings.discord_token:
        print(
            "No DISCORD_TOKEN in .env or the environment: opening the local console instead. "
            "Put a bot token in .env to connect to Discord."
        )
        return asyncio.run(_console(settings, moderators))
    if moderators:
        print(
            "--moderator only applies to the console; in Discord, moderators have Manage Channels or the mod role.",
            file=sys.stderr,
        )
    # The bot logs the database it opened ("database ...; commands: ...") once it has started.
    asyncio.run(_probe(settings.database))  # a bad database fails here, before connecting to Discord
    return discord_app.run_bot(settings)


async def _probe(path: str) -> None:
    """Open (and migrate) the database once and close it; raises StoreError if it is unusable."""
    store = await open_store(path)
    await store.close()


async def _migrate_db(source: str, target: str) -> int:
    """Copy an SQLite database into an empty PostgreSQL one; ``conductor check`` then re-plays the copy."""
    if is_postgres(source) or not is_postgres(target):
        print(
            "conductor migrate-db: copies from SQLite (--from sqlite:///...) to PostgreSQL (--to postgresql://...)",
            file=sys.stderr,
        )
        return EXIT_BAD_DATABASE
    path = sqlite_path(source)
    if not Path(path).expanduser().is_file():
        raise StoreError(f"cannot open the database {path}: there is no such file")
    from storage.copy import copy_sqlite_to_postgres
    from storage.postgres import PostgresStore

    reader = await Store.open(path)
    try:
        writer = await PostgresStore.open(target)
        try:
            copied = await copy_sqlite_to_postgres(reader, writer)
        finally:
            await writer.close()
    finally:
        await reader.close()
    print(", ".join(f"{c.rows} {c.table}" for c in copied) + " rows copied.")
    print("Check the copy with: DATABASE_URL=<the --to URL> conductor check")
    return 0


def _sync(settings: Settings, guild: int | None) -> int:
    if not settings.discord_token:
        print("conductor sync needs DISCORD_TOKEN in .env.", file=sys.stderr)
        return 2
    return discord_app.sync_commands(settings, guild)


if __name__ == "__main__":
    raise SystemExit(main())
