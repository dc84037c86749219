"""Build the verifier in the browser, ``bot/assets/verify.html``, from ``scripts/verify_template.html`` and the catalog.

    .venv/bin/python scripts/build_verifier.py           # writes bot/assets/verify.html
    .venv/bin/python scripts/build_verifier.py --check   # exit 1 if the shipped page is not what this builds

The page is one self-contained file (no server, no network: the browser's WebCrypto does the hashing), so its texts
are inlined: for each language of ``bot/locales``, the namespace ``webverify`` (the page's own texts), the mismatch
texts of ``verify`` (the same words ``dicetavern verify`` prints) and the game names of ``game``, keyed as the catalog
keys them (``webverify.title``, ``verify.draw``, ``game.pig``). English first, as the page's fallback.
``tests/test_browser_verifier.py`` checks the shipped page is what this builds now, and runs it in Chromium.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "scripts" / "verify_template.html"
OUTPUT = ROOT / "bot" / "assets" / "verify.html"
LOCALES = ROOT / "bot" / "locales"
PLACEHOLDER = "@CATALOG@"
# bot/verify.py's mismatch codes that the page can reach (everything before the rules replay), and the line around one
VERIFY_KEYS = (
    "failed",
    "not_export",
    "version",
    "not_fair",
    "schema",
    "gap",
    "bad_seed",
    "commitment",
    "chain",
    "chain_end",
    "malformed",
    "draw",
)


def _namespace(locale: Path, name: str) -> dict[str, object]:
    path = locale / f"{name}.json"
    texts = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    assert isinstance(texts, dict), path
    return texts


def texts(locales: Path = LOCALES) -> dict[str, dict[str, object]]:
    """Language -> catalog key -> template, for what the page shows (English first, then by language code)."""
    codes = sorted((p.name for p in locales.iterdir() if p.is_dir()), key=lambda code: (code != "en", code))
    catalog: dict[str, dict[str, object]] = {}
    for code in codes:
        folder = locales / code
        page = {f"webverify.{key}": text for key, text in _namespace(folder, "webverify").items()}
        verify = _namespace(folder, "verify")
        mismatches = {f"verify.{key}": verify[key] for key in VERIFY_KEYS if key in verify}
        games = {f"game.{key}": text for key, text in _namespace(folder, "game").items()}
        catalog[code] = {**page, **mismatches, **games}
    return catalog


def build(template: Path = TEMPLATE, locales: Path = LOCALES) -> str:
    """The page's text: the template with the catalog inlined as JSON (``<`` escaped: it sits in a script element)."""
    page = template.read_text(encoding="utf-8")
    assert page.count(PLACEHOLDER) == 1, f"{template} must hold {PLACEHOLDER} once"
    lines = [
        f"{json.dumps(code)}:{json.dumps(entries, ensure_ascii=False, separators=(',', ':'))}"
        for code, entries in texts(locales).items()
    ]
    inlined = ("{\n" + ",\n".join(lines) + "\n}").replace("<", "\\u003c")
    return page.replace(PLACEHOLDER, inlined)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare the shipped page with the build")
    args = parser.parse_args(argv)
    page = build()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != page:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run scripts/build_verifier.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(page, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(page.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
