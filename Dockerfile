# Two stages: the first builds the project's wheel from the source; the second installs the dependencies and that
# wheel only, so the image holds one copy of the code (site-packages), no source tree beside it.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# A C compiler for the engines' compiled fast path (setup.py, bot/games/_fast.c): the wheel carries the built
# module, so the image needs no compiler; without one the build would still succeed, with the pure-Python engines.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim-bookworm

# SQLite in the data volume by default; DATABASE_URL=postgresql://... (compose.yaml) puts the store in PostgreSQL
# instead, and DICETAVERN_SHARDS / DICETAVERN_SHARD_COUNT make this process serve some of the bot's shards.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/app/data/dicetavern.sqlite3
WORKDIR /app

# Dependencies first, in their own layer: only pyproject.toml's dependency list and the pinned versions
# (constraints.txt, the same pins CI tests with) decide it, so a code change does not reinstall them. The image
# takes the postgres extra too (asyncpg, from its binary wheel: the slim image needs no compiler), so one image
# serves SQLite and compose's PostgreSQL.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print(*p['dependencies'], *p['optional-dependencies']['postgres'], sep='\n')" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt -c constraints.txt \
    && useradd --create-home --uid 10001 tavern \
    && mkdir -p /app/data && chown tavern:tavern /app/data

# Then the code: the wheel from the first stage, without its dependencies (installed above, pinned).
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

USER tavern
VOLUME ["/app/data"]
# Healthy while the bot is connected to Discord: it touches a heartbeat file every 30 s, next to the SQLite database
# or, with DATABASE_URL, in /app/data (one file per shard range); `dicetavern health` reads the same settings and
# imports neither discord.py nor a database driver (about 0.13 s of CPU a probe).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["dicetavern", "health"]
# SIGTERM (docker stop) shuts the bot down cleanly: in-flight actions finish, the database closes.
STOPSIGNAL SIGTERM
CMD ["dicetavern", "run"]
