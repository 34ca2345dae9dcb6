"""Game options: declaration, validation and the text form ``key=value,key=value``.

Each game module declares its options as a dict ``name -> Option``. Unknown names and
values outside the allowed set raise :class:`OptionError` naming the option.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

INT_OPTION_MAX = 1_000_000  # a free integer option (a target, a value) is 1 to this


@dataclass(frozen=True)
class Option:
    """One option: its default, its allowed values (None = any of the default's type)."""

    default: Any
    choices: tuple | None = None
    rule: str = ""
    help: str = ""

    def check(self, name: str, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(
                    f"option {name}: {value!r} is not one of {', '.join(map(repr, self.choices))}")
            return value
        kind = type(self.default)
        if kind is int and isinstance(value, bool):
            raise OptionError(f"option {name}: expected an integer, got {value!r}")
        if not isinstance(value, kind):
            raise OptionError(f"option {name}: expected {kind.__name__}, got {value!r}")
        if kind is int and not 1 <= value <= INT_OPTION_MAX:  # targets, misère value
            raise OptionError(f"option {name}: expected 1 to {INT_OPTION_MAX:,}, got {value}")
        return value


def resolve(spec: dict[str, Option], given: dict[str, Any] | None, game: str) -> dict[str, Any]:
    """Full option dict: defaults overridden by ``given``, every value checked."""
    out = {name: opt.default for name, opt in spec.items()}
    for name, value in (given or {}).items():
        if name not in spec:
            raise OptionError(f"unknown {game} option {name!r} (known: {', '.join(sorted(spec))})")
        if isinstance(value, str):
            value = parse_value(value)
            if isinstance(spec[name].default, str) and not isinstance(value, str):
                value = str(value).lower() if isinstance(value, bool) else str(value)
        out[name] = spec[name].check(name, value)
    return out


def parse_value(text: str) -> Any:
    """Option value from text: JSON (numbers, true/false, lists) or a bare word."""
    text = text.strip()
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, list):
        return tuple(value)
    return value


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    return str(value)


def parse_options(text: str) -> dict[str, Any]:
    """``'players=5,misere=on'`` -> ``{'players': 5, 'misere': 'on'}`` (values unchecked).

    Commas inside ``[...]`` do not split.
    """
    out: dict[str, Any] = {}
    text = text.strip()
    if not text:
        return out
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for part in parts:
        if "=" not in part:
            raise OptionError(f"option {part.strip()!r} is not of the form key=value")
        key, _, val = part.partition("=")
        out[key.strip()] = parse_value(val)
    return out


def format_options(options: dict[str, Any], spec: dict[str, Option] | None = None) -> str:
    """Text form; with ``spec``, only options that differ from their default."""
    items = [(k, v) for k, v in options.items()
             if spec is None or k not in spec or spec[k].default != v]
    return ",".join(f"{k}={format_value(v)}" for k, v in items)
