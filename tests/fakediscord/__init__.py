"""An in-process fake Discord for end-to-end tests of a real discord.py 2.x bot.

The fake is an aiohttp server on 127.0.0.1 (ephemeral port): REST under ``/api/v10`` and a websocket gateway at
``/gateway``. The real ``discord.Client``/``commands.Bot`` talks to it once ``discord.http.Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY`` point at it (``FakeDiscord.start()`` does that by default; ``close()``
restores them). Tests then act as users — slash commands, button clicks, selects, autocomplete, modals — and
inspect everything the bot did: channel messages with edit history, DMs, interaction responses, follow-ups,
registered commands and the log of every REST call. Protocol facts: /work/shared/DISCORD.md.

Quick start::

    import discord
    from tests.fakediscord import DEFAULT_MEMBER_PERMISSIONS, FakeDiscord, run_bot

    async def test_pig() -> None:
        async with FakeDiscord() as fake:                      # starts the server and patches discord.py
            guild = fake.add_guild("Tavern", channels=["general"])
            general = guild.channel("general")
            alice = fake.add_user("alice", guild=guild, locale="de")
            bob = fake.add_user("bob", guild=guild, dms_open=False)          # DMs to bob → 403/50007
            admin = fake.add_user("admin", guild=guild, permissions=DEFAULT_MEMBER_PERMISSIONS
                                  | discord.Permissions(manage_guild=True).value)

            bot = make_bot()              # guild_ready_timeout=0.1, default intents (no privileged ones)
            async with run_bot(fake, bot):                     # bot.start() in a task, waits for on_ready
                rec = await fake.slash(alice, general, "pig", "start", options={"target": 50})
                reply = await rec.response()                   # waits for the bot's answer → Reply
                assert reply.type == 4 and not reply.ephemeral
                board = reply.expect_message()                 # a FakeMessage
                click = await fake.click(bob, board, "pig:roll")
                assert (await click.response()).type == 7      # edit_message → board updated in place
                assert board.edits == 1 and "rolled" in board.text
                assert rec.ack_latency is not None and rec.ack_latency < 3.0
            fake.assert_no_problems()                          # unknown routes, late/double acks, 4xx, …

Model: ``add_guild(name, channels=[...], locale=..., shard=(i, n))`` → :class:`FakeGuild` (``.channel(name)``);
``add_user(name, guild=..., permissions=..., dms_open=..., locale=...)`` → :class:`FakeUser`. The bot is a
member of every guild; GUILD_CREATE lists only the bot with ``member_count`` = 1 (consistent, so discord.py never
chunks), plus every member if the bot was allowed the members intent.
Threads: the bot starts them (``POST /channels/{id}/threads``, or ``…/messages/{mid}/threads``: the thread takes the
message's id) where its role or @everyone grants CREATE_PUBLIC_THREADS (else 403/50013); a thread is a
:class:`FakeChannel` of type 11 with ``parent_id`` (``fake.threads(channel)``, ``guild.thread(name)``), announced by
THREAD_CREATE and in GUILD_CREATE while not archived; users type commands and click in it like in any channel.

Recorded: ``fake.messages`` (all), ``channel_messages(ch)``, ``dms(user)``, ``blocked_dms``,
``interactions`` (:class:`InteractionRecord`: callbacks, original, follow-ups, latency), ``rest_calls``
(:class:`RestCall`; filter with ``calls(since=fake.mark(), kind="bot", route=...)``), ``unknown_routes``,
``registered_commands(guild)``, ``rate_limit_violations``/``max_messages_in_window(ch)``, ``problems()``.

Behaviour worth knowing:

* Every wait (``wait_for``, ``record.response()``, ``run_bot``, …) waits for its event, up to ``DEADLINE`` seconds
  (tests/waiting.py: 120, or ``DICETAVERN_TEST_DEADLINE``), which only bounds a real hang; to check that nothing
  more came, wait for ``handlers_done()`` (the bot's commands, events and callbacks ended), never a sleep.
* A callback later than ``interaction_deadline`` after dispatch gets 404/10062 (``record.late``): Discord's is 3 s,
  the fake's ``DEADLINE`` unless a test sets it (a loaded machine is slow, the bot not late);
  a second callback gets 400/40060; both appear in ``problems()``.
* After a deferred reply (type 5) the first follow-up *replaces* the "thinking" message (as Discord does), so
  ``reply.content`` is that text and ``reply.followups`` stays empty.
* ``record.expire()`` simulates the 15-minute token expiry (webhook calls then get 401/50027).
* Clicks/selects/modal submits first ``settle()``: wait for in-flight requests, then yield to the loop so the
  bot has registered the views from the callback response it just read.
* ``slash`` follows the synced schema like the Discord client: unknown names/options, missing required options,
  choices, min/max and top-level ``default_member_permissions`` raise :class:`CommandUnavailable`.
* Message bodies are validated as Discord does (``rest.validate_message_body``), on every create and edit path
  (channel POST/PATCH, callbacks 4 and 7, follow-ups, PATCH of @original or a follow-up), against the message *as it
  will be*: an edit's missing fields keep their values. With IS_COMPONENTS_V2 (set on create, or added by an edit,
  never removed): no content, embeds, poll or stickers (an edit adding the flag must clear them), at most 40
  components counting nested ones, 4,000 characters across TextDisplays, the layout rules of rows, sections and
  containers. Without it: at most 5 action rows and no V2 types. Both: custom_id 1–100 and unique, labels, selects'
  options and values, and custom emojis the application owns (``fake.app_emojis``). A refusal is Discord's
  400/50035 with its ``errors`` object, and ``problems()`` lists it with the reasons. An edit sending ``flags``
  without the V2 bit on a V2 message is read as legacy (refused if it has V2 components) or else kept V2 and listed
  in ``problems()``.
* Reading V2: ``message.text`` (and ``version.text`` for each of ``history``) includes every TextDisplay in document
  order, ``components_text(view.to_components())`` gives the same for a locally built layout; ``all_text`` adds
  labels, placeholders and options; ``is_v2``, ``text_displays()``, ``accent_color`` (first container's),
  ``custom_ids()``/``controls()``/``buttons()``/``selects()``/``options()``/``option_values()`` (nested ones too),
  ``component_count``, ``display_length``. ``click``/``select`` find controls nested in containers and section
  accessories; the interaction's ``message`` carries the flags and the whole tree (discord.py rebuilds a LayoutView
  from it).
* ``rate_limit="record"`` records channel-POST rate-limit violations (5 per 5 s), ``"enforce"`` answers 429.
* Privileged intents make IDENTIFY fail with close code 4014 unless ``privileged_intents_allowed=True``.
* Faults: ``fake.fail("PATCH /channels/{channel_id}/messages/{message_id}", status=503, times=n)`` (or a predicate on
  the :class:`RestCall`; ``times=None``: until ``fake.heal()``) answers matching calls with that status;
  ``drop=True`` closes the connection without a response (aiohttp raises ServerDisconnectedError, which discord.py
  does not retry); ``status=429, global_=True`` is Discord's global rate limit (``retry_after`` seconds). It returns
  the :class:`Fault` (``hits``: calls it answered); injected answers are not in ``problems()``.
* ``FakeDiscord(identify_limit=(total, remaining))`` is ``GET /gateway/bot``'s ``session_start_limit``: each
  accepted IDENTIFY takes one (``fake.identifies_left``), and at 0 IDENTIFY is closed with 4004.
* Shards: ``FakeDiscord(recommended_shards=N)`` is the shard count (``GET /gateway/bot`` returns it). A sharded
  IDENTIFY needs ``shard=[id, N]`` with ``id < N`` (else close 4010 invalid shard; a smaller count 4011 sharding
  required); an unsharded client gets every guild as before. A connection gets GUILD_CREATE for its shard's
  guilds; interactions and ``dispatch_event`` go to the newest live connection of the guild's shard, DMs to
  shard 0. ``add_guild(shard=(i, N))`` gives an id on shard i; ``shard_of``, ``shard_connection``,
  ``wait_for_shard`` find who serves what. Bots in other processes: ``python -m tests.fakediscord.bot_process``.

discord.py gotchas for tests: set ``guild_ready_timeout=0.1`` (default 2 s before ``on_ready``); for
``AutoShardedBot`` replace ``before_identify_hook`` with a no-op (it sleeps 5 s before every non-initial
IDENTIFY); a ``View`` with a timeout keeps a task pending after ``bot.close()`` — check ``leftover_tasks()``.
"""

from .commands import OPTION_TYPES, Option
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    V2_TYPES,
    CallbackRecord,
    CommandUnavailable,
    ComponentUnavailable,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeTimeout,
    FakeUser,
    InteractionRecord,
    MessageVersion,
    RateLimitViolation,
    Reply,
    RestCall,
    components_text,
    control_texts,
    display_length,
    iter_components,
    message_text,
    select_options,
    text_displays,
)
from .rest import MAX_V2_COMPONENTS, MAX_V2_TEXT, validate_message_body
from .runner import BotStartError, handlers_done, leftover_tasks, run_bot, start_bot, stop_bot
from .server import ClientPatch, FakeDiscord

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "EPHEMERAL",
    "IS_COMPONENTS_V2",
    "LOADING",
    "MAX_V2_COMPONENTS",
    "MAX_V2_TEXT",
    "OPTION_TYPES",
    "V2_TYPES",
    "BotStartError",
    "CallbackRecord",
    "ClientPatch",
    "CommandUnavailable",
    "ComponentUnavailable",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeTimeout",
    "FakeUser",
    "InteractionRecord",
    "MessageVersion",
    "Option",
    "RateLimitViolation",
    "Reply",
    "RestCall",
    "components_text",
    "control_texts",
    "display_length",
    "handlers_done",
    "iter_components",
    "leftover_tasks",
    "message_text",
    "run_bot",
    "select_options",
    "start_bot",
    "stop_bot",
    "text_displays",
    "validate_message_body",
]
