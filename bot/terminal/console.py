"""The person's console: reading their answers and writing lines for a terminal.

Reading: at a real terminal, :class:`TtyReader` (``readline`` history and tab completion; keys typed while the
computer players moved are discarded before each prompt); a piped stream is read line by line and echoed, so
a transcript reads like a session; tests pass a function. Writing: a function taking one line, or a stream
(with colour at a terminal unless ``NO_COLOR`` is set). Text: Discord markdown turned into ANSI or plain text,
and lines measured and wrapped in terminal columns (emoji count two).
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TextIO

from bot.simulate import isatty

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


# --------------------------------------------------------------------------------------------
# Text


def markdown(text: str, color: bool) -> str:
    """Discord markdown for a terminal: **bold** / *italics* / ~~strike~~ become ANSI (or plain), `code` loses
    its ticks."""
    text = re.sub(r"\*\*(.+?)\*\*", (lambda m: f"\x1b[1m{m.group(1)}\x1b[0m") if color else r"\1", text)
    italic = r"(?<![*\w])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![*\w])"
    text = re.sub(italic, (lambda m: f"\x1b[3m{m.group(1)}\x1b[0m") if color else r"\1", text)
    text = re.sub(r"~~(.+?)~~", (lambda m: f"\x1b[9m{m.group(1)}\x1b[0m") if color else r"\1", text)
    text = re.sub(r"\|\|(.+?)\|\|", r"\1", text)  # a spoiler: only the viewer's own text ever gets here
    return re.sub(r"`([^`]*)`", r"\1", text)


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide characters (most emoji) take two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\ufe0f\u200d":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns (emoji count two), later lines under ``indent``."""
    body = text.lstrip(" ")
    lines: list[str] = []
    line = text[: len(text) - len(body)]  # the first line keeps its own indent
    for word in body.split(" "):
        candidate = f"{line} {word}" if line.strip() else line + word
        if line.strip() and display_width(candidate) > width:
            lines.append(line.rstrip())
            line = indent + word
        else:
            line = candidate
    lines.append(line.rstrip())
    return lines


# --------------------------------------------------------------------------------------------
# Reading and writing


class TtyReader:
    """``input()`` for a person at a terminal: line editing, history and tab completion (``readline``), and
    keys typed while the computer players moved are discarded before each prompt, not taken as a move."""

    def __init__(self, stdin: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.words: list[str] = []
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input() still works
            self.readline = None
        else:
            self.readline = readline
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t")
            # libedit (macOS) and GNU readline spell the binding differently
            readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")

    def complete(self, words: Sequence[str]) -> None:
        """The words tab completes at the next prompt: its moves' words and the commands."""
        self.words = list(words)

    def _complete(self, text: str, state: int) -> str | None:
        hits = [w for w in self.words if w.lower().startswith(text.lower())]
        return hits[state] if state < len(hits) else None

    def flush_typeahead(self) -> None:
        try:
            import termios

            termios.tcflush(self.stdin, termios.TCIFLUSH)
        except (ImportError, OSError, ValueError):  # not a POSIX terminal: nothing to discard
            pass

    def __call__(self, prompt: str) -> str:
        self.flush_typeahead()
        return input(prompt)


def reader(source: InputFn | TextIO | None, write: OutputFn) -> InputFn:
    """The person's answers: ``source`` as given if it is a function, else read from a stream (stdin if None)."""
    if source is None:
        if isatty(sys.stdin):
            return TtyReader()
        source = sys.stdin  # piped: read lines and echo them, so the transcript shows the answers
    if callable(source):
        return source
    stream = source

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        write(prompt + line.rstrip("\n"))  # echo, so a transcript reads like a session
        return line.rstrip("\n")

    return read


def writer(sink: OutputFn | TextIO | None) -> tuple[OutputFn, bool]:
    """A function writing one line to ``sink`` (stdout if None), and whether colour suits it."""
    if sink is None:
        sink = sys.stdout
    if callable(sink):
        return sink, False
    stream = sink

    def write(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()

    color = isatty(stream) and "NO_COLOR" not in os.environ
    return write, color
