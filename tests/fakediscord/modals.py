"""A modal (interaction callback type 9) checked as Discord checks it, from Discord's developer docs
(``interactions/receiving-and-responding.mdx``: the modal; ``components/reference.mdx``: Label, Text Display, String
Select, Text Input, Radio Group, Checkbox Group, Checkbox):

* the modal: ``custom_id`` 1-100 characters, ``title`` 1-45, 1-5 top-level ``components``;
* top level: a Label (18), a Text Display (10), or (legacy) an Action Row (1) holding one text input or select;
* a Label: ``label`` 1-45 characters, ``description`` at most 100, exactly one ``component`` of a type a label may
  hold (text input, the selects, file upload, radio group, checkbox group, checkbox);
* a string select (3): 1-25 options, ``min_values`` 0-25 (at least 1 if required), ``max_values`` 1-25 and at most
  the options, no ``disabled: true`` in a modal, at most one default unless several may be chosen;
* a text input (4): style 1 or 2, ``min_length`` 0-4000, ``max_length`` 1-4000, a prefilled ``value`` of at most
  4000 characters and within ``max_length``, ``placeholder`` at most 100;
* a radio group (21): 2-10 options, at most one default; a checkbox group (22): 1-10 options, ``min_values`` 0-10
  (at least 1 if required), ``max_values`` 1-10 and at most the options; a checkbox (23): a boolean ``default``;
* every option: ``label`` 1-100, ``value`` 1-100 (unique in its component), ``description`` at most 100;
* every interactive component's ``custom_id`` 1-100 characters, unique in the modal; a component ``id`` a unique
  32-bit integer.

``modal_errors(data)`` returns Discord's nested ``errors`` object ({} when the modal is valid); ``modal_problems``
the same as "path: message" lines.
"""

from __future__ import annotations

from typing import Any

from .ids import IdChecks

__all__ = ["LABEL_CHILDREN", "modal_errors", "modal_problems"]

LABEL_CHILDREN = frozenset({3, 4, 5, 6, 7, 8, 19, 21, 22, 23})
SELECTS = frozenset({3, 5, 6, 7, 8})
TOP = frozenset({1, 10, 18})


class _ModalCheck(IdChecks):
    def __init__(self) -> None:
        super().__init__()
        self.errors: dict[str, Any] = {}

    def err(self, path: str, code: str, message: str) -> None:
        node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
        for part in reversed(path.split(".")):
            node = {part: node}
        _merge(self.errors, node)

    def text(self, obj: dict[str, Any], key: str, path: str, lo: int, hi: int, *, required: bool) -> None:
        value = obj.get(key)
        if value is None:
            if required:
                self.err(f"{path}.{key}", "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.err(f"{path}.{key}", "BASE_TYPE_BAD_TYPE", "Must be a string.")
        elif not lo <= len(value) <= hi:
            self.err(f"{path}.{key}", "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")

    def number(self, obj: dict[str, Any], key: str, path: str, lo: int, hi: int) -> int | None:
        value = obj.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.err(f"{path}.{key}", "NUMBER_TYPE_MAX", f"Must be between {lo} and {hi}.")
            return None
        return value

    def modal(self, data: Any) -> None:
        if not isinstance(data, dict):
            self.err("data", "BASE_TYPE_BAD_TYPE", "Must be an object.")
            return
        self.text(data, "custom_id", "custom_id", 1, 100, required=True)
        self.text(data, "title", "title", 1, 45, required=True)
        components = data.get("components")
        if not isinstance(components, list) or not 1 <= len(components) <= 5:
            self.err("components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            return
        for i, comp in enumerate(components):
            self.top(comp, f"components.{i}")

    def top(self, comp: Any, path: str) -> None:
        if not isinstance(comp, dict) or comp.get("type") not in TOP:
            self.err(f"{path}.type", "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {sorted(TOP)}.')
            return
        self._id(comp, path)
        kind = comp["type"]
        if kind == 10:
            self.text(comp, "content", path, 1, 4000, required=True)
        elif kind == 1:  # legacy: one text input or select in a row
            children = comp.get("components")
            if not isinstance(children, list) or len(children) != 1:
                self.err(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be 1 in length.")
                return
            self.child(children[0], f"{path}.components.0", frozenset({3, 4}))
        else:
            self.text(comp, "label", path, 1, 45, required=True)
            self.text(comp, "description", path, 1, 100, required=False)
            if "components" in comp:
                self.err(f"{path}.components", "LABEL_ONE_COMPONENT", "A label holds one component (``component``).")
            self.child(comp.get("component"), f"{path}.component", LABEL_CHILDREN)

    def child(self, comp: Any, path: str, allowed: frozenset[int]) -> None:
        if not isinstance(comp, dict) or comp.get("type") not in allowed:
            self.err(f"{path}.type", "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {sorted(allowed)}.')
            return
        self._id(comp, path)
        self._custom_id(comp, path)
        kind = comp["type"]
        if comp.get("disabled"):
            self.err(f"{path}.disabled", "COMPONENT_DISABLED_IN_MODAL", "A modal cannot hold disabled components.")
        if kind == 4:
            self.text_input(comp, path)
        elif kind in SELECTS:
            self.select(comp, path)
        elif kind == 21:
            self.options(comp, path, 2, 10)
            if sum(bool(o.get("default")) for o in comp.get("options") or [] if isinstance(o, dict)) > 1:
                self.err(f"{path}.options", "RADIO_GROUP_MULTIPLE_DEFAULTS", "Only one option can be the default.")
            self.boolean(comp, "required", path)
        elif kind == 22:
            count = self.options(comp, path, 1, 10)
            self.bounds(comp, path, count, 10)
        elif kind == 23:
            self.boolean(comp, "default", path)

    def boolean(self, comp: dict[str, Any], key: str, path: str) -> None:
        if key in comp and not isinstance(comp[key], bool):
            self.err(f"{path}.{key}", "BASE_TYPE_BAD_TYPE", "Must be a boolean.")

    def text_input(self, comp: dict[str, Any], path: str) -> None:
        if comp.get("style") not in (1, 2):
            self.err(f"{path}.style", "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        lo = self.number(comp, "min_length", path, 0, 4000)
        hi = self.number(comp, "max_length", path, 1, 4000)
        if lo is not None and hi is not None and lo > hi:
            self.err(f"{path}.min_length", "BASE_TYPE_BAD_LENGTH", "Must be at most max_length.")
        self.text(comp, "value", path, 0, min(4000, hi or 4000), required=False)
        self.text(comp, "placeholder", path, 0, 100, required=False)
        if comp.get("label") is not None:  # deprecated on the input itself; a Label names it
            self.text(comp, "label", path, 1, 45, required=True)
        self.boolean(comp, "required", path)

    def select(self, comp: dict[str, Any], path: str) -> None:
        self.text(comp, "placeholder", path, 0, 150, required=False)
        count = self.options(comp, path, 1, 25) if comp["type"] == 3 else 25
        self.bounds(comp, path, count, 25, default_min=1, default_max=1)
        most = comp.get("max_values", 1)
        if comp["type"] == 3 and isinstance(most, int) and most == 1:
            defaults = sum(bool(o.get("default")) for o in comp.get("options") or [] if isinstance(o, dict))
            if defaults > 1:
                self.err(f"{path}.options", "SELECT_MULTIPLE_DEFAULTS", "Only one option can be the default.")

    def bounds(
        self, comp: dict[str, Any], path: str, count: int, top: int, *, default_min: int = 1, default_max: int = 0
    ) -> None:
        lo = self.number(comp, "min_values", path, 0, top)
        hi = self.number(comp, "max_values", path, 1, top)
        lo = default_min if lo is None else lo
        hi = (default_max or count) if hi is None else hi
        required = comp.get("required", True)
        if required and lo < 1:
            self.err(f"{path}.min_values", "BASE_TYPE_MIN", "Must be at least 1 when the component is required.")
        if lo > hi:
            self.err(f"{path}.min_values", "SELECT_COMPONENT_MIN_VALUES_ABOVE_MAX", "Must be at most max_values.")
        if hi > count:
            self.err(f"{path}.max_values", "NUMBER_TYPE_MAX", f"Must be at most the {count} options.")

    def options(self, comp: dict[str, Any], path: str, lo: int, hi: int) -> int:
        options = comp.get("options")
        if not isinstance(options, list) or not lo <= len(options) <= hi:
            self.err(f"{path}.options", "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")
            return len(options) if isinstance(options, list) else 0
        self._option_list(options, path, self.option)
        return len(options)

    def option(self, option: dict[str, Any], path: str) -> None:
        """A modal option's own checks beside the shared ones: its description is text, its default a boolean."""
        self.text(option, "description", path, 0, 100, required=False)
        self.boolean(option, "default", path)


def _merge(into: dict[str, Any], other: dict[str, Any]) -> None:
    for key, value in other.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        else:
            into[key] = value


def modal_errors(data: Any) -> dict[str, Any]:
    """Discord's ``errors`` object for the modal ``data`` (a callback type 9's ``data``); {} when it is valid."""
    check = _ModalCheck()
    check.modal(data)
    return check.errors


def modal_problems(data: Any) -> list[str]:
    """``modal_errors`` as lines, "components.0.label: Must be between 1 and 45 in length."."""
    lines: list[str] = []

    def walk(node: dict[str, Any], path: str) -> None:
        for key, value in node.items():
            if key == "_errors":
                lines.extend(f"{path}: {e['message']}" for e in value)
            elif isinstance(value, dict):
                walk(value, f"{path}.{key}" if path else key)

    walk(modal_errors(data), "")
    return lines
