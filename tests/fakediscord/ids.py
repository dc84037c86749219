"""The checks a message's components and a modal's share: ``id`` (a 32-bit integer, unique; 0 lets Discord pick),
``custom_id`` (1-100 characters, unique) and a list of options (a select's, a radio or checkbox group's), as
Discord words their errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class IdChecks:
    """Mixed into a validator that has ``err(path, code, message)``."""

    err: Callable[[str, str, str], None]

    def __init__(self) -> None:
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()

    def _id(self, comp: dict[str, Any], path: str) -> None:
        cid = comp.get("id")
        if cid is None:
            return
        if isinstance(cid, bool) or not isinstance(cid, int) or not 0 <= cid < 2**31:
            self.err(f"{path}.id", "NUMBER_TYPE_MAX", "Must be a 32-bit integer.")
        elif cid:  # 0 means "let Discord pick"
            if cid in self.ids:
                self.err(f"{path}.id", "COMPONENT_ID_DUPLICATED", f"Component id {cid} cannot be duplicated.")
            self.ids.add(cid)

    def _custom_id(self, comp: dict[str, Any], path: str) -> None:
        cid = comp.get("custom_id")
        if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
            self.err(f"{path}.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            return
        if cid in self.custom_ids:
            self.err(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id {cid!r} cannot be duplicated",
            )
        self.custom_ids.add(cid)

    def _option_list(self, options: list[Any], path: str, more: Callable[[dict[str, Any], str], None]) -> None:
        """Each option an object with a label and a value of 1-100 characters and a description of at most 100,
        the values unique; ``more``: the caller's own checks of one option (its emoji, its default)."""
        values: set[str] = set()
        for j, option in enumerate(options):
            opath = f"{path}.options.{j}"
            if not isinstance(option, dict):
                self.err(opath, "BASE_TYPE_BAD_TYPE", "Must be an object.")
                continue
            for key in ("label", "value"):
                text = option.get(key)
                if not isinstance(text, str) or not 1 <= len(text) <= 100:
                    self.err(f"{opath}.{key}", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            description = option.get("description")
            if description is not None and len(str(description)) > 100:
                self.err(f"{opath}.description", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
            value = option.get("value")
            if isinstance(value, str):
                if value in values:
                    self.err(
                        f"{opath}.value",
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        f"Option value {value!r} is duplicated",
                    )
                values.add(value)
            more(option, opath)
