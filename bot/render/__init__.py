"""Text for tables and events, from engine views through the message catalog. No Discord here:
the Discord presenter and the terminal presenter both build on these pieces."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from importlib import import_module
from itertools import groupby
from typing import Any, NamedTuple

import bot.i18n as i18n
from bot.games import Event, IllegalMove, InvalidOptions
from bot.games.parsing import QUOTE_LIMIT, clip, quote
from bot.games.registry import on_change, spec
from bot.i18n import SURFACE, has, t
from bot.render import faces
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


def die_text(face: int, wild: bool = False) -> str:
    """One die in text: its application emoji where uploaded (``faces``), else ``⚂3`` (the Unicode face and
    its number: a screen reader or a small font still tells them apart). ``wild``: Liar's Dice's wild one."""
    if not 1 <= face <= 6:
        return str(face)
    key = "w1" if wild and face == 1 else f"d{face}"
    return faces.text(key) if faces.loaded(key) else f"{DIE_FACES[face - 1]}{face}"


def dice_text(values: list[int] | tuple[int, ...], wild: bool = False) -> str:
    """Dice in text, ``⚀1 ⚃4 ⚃4``. Where the faces are emojis (some 35 characters each), a hand of more than two
    dice draws each run of one face once with its count, ``<:…:…>×3``: six Liar's Dice hands of six, shown at a
    reveal, would take half of the table message's 4,000 characters. A throw of two (a Mex double) stays two."""
    drawn = [die_text(f, wild) for f in values]
    if len(drawn) <= 2 or not drawn[0].startswith("<:"):
        return " ".join(drawn)
    return " ".join(runs(drawn))


def runs(drawn: list[str]) -> list[str]:
    """Equal neighbours drawn as one with their count, ``×n``."""
    out: list[str] = []
    for face, group in groupby(drawn):
        n = len(list(group))
        out.append(face if n == 1 else f"{face}×{n}")
    return out


def seat_names(table: Table) -> list[str]:
    return [s.name if s.level is None else f"🤖 {s.name}" for s in table.seats]


def fill(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Event data with seat numbers swapped for names and dice drawn, ready for a template."""
    params: dict[str, Any] = {}
    seats = len(names)
    for key, value in data.items():
        if key in SEAT_KEYS:
            if isinstance(value, int) and 0 <= value < seats:
                value = f"**{names[value]}**"
        elif key in SEAT_LIST_KEYS:
            if isinstance(value, list) and all(isinstance(v, int) for v in value):
                value = ", ".join(f"**{names[v]}**" for v in value if 0 <= v < seats)
        elif key in DICE_KEYS and isinstance(value, list) and all(isinstance(v, int) for v in value):
            value = dice_text(value)
        params[key] = value
    return params


DICE_KEYS = frozenset({"faces", "dice"})


def event_text(game: str, kind: str, data: dict[str, Any], names: list[str], locale: str) -> str | None:
    """One log line, or None for events the log does not show (an empty template)."""
    module = game_module(game)
    pick = getattr(module, "event_key", None)  # a game may pick a variant, e.g. a roll that busts
    variant = kind if pick is None else pick(kind, data)
    for key in _event_keys(game, variant, data):
        if has(key, locale):
            params = fill(data, names)
            if "missed" in data:
                params["count"] = data["missed"]  # "after {count} missed turns", a plural entry
            more = getattr(module, "event_params", None)  # e.g. every hand of a reveal, drawn with names
            if more is not None:
                params.update(more(variant, data, names, locale))
            text = t(key, locale, **params)
            return text or None
    return None


def event_keys(game: str, kind: str, data: dict[str, Any]) -> list[str]:
    """The catalog keys an event may read from, most specific first."""
    module = game_module(game)
    if hasattr(module, "event_key"):  # a game may pick a variant, e.g. a roll that busts
        kind = module.event_key(kind, data)
    return _event_keys(game, kind, data)


def _event_keys(game: str, variant: str, data: dict[str, Any]) -> list[str]:
    # A forfeit forced by missed turns (the service tags its events ``why``) reads differently from a /leave.
    kinds = [f"{variant}_timeouts", variant] if data.get("why") == "timeouts" else [variant]
    if isinstance(data.get("reason"), str):  # a closed table says why in words, not as its code
        kinds.insert(0, f"{variant}_{data['reason']}")
    return [f"{prefix}.{k}" for k in kinds for prefix in (f"{game}.event", "event")]


def group_name(game: str, locale: str) -> str:
    """A game's slash-command group as Discord shows it in ``locale`` (English where Discord has no such locale)."""
    return t(f"name.group.{game}", locale)


def error_text(error: Exception, locale: str, game: str | None = None, names: list[str] | None = None) -> str:
    """A refusal's text. With the table's seat ``names``, seat numbers in the params (``chooser``, ``player``, …)
    read as bold names, as in the log; without them they stay as the engine gave them."""
    if isinstance(error, TableError):
        if isinstance(problem := error.params.get("problem"), InvalidOptions):  # the engine's reason, in words
            error = TableError(error.code, **{**error.params, "detail": option_detail(problem, locale)})
        params = _clipped(error.params)
        if "game" in params:
            params["game_name"] = t(f"game.{params['game']}", locale)
            if has(f"name.group.{params['game']}"):  # a game id: `/{game}` is its command group
                params["game"] = group_name(params["game"], locale)
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


class Layout(NamedTuple):
    """A table drawn by its game: what a render module's ``layout(view, names, locale)`` returns."""

    head: list[str]  # lines above the seats: the goal, the round, the options in play
    seats: list[str]  # exactly one entry per seat, in seat order; an entry may hold 2 lines joined by "\n"
    foot: list[str]  # lines below the seats: whose turn and what they must beat, the standing bid, the result


def join_layout(head: list[str], seats: list[str], foot: list[str]) -> list[str]:
    """The layout as lines: head, a blank line, the seats (an entry of two lines gives two), a blank line, the
    foot; a part with nothing in it takes no blank line. What the terminal, DMs, 🎲 My dice and replays show."""
    parts = [head, [line for entry in seats for line in entry.split("\n")], foot]
    lines: list[str] = []
    for part in parts:
        if part:
            lines += [""] if lines else []
            lines += part
    return lines


def body_lines(game: str, view: Any, names: list[str], locale: str) -> list[str]:
    """A view drawn by its game as lines (``join_layout``), for callers that want text, not parts."""
    return join_layout(*game_module(game).layout(view, names, locale))


@dataclass
class TableText:
    """A table's text in parts, for the table message (a block per seat) and, joined, for everything else."""

    title: str
    head: list[str]
    seats: list[str]  # one entry per seat (the lobby's too), in seat order
    foot: list[str]
    log: list[str]
    footer: str
    fair: list[str] = field(default_factory=list)  # the fair dice: the commitment, the client seed while in play
    turn: int | None = None  # the seat to act; None: nobody's alone (the lobby, simultaneous bids, over)

    @property
    def body(self) -> list[str]:
        """The text as lines (``join_layout``): what the terminal, DMs, 🎲 My dice and replays show."""
        return join_layout(self.head, self.seats, self.foot)


OVER = ("finished", "cancelled")
CLIENT_SEED_SHOWN = 300  # characters of the client seed on the table message (the export has all of it)


def fair_lines(table: Table, locale: str) -> list[str]:
    """The table's fair dice: the commitment from the lobby on, and the client seed while the game is played. A
    finished game's seed is in its end-of-game message (``fair.final``), once; a cancelled table has no such
    message, so it shows the seed itself. Nothing for a table without fair dice."""
    fair = getattr(table, "fair", None)
    if fair is None:
        return []
    lines = [t("fair.commitment", locale, commitment=fair.commitment)]
    if table.state is not None and table.status not in OVER:
        shown = clip(fair.client_seed.replace("`", "ˋ"), CLIENT_SEED_SHOWN)  # a backtick would end the code span
        lines.append(t("fair.client_seed", locale, client_seed=shown))
        if fair.start is not None:
            lines.append(t("fair.start", locale, start=fair.start))
    if table.status == "cancelled":
        lines.append(t("fair.seed", locale, seed=fair.reveal(), id=table.id))
        lines += over_lines(table, locale)
    return lines


def over_lines(table: Table, locale: str) -> list[str]:
    """What a game that is over adds to its seed: the chain's head, and the mark of a game the bot's owner played."""
    lines = []
    head = getattr(table, "chain", None)
    if head:
        lines.append(t("fair.chain", locale, head=head))
    if getattr(table, "owner_seated", False):
        lines.append(t("fair.owner_seated", locale))
    return lines


_MODULES: dict[str, Any] = {}  # game id -> its render module (import_module costs ~2 µs, asked per log line)
on_change(_MODULES.clear)  # a game registered or removed: look the modules up again


def game_module(game: str) -> Any:
    """The game's render module, as its spec names it (``bot.render.<id>`` by convention)."""
    module = _MODULES.get(game)
    if module is None:
        module = _MODULES[game] = import_module(spec(game).renderer)
    return module


@dataclass(frozen=True)
class Control:
    """A button the table message offers: a catalog key for its label, the encoded action, a style."""

    label: str
    action: str
    style: str = "secondary"  # primary | secondary | success | danger
    face: str | None = None  # a die face key (``bot.render.faces``): the button's emoji where uploaded


@dataclass(frozen=True)
class Menu:
    """A select menu on the table message: a name, a placeholder key, and (label, encoded action) options."""

    name: str
    placeholder: str
    options: tuple[tuple[str, str], ...]
    faces: tuple[str | None, ...] = ()  # per option, a die face key for its emoji (``bot.render.faces``), or None


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
    cache = _state_cache(table)
    # Controls name catalog keys, but a menu's options may be text already written (a bid), hence the key.
    key = (SURFACE.get(), i18n.generation(), faces.generation(), game_module(table.game))
    if cache.controls is None or cache.controls[0] != key:
        cache.controls = (key, tuple(game_module(table.game).controls(_public_view(table, cache))))
        _release_view(cache)
    return list(cache.controls[1])


# -- render once: what a table's message is built from, cached on the table ---------------------------------------
#
# The table message is redrawn after every move, but a move changes only the state: the log's older lines, the
# title and the footer stay. So each log line is rendered once (per locale), when its event is first shown, and
# the state's public view once for both the layout and the controls. The layout is drawn anew for every state (a
# state is drawn about once: keeping its layout would cost memory on every idle table for little). Keys hold
# everything the text is made from besides the table itself (locale, surface, seat names, the catalog's
# generation and the render module), and a cached state or log entry is recognised by identity: the cache keeps
# the object itself and compares it with ``is`` (never a bare ``id()``, which a freed object's successor reuses).


class RenderCache:
    """One table's rendered pieces (``Table.render_cache``)."""

    __slots__ = ("state", "version", "view", "drawn", "controls", "head", "logs")

    def __init__(self) -> None:
        self.state: Any = None  # the state the next three fields were made from (with the table's version)
        self.version = -1
        self.view: Any = None  # its public view, until both the layout and the controls are made
        self.drawn = False  # its layout was made
        self.controls: tuple[tuple[Any, ...], tuple[Control | Menu, ...]] | None = None  # (key, controls)
        self.head: tuple[tuple[Any, ...], str, str] | None = None  # (key, title, footer)
        # key -> the log's newest entries as last drawn, oldest first, each with its line (None: no text)
        self.logs: dict[tuple[Any, ...], list[tuple[object, str | None]]] = {}


KEYS_KEPT = 4  # locales (or surfaces, or seat lists) whose log lines a table keeps: its own plus a few viewers'


def _cache(table: Table) -> RenderCache:
    cache = getattr(table, "render_cache", None)  # a field of Table; read softly so a table without it still draws
    if not isinstance(cache, RenderCache):
        cache = table.render_cache = RenderCache()
    return cache


def _state_cache(table: Table) -> RenderCache:
    """The table's cache, its per-state part reset when the state (or version) moved on."""
    cache = _cache(table)
    if cache.state is not table.state or cache.version != table.version:
        cache.state, cache.version = table.state, table.version
        cache.view, cache.controls, cache.drawn = None, None, False
    return cache


def _public_view(table: Table, cache: RenderCache) -> Any:
    """The channel's view of the current state, made once for the layout and the controls."""
    view = cache.view
    if view is None:
        view = cache.view = table.engine.view(table.state, None)
    return view


def _release_view(cache: RenderCache) -> None:
    if cache.drawn and cache.controls is not None:
        cache.view = None  # both made: no need to keep it (a Liar's Dice view holds every legal bid)


def _text_key(table: Table, names: list[str], locale: str) -> tuple[Any, ...]:
    return (locale, SURFACE.get(), i18n.generation(), faces.generation(), game_module(table.game), tuple(names))


def _layout(table: Table, names: list[str], locale: str) -> Layout:
    cache = _state_cache(table)
    drawn = game_module(table.game).layout(_public_view(table, cache), names, locale)
    cache.drawn = True
    _release_view(cache)
    return drawn


def _head(table: Table, locale: str) -> tuple[str, str]:
    cache = _cache(table)
    key = (locale, SURFACE.get(), i18n.generation(), table.game, table.status, table.id)
    if cache.head is None or cache.head[0] != key:
        game = t(f"game.{table.game}", locale)
        title = t("table.title", locale, game=game, status=t(f"status.{table.status}", locale))
        # 🎲 My dice is there only while the game is played: no footer names a button the table does not have
        footer = t("table.footer" if table.status == "running" else "table.footer_id", locale, id=table.id)
        cache.head = (key, title, footer)
    return cache.head[1], cache.head[2]


def log_lines(table: Table, names: list[str], locale: str) -> list[str]:
    """The table log's lines (at most LOG_LINES, newest last), each event rendered once per locale.

    The log only grows at its end, so the entries drawn last time are the ones just before the new ones: walking
    the log newest first, the new entries are rendered until the newest drawn entry is met (by identity), then
    the older ones line up with the memo one by one. Only the entries walked are kept (older ones never show again).
    """
    key = _text_key(table, names, locale)
    logs = _cache(table).logs
    memo = logs.get(key)
    if memo is None:
        if len(logs) >= KEYS_KEPT:
            logs.clear()
        memo = []
    newest = memo[-1][0] if memo else None
    at = -1  # the memo's entry the next log entry should be: none until the newest drawn one is met
    walked: list[tuple[object, str | None]] = []
    shown: list[str] = []
    for entry in reversed(table.log):  # newest first: only the last LOG_LINES lines with text are shown
        if at < 0 and entry is newest:
            at = len(memo) - 1
        if at >= 0 and memo[at][0] is entry:
            hit = memo[at]
            at -= 1
        else:
            at = -1  # not (or no longer) in line with the memo: drawn anew
            kind, data = entry
            hit = (entry, event_text(table.game, kind, data, names, locale))
        walked.append(hit)
        if hit[1]:
            shown.append(hit[1])
            if len(shown) == LOG_LINES:
                break
    walked.reverse()
    logs[key] = walked
    shown.reverse()
    return shown


def option_label(game: str, option: str, locale: str) -> str:
    """An option's name in words (the lobby's options line, the ⚙ Options form): ``form.<game>.<option>``, else the
    slash option's localised name (a game that brings no form texts), else the option's own name."""
    for key in (f"form.{game}.{option}", f"name.param.{option}"):
        if has(key, locale):
            return t(key, locale)
    return option.replace("_", " ")


def option_word(game: str, option: str, value: Any, locale: str) -> str:
    """An option's value in words: on/off, ``form.<game>.<option>.<value>`` (a choice, or a number that means
    something, such as no limit), else the slash choice's localised name, else the value as written."""
    if isinstance(value, bool):
        return t("form.on" if value else "form.off", locale)
    text = str(value)
    if text.isascii() and text.replace("_", "").isalnum():  # a choice's or a number's key (never free text)
        for key in (f"form.{game}.{option}.{text}", f"name.choice.{text}"):
            if has(key, locale):
                return t(key, locale)
    return text


def table_text(table: Table, locale: str, viewer: int | None = None) -> TableText:
    names = seat_names(table)
    title, footer = _head(table, locale)
    turn = None
    if table.state is None:
        head = [t("table.lobby_players", locale, count=len(table.seats))]
        changed = table.engine.options(table.options).changed()
        if changed:  # in words, as the ⚙ Options form names them: "⚙ Mode: loot · Wild ones: on"
            game = table.game
            pairs = [
                t("form.pair", locale, label=option_label(game, k, locale), value=option_word(game, k, v, locale))
                for k, v in changed.items()
            ]
            head.append(t("form.line", locale, options=" · ".join(pairs)))
        seats = [
            f"{i + 1}. {name}" + (" 👑" if s.id == table.host_id else "")
            for i, (s, name) in enumerate(zip(table.seats, names, strict=True))
        ]
        drawn = Layout(head, seats, [t("table.lobby_hint", locale, game=group_name(table.game, locale))])
    else:
        if viewer is None:
            drawn = _layout(table, names, locale)
        else:
            drawn = game_module(table.game).layout(table.engine.view(table.state, viewer), names, locale)
        acting = table.engine.to_act(table.state)  # the engine's word on whose turn it is, whatever the view names it
        turn = acting[0] if len(acting) == 1 and table.status == "running" else None
        if table.status in OVER and acting:  # closed mid-game: nobody is to act, whatever the foot would ask
            drawn = Layout(drawn.head, drawn.seats, [])
    head, seats, foot = drawn
    log = log_lines(table, names, locale)
    return TableText(title, list(head), list(seats), list(foot), log, footer, fair_lines(table, locale), turn)


def private_text(table: Table, event: Event, locale: str) -> str | None:
    """The secret text for one private event (a roll, a hand), for its owner only."""
    return event_text(table.game, event.kind, event.data, seat_names(table), locale)


def rules_text(game: str, options: dict[str, Any], locale: str) -> str:
    lines = [t(f"{game}.rules", locale), "", t("rules.timeout", locale, action=t(f"{game}.timeout_default", locale))]
    if options:
        lines.append(t("rules.options", locale, options=", ".join(f"`{k}={v}`" for k, v in options.items())))
    return "\n".join(lines)


CONTENT_LIMIT = 2000  # Discord's limit on a message's content


def rules_pages(game: str, options: dict[str, Any], locale: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """The rules as messages of at most ``limit`` characters each: a translation may run past one message, and a
    cut rules text would drop the rules' end (the timeout and the table's options)."""
    return split_text(rules_text(game, options, locale), limit)


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines (inside a line only if it alone is too
    long: at its last space that fits, else anywhere). Joining the pieces with newlines gives ``text`` back, up to
    the whitespace at a cut inside a line."""
    pages: list[str] = []
    page: list[str] = []
    size = -1  # the characters of "\n".join(page)
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 1, limit + 1)
            cut = cut if cut > 0 else limit
            head, line = line[:cut], line[cut:].lstrip(" ")
            if page:
                pages.append("\n".join(page))
                page, size = [], -1
            pages.append(head)
        if size + 1 + len(line) > limit:
            pages.append("\n".join(page))
            page, size = [], -1
        page.append(line)
        size += 1 + len(line)
    if page and any(page):
        pages.append("\n".join(page))
    return pages or [""]
