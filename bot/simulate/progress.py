"""A one-line progress bar on a terminal stream, for ``dicetavern simulate``."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from bot.i18n import DEFAULT, t


class ProgressBar:
    """A one-line progress bar on a terminal stream (stderr); silent when ``enabled`` is False."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        label: str | None = None,
        width: int = 30,
        enabled: bool | None = None,
        min_interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        locale: str = DEFAULT,
    ) -> None:
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        self.locale = locale
        self.label = t("simulate.progress_label", locale) if label is None else label
        self.width = width
        self.enabled = isatty(self.stream) if enabled is None else enabled
        self.min_interval = min_interval
        self.clock = clock
        self.start = clock()
        self._last = -math.inf
        self._shown = False

    def line(self, done: int, now: float | None = None) -> str:
        fraction = done / self.total if self.total else 1.0
        filled = round(self.width * fraction)
        elapsed = (self.clock() if now is None else now) - self.start
        bar = "#" * filled + "-" * (self.width - filled)
        text = t(
            "simulate.progress", self.locale, bar=bar, done=done, total=self.total, label=self.label, fraction=fraction
        )
        text += t("simulate.progress_elapsed", self.locale, seconds=elapsed)
        if 0 < done < self.total:
            text += t("simulate.progress_eta", self.locale, seconds=elapsed / done * (self.total - done))
        return text

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if not force and now - self._last < self.min_interval and done < self.total:
            return
        self._last = now
        self.stream.write("\r" + self.line(done, now) + "\x1b[K")
        self.stream.flush()
        self._shown = True

    def close(self, done: int | None = None) -> None:
        if not self.enabled:
            return
        self.update(self.total if done is None else done, force=True)
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
