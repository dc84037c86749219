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

User installs (issue 29; facts and sources in ``tests/fakediscord/installs.py``, examples in
``tests/test_fakediscord_user_install.py``):

* The app: ``FakeDiscord(install_types=(0, 1))`` (the default: the Developer Portal allows guild and user installs;
  ``(0,)``: servers only, and a sync declaring user install gets 400/50035). ``fake.app_install_types``.
* Commands: the sync stores ``integration_types`` and ``contexts``; absent or null (discord.py sends null without
  ``allowed_installs``/``allowed_contexts``) they become the app's install types and ``[0, 1, 2]`` (minus 1 with
  ``dm_permission: false``); guild commands ``[0]``/``[0]``. ``fake.slash``/``autocomplete`` raise
  :class:`CommandUnavailable` where the client would not offer the command: context not declared, or no install
  authorizes it there (``check_permissions=False`` skips this, to forge).
* A user install: ``fake.add_user("alice", guild=..., app_installed=True)`` or ``fake.install_app(user)``
  (``installed=False`` removes it).
* A group DM: ``gdm = fake.add_group_dm([alice, bob], "friends")`` (type 3, recipients; the bot is not in it);
  ``fake.slash(alice, gdm, "liar", "start")`` → context 2, no guild_id/member, ``user``, ``channel`` with
  recipients, ``authorizing_integration_owners`` ``{"1": alice.id}``, ``app_permissions`` 180224.
  ``fake.post_message(bob, gdm, "hi")`` records chat there (the bot hears nothing).
* A server without the bot: ``fake.add_guild("Elsewhere", bot_member=False)`` (members via ``add_user(guild=)``):
  no READY/GUILD_CREATE; interactions carry ``guild_id``, context 0, a partial channel, the member, owners
  ``{"1": user}``. ``announce_guild(guild)`` adds the bot later. In a server with the bot an installed user's
  interactions carry both ``"0"`` and ``"1"``; components carry the owners of the interaction that made the message
  (``record.owners``, ``record.context``, ``record.user_install_only``).
* The bot token there: every ``/channels/{id}…`` and ``/guilds/{id}…`` call answers 403/50001 Missing Access
  (``fake.bot_can_access(channel)``); these calls are in ``problems()``. DMs keep the usual
  rules; ``FakeDiscord(dm_needs_mutual_guild=True)`` adds Discord's 403/50278 for a user who shares no server with
  the bot and has not installed the app (``fake.can_dm(user)``).
* Time: ``fake.clock`` is the test clock (epoch seconds; snowflakes carry it, so ``interaction.created_at`` agrees);
  ``fake.clock.advance(901)`` ages every token past 15 minutes: follow-ups, ``@original`` GET/PATCH/DELETE then get
  401/50027 (``record.token_valid``, ``record.token_expires_at``, ``record.issued_at``). Give the bot the same clock
  (``bot.tables.clock = fake.clock``). A jump also counts against the initial-callback deadline
  (``interaction_deadline``; set it to 3.0 for Discord's 3 s). A click on the bot's message gets a fresh token and
  callback 7 edits that message whatever the age of the message's own interaction. Advance the clock only when no
  interaction awaits its first answer (``await handlers_done()``), or that answer is late. A token edits (PATCH
  ``/webhooks/{app}/{token}/messages/{id}``) only its interaction's own messages: the original, its follow-ups and
  the message whose component was used (Discord does not document more; the narrow reading), so the table message
  is reachable through the token of any click on it.
* A member without USE_EXTERNAL_APPS (``DEFAULT_MEMBER_PERMISSIONS & ~USE_EXTERNAL_APPS``; members have it by
  default) using a user install alone in a server: every response and follow-up is made ephemeral, as Discord does.
* Follow-ups: at most 5 accepted ``POST /webhooks/{app}/{token}`` per interaction whose owners hold only ``"1"``
  (the one filling a deferred reply counts); the 6th gets 400/40094.
* Reading a group DM: ``fake.channel_messages(gdm)`` (shared messages), ``fake.visible_messages(gdm, user)``
  (shared ones plus that user's ephemerals).

discord.py gotchas for tests: set ``guild_ready_timeout=0.1`` (default 2 s before ``on_ready``); for
``AutoShardedBot`` replace ``before_identify_hook`` with a no-op (it sleeps 5 s before every non-initial
IDENTIFY); a ``View`` with a timeout keeps a task pending after ``bot.close()`` — check ``leftover_tasks()``.
"""

from .commands import OPTION_TYPES, Option
from .installs import (
    BOT_DM_APP_PERMISSIONS,
    FOLLOWUP_LIMIT_CODE,
    MAX_USER_INSTALL_FOLLOWUPS,
    PRIVATE_CHANNEL_APP_PERMISSIONS,
    USE_EXTERNAL_APPS,
    FakeClock,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    TOKEN_LIFETIME,
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
    "BOT_DM_APP_PERMISSIONS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "EPHEMERAL",
    "FOLLOWUP_LIMIT_CODE",
    "IS_COMPONENTS_V2",
    "LOADING",
    "MAX_USER_INSTALL_FOLLOWUPS",
    "MAX_V2_COMPONENTS",
    "MAX_V2_TEXT",
    "OPTION_TYPES",
    "PRIVATE_CHANNEL_APP_PERMISSIONS",
    "TOKEN_LIFETIME",
    "USE_EXTERNAL_APPS",
    "V2_TYPES",
    "BotStartError",
    "CallbackRecord",
    "ClientPatch",
    "CommandUnavailable",
    "ComponentUnavailable",
    "FakeChannel",
    "FakeClock",
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
