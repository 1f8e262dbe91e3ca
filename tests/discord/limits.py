"""Discord's documented limits, as checks that return a list of problems (empty = valid).

Used by the fake Discord server (it refuses what Discord would refuse) and by the static
test that walks the command tree and every view factory.
"""

from __future__ import annotations

import io
import re
from typing import Any

NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_COMMAND_TOTAL = 8000  # name + description + option names/descriptions + choice names/values
INT_LIMIT = 2**53
YES_NO = ({"on", "off"}, {"yes", "no"}, {"true", "false"})


def command_problems(commands: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len([c for c in commands if c.get("type", 1) == 1]) > 100:
        problems.append("more than 100 chat-input commands")
    names = [c.get("name") for c in commands]
    if len(names) != len(set(names)):
        problems.append(f"duplicate command names {names}")
    for command in commands:
        where = f"/{command.get('name')}"
        if "dm_permission" in command:
            problems.append(f"{where}: dm_permission is deprecated (use contexts)")
        problems += _named(command, where)
        problems += _options(command.get("options", []), where, depth=0)
        total = _characters(command)
        if total > MAX_COMMAND_TOTAL:
            problems.append(f"{where}: {total} characters in names/descriptions/choices > {MAX_COMMAND_TOTAL}")
    return problems


def _named(item: dict[str, Any], where: str) -> list[str]:
    problems = []
    name, description = item.get("name", ""), item.get("description", "")
    if not isinstance(name, str) or not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: bad name {name!r} (1-32 lower-case letters, digits, - or _)")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        problems.append(f"{where}: description must be 1-100 characters, got {len(description or '')}")
    elif description.strip(" .…") == "":
        problems.append(f"{where}: placeholder description {description!r} (say what it is)")
    return problems


def _options(options: list[dict[str, Any]], where: str, depth: int) -> list[str]:
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options/subcommands > 25")
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        problems.append(f"{where}: duplicate option names {names}")
    kinds = {o.get("type") in (1, 2) for o in options}
    if len(kinds) > 1:
        problems.append(f"{where}: subcommands mixed with plain options")
    seen_optional = False
    for option in options:
        here = f"{where} {option.get('name')}"
        problems += _named(option, here)
        kind = option.get("type")
        if kind == 2:
            if depth > 0:
                problems.append(f"{here}: subcommand groups nest only one level")
            if any(o.get("type") != 1 for o in option.get("options", [])):
                problems.append(f"{here}: a subcommand group may only contain subcommands")
            problems += _options(option.get("options", []), here, depth + 1)
        elif kind == 1:
            problems += _options(option.get("options", []), here, depth + 1)
        else:
            if option.get("required"):
                if seen_optional:
                    problems.append(f"{here}: required option after an optional one")
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if {str(c.get("value")).lower() for c in choices} in YES_NO:
                problems.append(f"{here}: a yes/no option must be a boolean, not choices {choices}")
            if len(choices) > 25:
                problems.append(f"{here}: {len(choices)} choices > 25")
            if choices and option.get("autocomplete"):
                problems.append(f"{here}: choices and autocomplete together")
            problems += choice_problems(choices, here)
            for key in ("min_length", "max_length"):
                if key in option and not 0 <= option[key] <= 6000:
                    problems.append(f"{here}: {key} {option[key]} outside 0-6000")
            for key in ("min_value", "max_value"):
                if key in option and not -INT_LIMIT <= option[key] <= INT_LIMIT:
                    problems.append(f"{here}: {key} {option[key]} outside ±2^53")
    return problems


def choice_problems(choices: list[dict[str, Any]], where: str = "choices") -> list[str]:
    problems = []
    if len(choices) > 25:
        problems.append(f"{where}: {len(choices)} choices > 25")
    for choice in choices:
        name, value = choice.get("name", ""), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"{where}: choice name must be 1-100 characters: {name!r}")
        if isinstance(value, str) and not 1 <= len(value) <= 100:
            problems.append(f"{where}: choice value must be 1-100 characters: {value!r}")
    return problems


def _characters(item: dict[str, Any]) -> int:
    total = len(item.get("name", "")) + len(item.get("description", ""))
    for choice in item.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(_characters(option) for option in item.get("options") or [])


def component_problems(rows: list[dict[str, Any]], where: str = "components") -> list[str]:
    problems = []
    if len(rows) > 5:
        problems.append(f"{where}: {len(rows)} action rows > 5")
    ids: list[str] = []
    for r, row in enumerate(rows):
        here = f"{where} row {r}"
        if row.get("type") != 1:
            problems.append(f"{here}: top-level component must be an action row")
            continue
        items = row.get("components", [])
        if not items:
            problems.append(f"{here}: empty action row")
        buttons = [c for c in items if c.get("type") == 2]
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if len(buttons) > 5:
            problems.append(f"{here}: {len(buttons)} buttons > 5")
        if selects and (len(items) > 1):
            problems.append(f"{here}: a select menu must be alone in its row")
        for item in items:
            custom_id = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") == 5:
                if not item.get("url"):
                    problems.append(f"{here}: link button without url")
                continue
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
                problems.append(f"{here}: custom_id must be 1-100 characters: {custom_id!r}")
            else:
                ids.append(custom_id)
            if item.get("type") == 2:
                label = item.get("label") or ""
                if len(label) > 80:
                    problems.append(f"{here}: button label longer than 80: {label!r}")
                if not label and not item.get("emoji"):
                    problems.append(f"{here}: button needs a label or an emoji")
            if item.get("type") == 3:
                options = item.get("options", [])
                if not 1 <= len(options) <= 25:
                    problems.append(f"{here}: select needs 1-25 options, got {len(options)}")
                values = [o.get("value") for o in options]
                if len(values) != len(set(values)):
                    problems.append(f"{here}: duplicate select values")
                for option in options:
                    for key, limit in (("label", 100), ("value", 100), ("description", 100)):
                        text = option.get(key)
                        if key != "description" and not text:
                            problems.append(f"{here}: select option without {key}")
                        if text is not None and len(text) > limit:
                            problems.append(f"{here}: select option {key} longer than {limit}: {text!r}")
                if len(item.get("placeholder") or "") > 150:
                    problems.append(f"{here}: placeholder longer than 150")
    if len(ids) != len(set(ids)):
        problems.append(f"{where}: duplicate custom_ids {ids}")
    return problems


def message_problems(payload: dict[str, Any], files: list[tuple[str, bytes]], *, editing: bool = False) -> list[str]:
    problems = []
    content = payload.get("content")
    if content is not None and len(content) > 2000:
        problems.append(f"content is {len(content)} characters > 2000")
    if len(payload.get("embeds") or []) > 10:
        problems.append("more than 10 embeds")
    problems += component_problems(payload.get("components") or [])
    if len(files) > 10:
        problems.append(f"{len(files)} files > 10")
    attachments = payload.get("attachments") or []
    for attachment in attachments:
        if len(attachment.get("description") or "") > 1024:
            problems.append("attachment description longer than 1024")
    for name, data in files:
        problems += file_problems(name, data)
    mentions = payload.get("allowed_mentions")
    if mentions:
        parse = mentions.get("parse", [])
        if "users" in parse and mentions.get("users"):
            problems.append("allowed_mentions: parse users together with a users list")
        if len(mentions.get("users", [])) > 100:
            problems.append("allowed_mentions: more than 100 users")
    empty = (
        not content and not payload.get("embeds") and not files and not payload.get("components") and not attachments
    )
    if empty and not editing:
        problems.append("cannot send an empty message")
    return problems


def file_problems(name: str, data: bytes) -> list[str]:
    if not data:
        return [f"attachment {name} is empty"]
    if name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp")):
        from PIL import Image

        try:
            with Image.open(io.BytesIO(data)) as image:
                image.load()
        except Exception as exc:  # anything Pillow cannot decode is a broken upload
            return [f"attachment {name} is not a decodable image: {exc}"]
    return []
