"""Plain HTML for the replay viewer: no JavaScript, every control a link (``?step=N``)."""

from __future__ import annotations

import time
from html import escape

from bot.web.replays import Replay
from storage.community import WebGame

STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "nav a{margin-right:1em}img{max-width:100%;height:auto;border:1px solid #ccc}"
    "table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}"
    ".move{font-family:monospace;font-size:1.1em}"
)


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>\n{body}\n</body></html>\n"
    )


def game_list(names: dict[str, str], listed: list[WebGame]) -> str:
    """The server's finished games, newest first (``names``: slug -> game name)."""
    if not listed:
        rows = "<p>No finished games yet.</p>"
    else:
        items = "".join(
            f'<li><a class="game" href="g/{escape(g.token)}/">{escape(names.get(g.game, g.game))} '
            f"#{g.game_id}</a> finished {escape(_when(g.finished_at))}</li>"
            for g in listed
        )
        rows = f'<ul id="games">{items}</ul>'
    return _page("Finished games", f"<h1>Finished games</h1>\n{rows}")


def replay_page(replay: Replay, step: int, list_href: str) -> str:
    step = replay.clamp(step)
    current = replay.steps[step]
    said = (
        f'<p id="move" class="move"><b>{escape(current.player)}</b>: {escape(current.text)}</p>'
        if step
        else '<p id="move" class="move">Setup, before the first move.</p>'
    )
    nav = [f'<a id="list" href="{escape(list_href)}">All games</a>', '<a id="first" href="?step=0">First</a>']
    if step > 0:
        nav.append(f'<a id="prev" href="?step={step - 1}" rel="prev">&larr; Back</a>')
    if step < replay.last:
        nav.append(f'<a id="next" href="?step={step + 1}" rel="next">Forward &rarr;</a>')
    nav.append(f'<a id="last" href="?step={replay.last}">Last</a>')
    moves = "".join(
        f'<li><a href="?step={m.number}">{escape(m.player)}: {escape(m.text)}</a></li>'
        if m.number != step
        else f"<li><b>{escape(m.player)}: {escape(m.text)}</b></li>"
        for m in replay.steps[1:]
    )
    standings = "".join(
        f"<tr><td>{s['rank']}</td><td>{escape(s['player'])}</td><td>{s['score']}</td>"
        f"<td>{escape(s.get('title', ''))}</td></tr>"
        for s in replay.standings
    )
    body = (
        f"<h1>{escape(replay.name)} #{replay.game_id}</h1>\n"
        f"<p>Players: {escape(', '.join(replay.players))}</p>\n"
        f'<p id="where">Step {step} of {replay.last}</p>\n<nav>{" ".join(nav)}</nav>\n{said}\n'
        f'<p><img id="board" src="step-{step}.png" alt="The board at step {step}"></p>\n'
        f'<h2>Final standings</h2>\n<table id="standings"><tr><th>Rank</th><th>Player</th><th>Score</th>'
        f"<th></th></tr>{standings}</table>\n"
        '<p><img id="summary" src="summary.png" alt="End-of-game summary"></p>\n'
        f'<h2>Moves</h2>\n<ol id="moves">{moves}</ol>'
    )
    return _page(f"{replay.name} #{replay.game_id}, step {step}", body)


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
