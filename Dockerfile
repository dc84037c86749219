FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/app/data/dicetavern.sqlite3
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 tavern \
    && mkdir -p /app/data && chown tavern:tavern /app/data

USER tavern
VOLUME ["/app/data"]
# SIGTERM (docker stop) shuts the bot down cleanly: in-flight actions finish, the database closes.
STOPSIGNAL SIGTERM
CMD ["dicetavern", "run"]
