"""The replay viewer in a real headless Chromium (the distribution's package, driven by Playwright;
no browser is ever downloaded): open the server's list, open a game, step forward and back, and
check that each step shows that move's board."""

from __future__ import annotations

import io

from PIL import Image
from playwright.async_api import async_playwright

from tests.community.conftest import GUILD
from tests.community.web import expected_board, serving, trains_with_moves

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


async def shown_image(page) -> tuple[str, bytes]:
    """The board's src, and the bytes at that address; the image the browser shows must have loaded
    with those bytes' size (the page's own policy forbids scripts from fetching, so Playwright reads it)."""
    src = await page.get_attribute("#board", "src")
    absolute = await page.evaluate("document.getElementById('board').src")
    response = await page.request.get(absolute)
    assert response.status == 200
    png = await response.body()
    width, height = await page.evaluate(
        "[document.getElementById('board').naturalWidth, document.getElementById('board').naturalHeight]"
    )
    with Image.open(io.BytesIO(png)) as image:
        assert (width, height) == image.size, "the browser did not show this image"
    return src, png


async def test_the_viewer_steps_forward_and_back_in_chromium(host, store):
    path = await trains_with_moves(host, "c1")
    game_id = (await store.latest_game(GUILD, "c1")).id
    boards = {step: await expected_board(store, game_id, step) for step in range(4)}
    assert len(set(boards.values())) > 1  # the steps really differ, so a wrong image would be caught
    async with serving(store) as base, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = await browser.new_page()
            response = await page.goto(base + path.split("/g/")[0] + "/")
            assert response is not None and response.status == 200
            await page.click("a.game")
            assert await page.inner_text("#where") == "Step 0 of 3"
            src, png = await shown_image(page)
            assert src == "step-0.png" and png == boards[0]
            for step in (1, 2, 3):
                await page.click("#next")
                assert await page.inner_text("#where") == f"Step {step} of 3"
                src, png = await shown_image(page)
                assert src == f"step-{step}.png" and png == boards[step]
                assert (await page.inner_text("#move")).strip()
            assert await page.query_selector("#next") is None  # the last step has no Forward
            assert "resign" in await page.inner_text("#move")
            for step in (2, 1):
                await page.click("#prev")
                assert await page.inner_text("#where") == f"Step {step} of 3"
                src, png = await shown_image(page)
                assert src == f"step-{step}.png" and png == boards[step]
            assert "bob" in await page.inner_text("#standings")
            assert await page.evaluate("document.getElementById('summary').naturalWidth") > 0
        finally:
            await browser.close()
