"""Parsing ``key=value`` setup options against a game's declared OptionSpecs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.base import IllegalMove, OptionSpec
from games.notation import suggest

_TRUE = {"on", "yes", "true", "1"}
_FALSE = {"off", "no", "false", "0"}


def defaults(specs: Iterable[OptionSpec]) -> dict[str, Any]:
    return {spec.name: spec.default for spec in specs}


def parse_options(text: str | Mapping[str, Any], specs: Iterable[OptionSpec]) -> dict[str, Any]:
    """Turn ``"monuments=off cave=on"`` (or a dict of raw strings) into typed options."""
    specs_by_name = {spec.name: spec for spec in specs}
    raw: dict[str, Any]
    if isinstance(text, str):
        raw = {}
        for word in text.split():
            if "=" not in word:
                raise IllegalMove(f'Option "{word}" must look like name=value.')
            key, value = word.split("=", 1)
            raw[key.strip().lower()] = value.strip()
    else:
        raw = dict(text)
    result = defaults(specs_by_name.values())
    for key, value in raw.items():
        spec = specs_by_name.get(key)
        if spec is None:
            raise IllegalMove(
                f'Unknown option "{key}"{suggest(key, specs_by_name)}. Options: {", ".join(specs_by_name) or "none"}.'
            )
        result[key] = _convert(spec, value)
    return result


def _convert(spec: OptionSpec, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    word = value.lower()
    if spec.kind == "bool":
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise IllegalMove(f"Option {spec.name} is on or off, not {value}.")
    if spec.kind == "int":
        try:
            return int(word)
        except ValueError:
            raise IllegalMove(f"Option {spec.name} needs a whole number, not {value}.") from None
    if spec.kind == "choice":
        if word not in spec.choices:
            raise IllegalMove(
                f"Option {spec.name} must be one of {', '.join(spec.choices)}, not {value}"
                f"{suggest(word, spec.choices)}."
            )
        return word
    if spec.kind == "list":
        return [item for item in word.split(",") if item]
    return value


def format_options(options: Mapping[str, Any], specs: Iterable[OptionSpec]) -> str:
    """The ``options:`` line of a transcript: only values that differ from the defaults."""
    parts = []
    for spec in specs:
        value = options.get(spec.name, spec.default)
        if value == spec.default:
            continue
        if isinstance(value, bool):
            text = "on" if value else "off"
        elif isinstance(value, list):
            text = ",".join(str(v) for v in value)
        else:
            text = str(value)
        parts.append(f"{spec.name}={text}")
    return " ".join(parts)
