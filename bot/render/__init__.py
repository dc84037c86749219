"""Text for tables and events, from engine views through the message catalog. No Discord here:
the Discord presenter and the terminal presenter both build on these pieces."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from bot.games import Event, IllegalMove, InvalidOptions
from bot.games.parsing import QUOTE_LIMIT, clip, quote
from bot.games.registry import spec
from bot.i18n import has, t
from bot.tables.model import Table, TableError

log = logging.getLogger(__name__)

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
LOG_LINES = 8  # lines of the public log on the table message
SEAT_KEYS = {
    "player",
    "starter",
    "winner",
    "loser",
    "claimant",
    "challenger",
    "bidder",
    "chooser",
    "leader",
    "host",
    "from",
    "to",
    "ended_early_by",
}
SEAT_LIST_KEYS = {"winners", "players", "order"}
# Refusal params that carry a person's own text: quoted as a short prefix, so a 3,000-character paste is refused
# in a reply that fits Discord's 2,000 characters. Other text params (an engine's detail) get a looser limit.
USER_TEXT_KEYS = {"option", "die", "action", "choice", "value", "text", "number"}
DETAIL_LIMIT = 300
REFUSAL_LIMIT = 1900


def dice_text(faces: list[int] | tuple[int, ...]) -> str:
    return " ".join(f"{DIE_FACES[f - 1]}{f}" if 1 <= f <= 6 else str(f) for f in faces)


def seat_names(table: Table) -> list[str]:
    return [s.name if s.level is None else f"🤖 {s.name}" for s in table.seats]


def fill(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Event data with seat numbers swapped for names and dice drawn, ready for a template."""
    params: dict[str, Any] = {}
    for key, value in data.items():
        if key in SEAT_KEYS and isinstance(value, int) and 0 <= value < len(names):
            params[key] = f"**{names[value]}**"
        elif key in SEAT_LIST_KEYS and isinstance(value, list) and all(isinstance(v, int) for v in value):
            params[key] = ", ".join(f"**{names[v]}**" for v in value if 0 <= v < len(names))
        elif key in ("faces", "dice") and isinstance(value, list) and all(isinstance(v, int) for v in value):
            params[key] = dice_text(value)
        else:
            params[key] = value
    return params


def event_text(game: str, kind: str, data: dict[str, Any], names: list[str], locale: str) -> str | None:
    """One log line, or None for events the log does not show (an empty template)."""
    module = game_module(game)
    for key in event_keys(game, kind, data):
        if has(key, locale):
            params = fill(data, names)
            if "missed" in data:
                params["count"] = data["missed"]  # "after {count} missed turns", a plural entry
            if hasattr(module, "event_params"):  # e.g. every hand of a reveal, drawn with names
                variant = module.event_key(kind, data) if hasattr(module, "event_key") else kind
                params.update(module.event_params(variant, data, names, locale))
            text = t(key, locale, **params)
            return text or None
    return None


def event_keys(game: str, kind: str, data: dict[str, Any]) -> list[str]:
    """The catalog keys an event may read from, most specific first."""
    module = game_module(game)
    if hasattr(module, "event_key"):  # a game may pick a variant, e.g. a roll that busts
        kind = module.event_key(kind, data)
    # A forfeit forced by missed turns (the service tags its events ``why``) reads differently from a /leave.
    kinds = [f"{kind}_timeouts", kind] if data.get("why") == "timeouts" else [kind]
    if isinstance(data.get("reason"), str):  # a closed table says why in words, not as its code
        kinds.insert(0, f"{kind}_{data['reason']}")
    return [f"{prefix}.{k}" for k in kinds for prefix in (f"{game}.event", "event")]


def error_text(error: Exception, locale: str, game: str | None = None, names: list[str] | None = None) -> str:
    """A refusal's text. With the table's seat ``names``, seat numbers in the params (``chooser``, ``player``, …)
    read as bold names, as in the log; without them they stay as the engine gave them."""
    if isinstance(error, TableError):
        if isinstance(problem := error.params.get("problem"), InvalidOptions):  # the engine's reason, in words
            error = TableError(error.code, **{**error.params, "detail": option_detail(problem, locale)})
        params = _clipped(error.params)
        if "game" in params:
            params["game_name"] = t(f"game.{params['game']}", locale)
        return clip(t(f"error.{error.code}", locale, **params), REFUSAL_LIMIT)
    if isinstance(error, IllegalMove):
        params = _clipped(error.params)
        if names is not None:
            seats = {k: v for k, v in params.items() if k in SEAT_KEYS}
            params.update(fill(seats, names))
        module = game_module(game) if game else None
        for key in error_keys(error.code, error.params, game):
            if has(key, locale):
                if module is not None and hasattr(module, "error_params"):  # e.g. a bid drawn as dice, a rule explained
                    params.update(module.error_params(error.code, error.params, locale))
                return clip(t(key, locale, **params), REFUSAL_LIMIT)
        log.warning("no catalog text for the refusal %s", error)  # tests/test_catalog.py keeps this from happening
        return t("error.illegal_action", locale)
    raise TypeError(error)


def option_detail(error: InvalidOptions, locale: str) -> str:
    """Why an option value was refused (``must be one of 1, 2; got 3``), from ``error.option.<code>``."""
    params = dict(error.params)
    if "value" in params:
        params["value"] = quote(params["value"])
    if "allowed" in params:
        params["allowed"] = ", ".join(map(str, params["allowed"]))
    return t(f"error.option.{error.code}", locale, **params)


def option_error_text(error: InvalidOptions, locale: str) -> str:
    """``target: must be a whole number from 20 to 500; got 5``: for the terminal and the simulator."""
    return t("error.option_problem", locale, option=error.option, detail=option_detail(error, locale))


def error_keys(code: str, params: dict[str, Any], game: str | None = None) -> list[str]:
    """The catalog keys a refusal may read from, most specific first: the game's variant (its render module's
    ``error_key``, e.g. ``blind_pass_not_allowed_off``), the game's text, then the text all games share."""
    module = game_module(game) if game else None
    variant = module.error_key(code, params) if module is not None and hasattr(module, "error_key") else code
    names = dict.fromkeys((variant, code))
    return [*(f"{game}.error.{name}" for name in names if game), *(f"error.{name}" for name in names)]


def _clipped(params: dict[str, Any]) -> dict[str, Any]:
    """Text params cut short: user text to a short prefix, anything else to a few lines."""
    return {
        key: clip(value, QUOTE_LIMIT if key in USER_TEXT_KEYS else DETAIL_LIMIT) if isinstance(value, str) else value
        for key, value in params.items()
    }


@dataclass
class TableText:
    title: str
    body: list[str]
    log: list[str]
    footer: str


def game_module(game: str) -> Any:
    """The game's render module, as its spec names it (``bot.render.<id>`` by convention)."""
    return import_module(spec(game).renderer)


@dataclass(frozen=True)
class Control:
    """A button the table message offers: a catalog key for its label, the encoded action, a style."""

    label: str
    action: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass(frozen=True)
class Menu:
    """A select menu on the table message: a name, a placeholder key, and (label, encoded action) options."""

    name: str
    placeholder: str
    options: tuple[tuple[str, str], ...]


def controls(table: Table) -> list[Control | Menu]:
    """The buttons for the table's current phase (lobby buttons, or the game's own)."""
    if table.status == "lobby":
        levels = tuple((f"ui.add_bot_{level}", f"addbot:{level}") for level in ("easy", "normal", "hard"))
        return [
            Menu("addbot", "ui.add_bot", levels),
            Control("ui.join", "join", "primary"),
            Control("ui.leave", "leave"),
            Control("ui.start", "start", "success"),
        ]
    if table.status != "running" or table.state is None:
        return []
    return list(game_module(table.game).controls(table.engine.view(table.state, None)))


def table_text(table: Table, locale: str, viewer: int | None = None) -> TableText:
    names = seat_names(table)
    title = t("table.title", locale, game=t(f"game.{table.game}", locale), status=t(f"status.{table.status}", locale))
    if table.state is None:
        body = [t("table.lobby_players", locale, count=len(table.seats))]
        body += [
            f"{i + 1}. {name}" + (" 👑" if s.id == table.host_id else "")
            for i, (s, name) in enumerate(zip(table.seats, names, strict=True))
        ]
        changed = table.engine.options(table.options).changed()
        if changed:
            body.append(t("table.options", locale, options=", ".join(f"{k}={v}" for k, v in changed.items())))
        body.append(t("table.lobby_hint", locale, game=table.game))
    else:
        view = table.engine.view(table.state, viewer)
        body = game_module(table.game).body(view, names, locale)
    log = [line for kind, data in table.log if (line := event_text(table.game, kind, data, names, locale))]
    log = log[-LOG_LINES:]
    footer = t("table.footer", locale, id=table.id)
    return TableText(title, body, log, footer)


def private_text(table: Table, event: Event, locale: str) -> str | None:
    """The secret text for one private event (a roll, a hand), for its owner only."""
    return event_text(table.game, event.kind, event.data, seat_names(table), locale)


def rules_text(game: str, options: dict[str, Any], locale: str) -> str:
    lines = [t(f"{game}.rules", locale), "", t("rules.timeout", locale, action=t(f"{game}.timeout_default", locale))]
    if options:
        lines.append(t("rules.options", locale, options=", ".join(f"`{k}={v}`" for k, v in options.items())))
    return "\n".join(lines)
