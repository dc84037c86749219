"""The install's footprint: site-packages of a fresh venv with the project, per package, and the chart's cold cost.

For each configuration (``core``: ``pip install .``; ``postgres``: ``.[postgres]`` when pyproject.toml has that
extra when this runs; ``test``: ``.[test]``), a fresh virtual environment in a temporary folder gets the project
installed from a copy of this checkout (non-editable, ``-c constraints.txt``, the README's pins; the copy keeps
setuptools' ``build/`` and ``*.egg-info`` out of the shared work tree). Then:

* **site-packages**: the size of every file under it (apparent bytes, and bytes allocated on disk), and per
  installed distribution the files its RECORD lists that are on disk. The venv's own pip and setuptools are
  shown apart ("venv's own"): a Docker image has them too, whatever the project needs.
* **what each direct dependency brings**: the package with every package only it pulls in (its requirements,
  followed down, that no other direct dependency needs), so "matplotlib" reads as matplotlib and its stack.
* **the chart's cold cost** (core only): a fresh process of that venv (in a folder outside the checkout, so it
  runs the installed copy) imports ``bot.render.chart`` and draws one 300-point ``rating_chart`` (matplotlib's
  import is inside that first call), then a second one. Run 1 starts with an empty ``MPLCONFIGDIR`` (matplotlib
  builds its font list then, as in a new container); the others reuse it. CPU of the whole process is
  ``getrusage(RUSAGE_CHILDREN)``, interpreter start included.
* **what if** (``--replace DEP=NEW``): the core dependencies from pyproject.toml with one swapped (e.g. matplotlib
  for Pillow, which a hand-drawn chart would need), installed with the project ``--no-deps``: the footprint a
  change of chart library would give, before anyone makes it.

Needs pip's package index (or the machine's wheel folders); ``--help`` needs neither.

    python -m benchmarks.install_size             # ~3 min: three installs
    python -m benchmarks.install_size --quick     # core only, 2 chart runs
    python -m benchmarks.install_size --configs core postgres --top 25 --keep
    python -m benchmarks.install_size --configs core --replace matplotlib=pillow --replace matplotlib=pillow,numpy
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000  # decimal megabytes, as pip and du --si print them
VENV_OWN = {"pip", "setuptools", "wheel"}  # what `python -m venv` puts there before the project
CONFIGS = ("core", "postgres", "test")
TREE = ("pyproject.toml", "README.md", "LICENSE", "bot", "cogs")  # what the wheel is built from

# Run by the venv's own interpreter: its distributions, their files' sizes and requirements, as JSON.
SURVEY = r"""
import json, os, sys, sysconfig
from importlib import metadata
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name

site = os.path.realpath(sysconfig.get_paths()["purelib"])
extras = sys.argv[1:]
out = {"site": site, "dists": []}
apparent = allocated = files = 0
for folder, _, names in os.walk(site):
    for name in names:
        st = os.lstat(os.path.join(folder, name))
        apparent += st.st_size
        allocated += st.st_blocks * 512
        files += 1
out["apparent"], out["allocated"], out["files"] = apparent, allocated, files
venv = 0
for folder, _, names in os.walk(sys.prefix):
    venv += sum(os.lstat(os.path.join(folder, name)).st_size for name in names)
out["venv"] = venv
for dist in metadata.distributions(path=[site]):
    seen, size, count, elsewhere = set(), 0, 0, 0
    for entry in dist.files or []:
        path = os.path.realpath(dist.locate_file(entry))
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        if not path.startswith(site + os.sep):  # bin/ scripts and binaries (ruff's), share/ data
            elsewhere += os.lstat(path).st_size
            continue
        size += os.lstat(path).st_size
        count += 1
    name = canonicalize_name(dist.metadata["Name"])
    wanted, needs, grown = {""} | (set(extras) if name == "dicetavern" else set()), set(), True
    while grown:  # an extra may name the project itself with more extras (test = ["dicetavern[postgres]", ...])
        grown = False
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in wanted):
                continue
            if canonicalize_name(req.name) == name:
                grown = grown or not req.extras <= wanted
                wanted |= req.extras
            else:
                needs.add(canonicalize_name(req.name))
    out["dists"].append(
        {"name": name, "version": dist.version, "bytes": size, "elsewhere": elsewhere,
         "files": count, "requires": sorted(set(needs))}
    )
print(json.dumps(out))
"""

# Run by the venv's interpreter in a fresh process: import bot.render.chart, then two 300-point charts.
CHART = r"""
import json, random, time
w0, c0 = time.perf_counter(), time.process_time()
from bot.render.chart import ChartPoint, ChartText, rating_chart
w1, c1 = time.perf_counter(), time.process_time()
rng, mu, points = random.Random(15), 25.0, []
for i in range(300):
    mu += rng.gauss(0, 0.6)
    sigma = max(0.9, 8.333 * 0.985**i)
    points.append(ChartPoint(mu, sigma, mu - 3 * sigma))
words = ChartText("Rating · Bartholomew · Liar's Dice", "Rated games", "Rating", "Rating (μ − 3σ)", "μ ± σ", "-")
levels = {"Easy": 3.0, "Normal": 9.0, "Hard": 16.0}
w2, c2 = time.perf_counter(), time.process_time()
png = rating_chart(points, text=words, references=levels)
w3, c3 = time.perf_counter(), time.process_time()
rating_chart(points, text=words, references=levels)
w4, c4 = time.perf_counter(), time.process_time()
ms = lambda a, b: round((b - a) * 1000, 1)
print(json.dumps({"import": [ms(w0, w1), ms(c0, c1)], "first": [ms(w2, w3), ms(c2, c3)],
                  "second": [ms(w3, w4), ms(c3, c4)], "png": len(png)}))
"""


def command_line() -> str:
    return " ".join([Path(sys.executable).name, "-m", "benchmarks.install_size", *sys.argv[1:]])


def make_venv(folder: Path) -> Path:
    """A fresh venv (pip and setuptools only); returns its python."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    return folder / "bin" / "python"


def pip_install(python: Path, targets: Sequence[str], constraints: Path | None, log: Path) -> float:
    """``pip install`` into the venv of ``python``; its output goes to ``log``. Returns the wall seconds."""
    command = [str(python), "-m", "pip", "install", "--disable-pip-version-check", *targets]
    if constraints is not None:
        command += ["-c", str(constraints)]
    began = time.perf_counter()
    with log.open("a") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        tail = "".join(log.read_text().splitlines(keepends=True)[-25:])
        raise SystemExit(f"pip install {' '.join(targets)} failed (exit {done.returncode}); its log {log}:\n{tail}")
    return time.perf_counter() - began


def survey(python: Path, extras: Iterable[str] = ()) -> dict[str, Any]:
    """The venv's site-packages: total sizes and each distribution's bytes and requirements."""
    out = subprocess.run(
        [str(python), "-c", SURVEY, *extras], capture_output=True, text=True, check=True, cwd=python.parent
    ).stdout
    found: dict[str, Any] = json.loads(out)
    return found


def owned(dists: Mapping[str, Mapping[str, Any]], roots: Iterable[str]) -> dict[str, set[str]]:
    """For each root, the packages in its requirement closure that no other root's closure has (itself included)."""

    def closure(name: str) -> set[str]:
        seen, todo = set(), [name]
        while todo:
            here = todo.pop()
            if here in seen or here not in dists:
                continue
            seen.add(here)
            todo.extend(dists[here]["requires"])
        return seen

    roots = [r for r in roots if r in dists]
    closures = {r: closure(r) for r in roots}
    mine = {}
    for root in roots:
        others: set[str] = set().union(*(c for r, c in closures.items() if r != root))
        mine[root] = closures[root] - others
    return mine


def copy_tree(into: Path) -> Path:
    """The files the wheel is built from, copied out of the checkout (working tree as it is, no caches)."""
    project = into / "project"
    project.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in TREE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=ignore)
        elif source.is_file():
            shutil.copy2(source, project / name)
    return project


def core_dependencies() -> list[str]:
    """pyproject.toml's [project] dependencies now."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(data.get("project", {}).get("dependencies", []))


def requirement_name(text: str) -> str:
    """The distribution a requirement string names, normalised as pip does (PEP 503)."""
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", text)
    return re.sub(r"[-_.]+", "-", found.group(1)).lower() if found else text


def extras_now() -> list[str]:
    """The optional-dependency groups pyproject.toml has now."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return sorted(data.get("project", {}).get("optional-dependencies", {}))


def chart_runs(python: Path, runs: int, scratch: Path) -> list[dict[str, Any]]:
    """``runs`` fresh processes of the venv drawing the chart; the first with an empty MPLCONFIGDIR."""
    config = scratch / "mplconfig"
    config.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MPL"))}
    env["MPLCONFIGDIR"] = str(config)
    results = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        out = subprocess.run(
            [str(python), "-c", CHART], capture_output=True, text=True, check=True, cwd=scratch, env=env
        ).stdout
        wall = (time.perf_counter() - began) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
        result = json.loads(out)
        result["process"] = [round(wall, 1), round(cpu, 1)]
        results.append(result)
    return results


def mb(size: float) -> float:
    return round(size / MB, 1)


def report(
    config: str,
    found: Mapping[str, Any],
    extras: Sequence[str],
    top: int,
    seconds: float,
    roots: Sequence[str] | None = None,
    how: str = "",
) -> None:
    dists = {d["name"]: d for d in found["dists"]}
    project = dists.get("dicetavern")
    own = sum(d["bytes"] for n, d in dists.items() if n in VENV_OWN)
    counted = sum(d["bytes"] for d in dists.values())
    how = how or f"pip install .{'[' + ','.join(extras) + ']' if extras else ''} -c constraints.txt"
    print(f"\n[{config}] {how}: {len(dists)} distributions, {found['files']:,} files, pip took {seconds:.0f} s")
    print(
        f"site-packages: {mb(found['apparent'])} MB apparent, {mb(found['allocated'])} MB allocated on disk; "
        f"{mb(found['apparent'] - own)} MB apparent without the venv's own pip/setuptools ({mb(own)} MB); "
        f"{mb(found['apparent'] - counted)} MB in files no RECORD lists (e.g. bytecode compiled later); "
        f"the whole venv {mb(found['venv'])} MB apparent (bin/ has the scripts and e.g. ruff's binary)"
    )
    ranked = sorted(dists.values(), key=lambda d: -d["bytes"])
    rows = [
        [
            d["name"] + (" (venv's own)" if d["name"] in VENV_OWN else ""),
            d["version"],
            mb(d["bytes"]),
            f"{100 * d['bytes'] / found['apparent']:.1f} %",
            d["files"],
            mb(d["elsewhere"]),
        ]
        for d in ranked[:top]
    ]
    rest = ranked[top:]
    if rest:
        rows.append(
            [
                f"{len(rest)} others",
                "",
                mb(sum(d["bytes"] for d in rest)),
                "",
                sum(d["files"] for d in rest),
                mb(sum(d["elsewhere"] for d in rest)),
            ]
        )
    show(rows, ["package", "version", "MB", "share", "files", "+ MB outside site-packages"])
    if project is None:
        return
    roots = list(roots if roots is not None else project["requires"])
    mine = owned(dists, roots)
    shared = set(dists) - VENV_OWN - {"dicetavern"} - set().union(*mine.values())
    rows, lists = [], []
    for root, names in sorted(mine.items(), key=lambda item: -sum(dists[n]["bytes"] for n in item[1])):
        pulled = sorted(names - {root}, key=lambda n: -dists[n]["bytes"])
        size = sum(dists[n]["bytes"] for n in names)
        rows.append([root, mb(size), f"{100 * size / found['apparent']:.1f} %", len(names)])
        if pulled:
            lists.append(f"  {root} pulls in: {', '.join(pulled)}")
    if shared:
        size = sum(dists[n]["bytes"] for n in shared)
        rows.append(["(needed by several)", mb(size), f"{100 * size / found['apparent']:.1f} %", len(shared)])
        lists.append(f"  needed by several: {', '.join(sorted(shared))}")
    rows.append(["dicetavern itself", mb(project["bytes"]), f"{100 * project['bytes'] / found['apparent']:.1f} %", 1])
    print(f"what each direct dependency of dicetavern{'[' + ','.join(extras) + ']' if extras else ''} brings:")
    show(rows, ["dependency", "MB with what only it pulls in", "share", "packages"])
    print("\n".join(lists))


def report_chart(results: Sequence[dict[str, Any]]) -> None:
    def row(label: str, picked: Sequence[dict[str, Any]]) -> list[Any]:
        def med(key: str, i: int) -> float:
            return statistics.median(r[key][i] for r in picked)

        return [
            label,
            med("import", 0),
            med("import", 1),
            med("first", 0),
            med("first", 1),
            med("second", 0),
            med("second", 1),
            med("process", 0),
            med("process", 1),
        ]

    rows = [row("run 1 (empty MPLCONFIGDIR)", results[:1])]
    if len(results) > 1:
        rows.append([f"runs 2-{len(results)} (median)", *row("", results[1:])[1:]])
    print(
        "\n[core] a fresh process: import bot.render.chart, then rating_chart(300 points, 3 levels, band) "
        f"twice; PNG {results[-1]['png'] // 1024} KiB"
    )
    show(
        rows,
        [
            "process",
            "import wall ms",
            "import CPU ms",
            "1st chart wall",
            "1st chart CPU",
            "2nd wall",
            "2nd CPU",
            "process wall ms",
            "process CPU ms",
        ],
    )
    print("The 1st chart includes matplotlib's import. Process CPU: the whole child, interpreter start included.")


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--configs", nargs="+", choices=CONFIGS, help=f"which installs (default: {' '.join(CONFIGS)})")
    p.add_argument("--top", type=int, default=15, help="packages listed by size per install (default 15)")
    p.add_argument("--runs", type=int, help="fresh chart processes (default 6, --quick 2)")
    p.add_argument("--keep", action="store_true", help="keep the temporary venvs and pip's logs (their path is shown)")
    p.add_argument(
        "--replace",
        action="append",
        default=[],
        metavar="DEP=NEW[,NEW...]",
        help="also a what-if install: the core dependencies with DEP swapped for NEW (none: DEP=), the project with "
        "--no-deps; e.g. --replace matplotlib=pillow --replace matplotlib=pillow,numpy (repeatable)",
    )
    args = p.parse_args()
    configs = args.configs or (["core"] if args.quick else list(CONFIGS))
    runs = args.runs or (2 if args.quick else 6)
    header("install footprint: site-packages of a fresh venv per configuration, and the chart's cold cost")
    print("leaves out: the Docker image's base layers and the running bot's memory (the footprint on disk only)")
    print(f"command: {command_line()}  (cwd {os.getcwd()})")
    available = extras_now()
    print(f"pyproject.toml now has the extras: {', '.join(available) or 'none'}")
    scratch = Path(tempfile.mkdtemp(prefix="dicetavern-size-"))
    try:
        project = copy_tree(scratch)
        constraints = ROOT / "constraints.txt"
        for config in configs:
            extras = [] if config == "core" else [config]
            if config != "core" and config not in available:
                print(f"\n[{config}] skipped: pyproject.toml has no [{config}] extra at this revision")
                continue
            folder = scratch / f"venv-{config}"
            python = make_venv(folder)
            target = f"{project}{'[' + ','.join(extras) + ']' if extras else ''}"
            seconds = pip_install(python, [target], constraints, scratch / f"pip-{config}.log")
            report(config, survey(python, extras), extras, args.top, seconds)
            if config == "core":
                report_chart(chart_runs(python, runs, scratch))
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
        for index, swap in enumerate(args.replace):
            old, _, new = swap.partition("=")
            deps = [d for d in core_dependencies() if requirement_name(d) != requirement_name(old)]
            if len(deps) == len(core_dependencies()):
                print(f"\n[{swap}] skipped: {old} is not a core dependency at this revision")
                continue
            deps += [n for n in new.split(",") if n]
            folder = scratch / f"venv-what-if-{index}"
            python = make_venv(folder)
            log = scratch / f"pip-what-if-{index}.log"
            seconds = pip_install(python, deps, constraints, log)
            seconds += pip_install(python, ["--no-deps", str(project)], None, log)
            how = f"what if {old} were {new or 'gone'}: pip install <core deps with {swap}> -c constraints.txt"
            report(f"core, {swap}", survey(python), [], args.top, seconds, [requirement_name(d) for d in deps], how)
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if args.keep:
            print(f"\nkept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
