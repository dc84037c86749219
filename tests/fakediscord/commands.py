"""Building ``data`` of APPLICATION_COMMAND (type 2) and AUTOCOMPLETE (type 4) interactions.

When the bot synced its commands, the registered schema decides option types, subcommand nesting, required
options, choices and ``default_member_permissions`` — exactly what the Discord client enforces before a user
can send a command. Without a registered schema, types are inferred from the Python values
(bool → 5, int → 4, float → 10, str → 3, :class:`FakeUser` → 6, :class:`FakeChannel` → 7) and a path of two
names means ``group subcommand``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import CommandUnavailable, FakeChannel, FakeGuild, FakeMember, FakeUser

__all__ = ["Option", "OPTION_TYPES", "build_command_data"]

#: Discord application-command option types by name.
OPTION_TYPES: dict[str, int] = {
    "subcommand": 1,
    "subcommand_group": 2,
    "string": 3,
    "integer": 4,
    "boolean": 5,
    "user": 6,
    "channel": 7,
    "role": 8,
    "mentionable": 9,
    "number": 10,
    "attachment": 11,
}


@dataclass(frozen=True)
class Option:
    """Force an option type, e.g. ``Option(10, 3)`` sends the number 3.0 instead of the integer 3."""

    type: int
    value: Any


def _infer_type(value: Any) -> int:
    if isinstance(value, Option):
        return value.type
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, FakeUser):
        return 6
    if isinstance(value, FakeChannel):
        return 7
    if isinstance(value, str):
        return 3
    raise CommandUnavailable(f"cannot infer option type of {value!r}; wrap it in Option(type, value)")


class _Resolver:
    """Collects the ``resolved`` block for user/channel options."""

    def __init__(self, users: dict[int, FakeUser], guild: FakeGuild | None) -> None:
        self.users = users
        self.guild = guild
        self.resolved: dict[str, dict[str, Any]] = {}

    def user(self, value: Any) -> str:
        user = value if isinstance(value, FakeUser) else self.users.get(int(value))
        if user is None:
            raise CommandUnavailable(f"unknown user {value!r}")
        self.resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member: FakeMember | None = self.guild.members.get(user.id) if self.guild else None
        if member is not None:
            self.resolved.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, with_permissions=True
            )
        return str(user.id)

    def channel(self, value: Any) -> str:
        if not isinstance(value, FakeChannel):
            return str(int(value))
        data = value.payload()
        data["permissions"] = str(self.guild.everyone_permissions if self.guild else 0)
        self.resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)


def _encode(type_: int, value: Any, resolver: _Resolver, *, autocomplete: bool) -> Any:
    if isinstance(value, Option):
        value = value.value
    if autocomplete and isinstance(value, str):
        return value  # Discord sends the partially typed text as a string for the focused option
    if type_ == 3:
        return str(value)
    if type_ == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandUnavailable(f"integer option got {value!r}")
        return value
    if type_ == 5:
        return bool(value)
    if type_ == 10:
        return float(value)
    if type_ in (6, 9):
        return resolver.user(value)
    if type_ == 7:
        return resolver.channel(value)
    if type_ in (8, 11):
        return str(value.id if hasattr(value, "id") else value)
    raise CommandUnavailable(f"unsupported option type {type_}")


def _check_option(schema: dict[str, Any], value: Any) -> None:
    name = schema.get("name")
    raw = value.value if isinstance(value, Option) else value
    choices = schema.get("choices")
    if choices and raw not in [c["value"] for c in choices]:
        raise CommandUnavailable(f"option {name!r}: {raw!r} is not one of the choices {[c['value'] for c in choices]}")
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        if schema.get("min_value") is not None and raw < schema["min_value"]:
            raise CommandUnavailable(f"option {name!r}: {raw!r} < min_value {schema['min_value']}")
        if schema.get("max_value") is not None and raw > schema["max_value"]:
            raise CommandUnavailable(f"option {name!r}: {raw!r} > max_value {schema['max_value']}")
    if isinstance(raw, str):
        if schema.get("min_length") is not None and len(raw) < schema["min_length"]:
            raise CommandUnavailable(f"option {name!r}: shorter than min_length {schema['min_length']}")
        if schema.get("max_length") is not None and len(raw) > schema["max_length"]:
            raise CommandUnavailable(f"option {name!r}: longer than max_length {schema['max_length']}")


def build_command_data(
    *,
    name: str,
    path: tuple[str, ...],
    options: dict[str, Any],
    registered: dict[str, Any] | None,
    users: dict[int, FakeUser],
    guild: FakeGuild | None,
    command_id: int,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` object of a chat-input command (or autocomplete, when ``focused`` is given)."""
    autocomplete = focused is not None
    resolver = _Resolver(users, guild)
    level_schema: list[dict[str, Any]] | None = registered.get("options", []) if registered else None

    # Subcommand groups / subcommands
    wrappers: list[dict[str, Any]] = []
    for depth, part in enumerate(path):
        if level_schema is not None:
            match = next((o for o in level_schema if o.get("name") == part and o.get("type") in (1, 2)), None)
            if match is None:
                raise CommandUnavailable(f"/{name} has no subcommand (group) {part!r} at level {depth + 1}")
            wrappers.append({"type": match["type"], "name": part})
            level_schema = match.get("options", [])
        else:
            wrappers.append({"type": 2 if depth < len(path) - 1 else 1, "name": part})
    if level_schema is not None and any(o.get("type") in (1, 2) for o in level_schema):
        subs = [o["name"] for o in level_schema if o.get("type") in (1, 2)]
        raise CommandUnavailable(f"/{name} {' '.join(path)} needs a subcommand, one of {subs}")

    # Leaf options
    leaf: list[dict[str, Any]] = []
    for opt_name, value in options.items():
        schema = None
        if level_schema is not None:
            schema = next((o for o in level_schema if o.get("name") == opt_name), None)
            if schema is None:
                known = [o.get("name") for o in level_schema]
                raise CommandUnavailable(f"/{name} {' '.join(path)} has no option {opt_name!r} (known: {known})")
        opt_type = schema["type"] if schema else _infer_type(value)
        is_focused = opt_name == focused
        if schema and not autocomplete:
            _check_option(schema, value)
        entry: dict[str, Any] = {
            "name": opt_name,
            "type": opt_type,
            "value": _encode(opt_type, value, resolver, autocomplete=autocomplete),
        }
        if is_focused:
            entry["focused"] = True
        leaf.append(entry)
    if level_schema is not None and not autocomplete:
        missing = [o["name"] for o in level_schema if o.get("required") and o["name"] not in options]
        if missing:
            raise CommandUnavailable(f"/{name} {' '.join(path)}: missing required option(s) {missing}")
    if autocomplete and focused not in options:
        raise CommandUnavailable(f"focused option {focused!r} must be given in options")

    # Nest: leaf options inside the innermost subcommand, inside its group
    nested: list[dict[str, Any]] = leaf
    for wrapper in reversed(wrappers):
        nested = [{**wrapper, "options": nested}]

    data: dict[str, Any] = {"id": str(command_id), "name": name, "type": 1, "options": nested}
    if registered and registered.get("guild_id"):
        data["guild_id"] = str(registered["guild_id"])
    if resolver.resolved and not autocomplete:
        data["resolved"] = resolver.resolved
    return data
