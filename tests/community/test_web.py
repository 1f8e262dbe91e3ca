"""The replay viewer over real HTTP: only finished games, only by their own server's links."""

from __future__ import annotations

import re

import aiohttp

from tests.community.conftest import GUILD, MOD, OTHER_GUILD, say
from tests.community.web import expected_board, serving, trains_with_moves


async def get(url: str) -> tuple[int, bytes, str]:
    async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=False) as response:
        return response.status, await response.read(), response.headers.get("Content-Type", "")


async def test_a_finished_game_is_listed_and_replayed_step_by_step(host, store):
    path = await trains_with_moves(host, "c1")
    guild_part = path.split("/g/")[0] + "/"
    async with serving(store) as base:
        status, body, kind = await get(base + guild_part)
        assert status == 200 and "text/html" in kind
        assert re.search(r'href="g/[\w-]+/"', body.decode())
        status, body, _ = await get(base + path + "?step=2")
        page = body.decode()
        assert status == 200 and "Step 2 of 3" in page and 'src="step-2.png"' in page
        assert "<script" not in page  # plain HTML: every control is a link
        status, png, kind = await get(base + path + "step-2.png")
        game_id = (await store.latest_game(GUILD, "c1")).id
        assert status == 200 and kind == "image/png" and png == await expected_board(store, game_id, 2)
        assert (await get(base + path + "step-4.png"))[0] == 404  # past the end
        assert (await get(base + path + "summary.png"))[0] == 200


async def test_running_games_and_other_servers_games_are_404(host, store):
    path_a = await trains_with_moves(host, "c1", GUILD)
    path_b = await trains_with_moves(host, "c1", OTHER_GUILD)
    guild_a, game_a = re.match(r"/s/([\w-]+)/g/([\w-]+)/", path_a).groups()
    guild_b, game_b = re.match(r"/s/([\w-]+)/g/([\w-]+)/", path_b).groups()
    async with serving(store) as base:
        assert (await get(f"{base}/s/{guild_a}/g/{game_a}/"))[0] == 200
        # Guild A's game through guild B's link (and the other way round): not found.
        for guild, game in ((guild_b, game_a), (guild_a, game_b)):
            for tail in ("", "step-0.png", "summary.png"):
                assert (await get(f"{base}/s/{guild}/g/{game}/{tail}"))[0] == 404
        listed_b = (await get(f"{base}/s/{guild_b}/"))[1].decode()
        assert game_b in listed_b and game_a not in listed_b
        # Guessing: game ids, or a token of the wrong kind, find nothing.
        row = await store.latest_game(GUILD, "c1")
        for guess in (f"/s/{guild_a}/g/{row.id}/", f"/s/{game_a}/", f"/s/{game_a}/g/{game_a}/", f"/s/{row.id}/"):
            assert (await get(base + guess))[0] == 404
        # Rolled back into play: the same link is a running game now, and running games are never served.
        moves = await store.moves(row.id)
        assert (await say(host, MOD, f"/mod rollback {len(moves) - 1}", "c1", GUILD)).status == "active"
        for tail in ("", "step-0.png", "summary.png"):
            assert (await get(f"{base}/s/{guild_a}/g/{game_a}/{tail}"))[0] == 404
        assert game_a not in (await get(f"{base}/s/{guild_a}/"))[1].decode()
        # Only reading: anything but GET is refused.
        async with aiohttp.ClientSession() as session, session.post(f"{base}/s/{guild_a}/") as response:
            assert response.status == 405


def test_pages_escape_names_and_moves():
    import games
    from bot.web.pages import replay_page
    from bot.web.replays import replay_of

    spec = games.get_game("trains")
    names = ["<script>alert(1)</script>", "bob & co"]
    state = spec.setup(names, {}, 5)
    seat = spec.status(state).to_act[0]
    move = spec.format(spec.legal_moves(state, seat)[0])
    replay = replay_of(spec, names, {}, 5, [(seat, move)], names, 1)
    page = replay_page(replay, 1, "../../")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "bob &amp; co" in page
    assert 'href="?step=0"' in page and "Step 1 of 1" in page
    assert replay_page(replay, 99, "../../").count("Step 1 of 1") == 1  # a step past the end shows the last


def test_the_viewer_binds_to_loopback_unless_told_otherwise(tmp_path, monkeypatch):
    import pytest

    from bot.settings import load_settings
    from bot.web.server import Bind, parse_bind

    assert parse_bind("8080") == Bind("127.0.0.1", 8080)
    assert parse_bind(":8080") == Bind("127.0.0.1", 8080)
    assert parse_bind("0.0.0.0:9000") == Bind("0.0.0.0", 9000)
    for bad in ("", "localhost", "127.0.0.1:http", "127.0.0.1:70000"):
        with pytest.raises(ValueError):
            parse_bind(bad)
    for key in ("WEB_BIND", "WEB_URL"):
        monkeypatch.setenv(key, "")  # recorded, so whatever load_settings sets is undone after the test
        monkeypatch.delenv(key)
    (tmp_path / ".env").write_text("")
    assert load_settings(str(tmp_path)).web_link_base is None  # off by default: no links either
    (tmp_path / ".env").write_text("WEB_BIND=127.0.0.1:8080\n")
    assert load_settings(str(tmp_path)).web_link_base == "http://127.0.0.1:8080"
