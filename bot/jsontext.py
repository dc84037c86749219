"""Compact JSON text: the one encoder (and decoder) for engine state, table meta and stored columns.

orjson, measured on this path (``python -m benchmarks.jsonlib``): 6-9x faster than the standard library on
state snapshots and the small log and dice texts, 3-4x on decoding. Its text is compact (no blanks, as
``separators=(",", ":")``) and reads back as the same value; unlike the standard library it writes non-ASCII
characters as UTF-8 instead of ``\\uXXXX`` escapes (both are valid JSON, and old escaped text still decodes).
What orjson refuses (non-string dict keys, NamedTuples, integers beyond 64 bits) falls back to the standard
library's encoder, so every value that encoded before still encodes, to text that decodes the same.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)  # state holds no cycles
_orjson_dumps = orjson.dumps


def dumps(value: Any) -> str:
    try:
        return _orjson_dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError: a type or key only the standard library writes
        return _ENCODER.encode(value)


loads = orjson.loads  # str or bytes; the same values as json.loads for every text this module writes
