"""Compact JSON text: the one encoder for engine state, table meta and stored columns.

``json.dumps`` builds an encoder on every call with non-default separators; one shared encoder's bound
``encode`` is the cheapest way to get the same text.
"""

from __future__ import annotations

import json

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)  # state holds no cycles

dumps = _ENCODER.encode
