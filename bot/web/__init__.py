"""The optional read-only web replay viewer (aiohttp), served by the bot process when WEB_BIND is set."""
