"""The replay viewer's HTTP server: read-only, finished games only, reachable only by link.

Every page sits under its server's unguessable token (``/s/<server token>/``), and a game under its
own (``/s/<server token>/g/<game token>/``): both must belong together and the game must be
finished, else the answer is 404 (the same for a wrong token, another server's game and a game
still running, so a guess learns nothing).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler

import games
from bot.web import pages
from bot.web.replays import Replay, Replays, board_png, summary_png
from storage import AnyStore

log = logging.getLogger(__name__)
LOOPBACK = "127.0.0.1"
STORE_KEY: web.AppKey[AnyStore] = web.AppKey("store")
REPLAYS_KEY: web.AppKey[Replays] = web.AppKey("replays", Replays)
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
    "Referrer-Policy": "no-referrer",  # the links are the keys: never hand them to another site
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "private, max-age=60",
}


@dataclass(frozen=True)
class Bind:
    host: str
    port: int


def parse_bind(text: str) -> Bind:
    """``WEB_BIND``: ``host:port`` or a bare ``port`` (loopback). Raises ValueError on anything else."""
    host, _, port = text.strip().rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"WEB_BIND must be host:port, e.g. 127.0.0.1:8080, not {text!r}")
    return Bind(host.strip("[]") or LOOPBACK, int(port))


def make_app(store: AnyStore) -> web.Application:
    app = web.Application(middlewares=[_headers])
    app[STORE_KEY] = store
    app[REPLAYS_KEY] = Replays(store)
    app.add_routes(
        [
            web.get("/s/{guild}/", game_list),
            web.get("/s/{guild}/g/{game}", add_slash),
            web.get("/s/{guild}/g/{game}/", replay_page),
            web.get(r"/s/{guild}/g/{game}/step-{step:\d{1,6}}.png", step_image),
            web.get("/s/{guild}/g/{game}/summary.png", summary_image),
        ]
    )
    return app


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers.update(HEADERS)
    return response


async def game_list(request: web.Request) -> web.Response:
    store = request.app[STORE_KEY]
    guild = await store.web_guild(request.match_info["guild"])
    if guild is None:
        raise web.HTTPNotFound()
    names = {slug: games.get_game(slug).name for slug in games.available_slugs()}
    return web.Response(text=pages.game_list(names, await store.web_games(guild)), content_type="text/html")


async def add_slash(request: web.Request) -> web.StreamResponse:
    await _replay(request)  # 404 before redirecting, so a wrong link is never confirmed
    raise web.HTTPFound(f"{request.match_info['game']}/")


async def replay_page(request: web.Request) -> web.Response:
    replay = await _replay(request)
    step = request.query.get("step", "0")
    wanted = int(step) if step.isascii() and step.isdigit() and len(step) <= 6 else 0
    return web.Response(text=pages.replay_page(replay, wanted, "../../"), content_type="text/html")


async def step_image(request: web.Request) -> web.Response:
    replay = await _replay(request)
    step = int(request.match_info["step"])
    if step > replay.last:
        raise web.HTTPNotFound()
    png = await asyncio.to_thread(board_png, replay, step)
    return web.Response(body=png, content_type="image/png")


async def summary_image(request: web.Request) -> web.Response:
    replay = await _replay(request)
    return web.Response(body=await asyncio.to_thread(summary_png, replay), content_type="image/png")


async def _replay(request: web.Request) -> Replay:
    store = request.app[STORE_KEY]
    guild = await store.web_guild(request.match_info["guild"])
    game_id = await store.web_game_id(guild, request.match_info["game"]) if guild is not None else None
    replay = await request.app[REPLAYS_KEY].get(game_id) if game_id is not None else None
    if replay is None:
        raise web.HTTPNotFound()
    return replay


async def start(store: AnyStore, bind: Bind) -> web.AppRunner:
    """Serve the viewer until the runner is cleaned up."""
    runner = web.AppRunner(make_app(store), access_log=None)  # request paths hold the links: never log them
    await runner.setup()
    await web.TCPSite(runner, bind.host, bind.port).start()
    log.info("replay viewer on http://%s:%d/", bind.host, bind.port)
    return runner
