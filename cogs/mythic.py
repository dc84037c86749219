"""Mythical Dice on Discord: /mythic new|join|leave|start|status|rules|bid|play|hand.

Hands are secret: each player's dice come by DM (the engine's private ``deal`` events) and in
🎲 My dice, whose reply carries a menu of bids while bidding and of the player's legal dice when it
is their roll. Bids are placed in secret and revealed together by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

import discord
from discord import app_commands

from bot.games import Event, IllegalMove
from bot.games.mythical_dice import DIE_TYPES, MythicView
from bot.games.mythical_dice import ENGINE as MYTHICAL_DICE
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.languages import discord_choices
from bot.render import Control, Menu
from bot.render import mythic as render
from bot.tables import Table
from cogs.utils.components import MAX_CHOICES
from cogs.utils.gamecog import GameCog
from cogs.utils.replies import channel_of, locale_of


class Mythic(GameCog, group_name="mythic", group_description=t("mythic.cmd.mythic")):
    game = "mythic"

    @app_commands.command(name="new", description=t("mythic.cmd.new"))
    @app_commands.describe(
        allow_two_players=t("mythic.cmd.opt_allow_two_players"),
        hands_by_players=t("mythic.cmd.opt_hands_by_players"),
        dice_set=t("mythic.cmd.opt_dice_set"),
        first_start_player=t("mythic.cmd.opt_first_start_player"),
        hand_leader=t("mythic.cmd.opt_hand_leader"),
        special_lead_sets_no_suit=t("mythic.cmd.opt_special_lead_sets_no_suit"),
        three_way=t("mythic.cmd.opt_three_way"),
        same_special_tie=t("mythic.cmd.opt_same_special_tie"),
        all_flags=t("mythic.cmd.opt_all_flags"),
        griffin_bonus=t("mythic.cmd.opt_griffin_bonus"),
        bonus_flag_scope=t("mythic.cmd.opt_bonus_flag_scope"),
        bonuses_enabled=t("mythic.cmd.opt_bonuses_enabled"),
        tie_break=t("mythic.cmd.opt_tie_break"),
        language=t("cmd.new_language"),
    )
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        allow_two_players: bool | None = None,
        hands_by_players: app_commands.Range[str, 3, 60] | None = None,
        dice_set: app_commands.Range[str, 3, 60] | None = None,
        first_start_player: Literal["random", "host"] | None = None,
        hand_leader: Literal["rotate", "last_trick_winner"] | None = None,
        special_lead_sets_no_suit: bool | None = None,
        three_way: Literal["mermaid_wins", "sequential"] | None = None,
        same_special_tie: Literal["later", "earlier"] | None = None,
        all_flags: Literal["first_roller", "nobody"] | None = None,
        griffin_bonus: Literal["per_griffin", "per_trick"] | None = None,
        bonus_flag_scope: Literal["trick", "hand", "face_only"] | None = None,
        bonuses_enabled: bool | None = None,
        tie_break: Literal["share", "exact_bids"] | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(
            interaction,
            dict(
                allow_two_players=allow_two_players,
                hands_by_players=hands_by_players,
                dice_set=dice_set,
                first_start_player=first_start_player,
                hand_leader=hand_leader,
                special_lead_sets_no_suit=special_lead_sets_no_suit,
                three_way=three_way,
                same_special_tie=same_special_tie,
                all_flags=all_flags,
                griffin_bonus=griffin_bonus,
                bonus_flag_scope=bonus_flag_scope,
                bonuses_enabled=bonuses_enabled,
                tie_break=tie_break,
            ),
            language,
        )

    @app_commands.command(name="bid", description=t("mythic.cmd.bid"))
    @app_commands.describe(tricks=t("mythic.cmd.opt_tricks"))
    async def bid(self, interaction: discord.Interaction, tricks: app_commands.Range[int, 0, 12]) -> None:
        await self.play(interaction, f"bid:{tricks}")

    @bid.autocomplete("tricks")
    async def bid_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        view = self._own_view(interaction)
        if view is None or view["phase"] != "bidding":
            return []
        # the engine's public bids (the channel's menu), as before your own bid too
        bids = [b for b in render.public_bids(view) if str(b).startswith(str(current).strip())]
        return [app_commands.Choice(name=str(b), value=b) for b in bids[:MAX_CHOICES]]

    @app_commands.command(name="play", description=t("mythic.cmd.play"))
    @app_commands.describe(die=t("mythic.cmd.opt_die"))
    async def play_die(self, interaction: discord.Interaction, die: app_commands.Range[str, 1, 40]) -> None:
        await self.play(interaction, self._die_action(interaction, die))

    @play_die.autocomplete("die")
    async def die_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = self._own_view(interaction)
        if view is None or view["phase"] != "playing":
            return []
        typed = str(current).strip().casefold()
        choices = render.die_choices(view, locale_of(interaction))
        return [
            app_commands.Choice(name=label[:100], value=str(die))
            for label, die in choices
            if typed in label.casefold() or typed == str(die)
        ][:MAX_CHOICES]

    @app_commands.command(name="hand", description=t("mythic.cmd.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        """The same ephemeral reply as the table's 🎲 My dice button."""
        await self.bot.table_ui.show_private_view(interaction, self._table_here(interaction))

    # -- the player's own controls -------------------------------------------------------------

    def private_controls(self, table: Table, seat: int, locale: str) -> Sequence[Control | Menu]:
        """A menu of bids while this player still has to bid, of their legal dice on their roll, and of all their
        dice while the others bid or roll: the reply, redrawn in place after each of their moves, then offers
        their next roll, one click when their turn comes (the table service's double-click guard accepts a
        control drawn after the player's own last move; a die they may not roll then is refused as such)."""
        view = MYTHICAL_DICE.view(table.state, seat)
        menus = render.private_menus(view, locale)
        if not menus and view["your_dice"] and view["phase"] in ("bidding", "playing"):
            hand = [f"play:{d['id']}" for d in view["your_dice"]]
            menus = render.private_menus(cast(MythicView, {**view, "phase": "playing", "legal": hand}), locale)
        return menus

    def confirmation(self, table: Table, seat: int, action: str, events: list[Event], locale: str) -> str | None:
        """The public log says only that a secret bid was placed: tell the bidder, privately, what they bid."""
        name, _, value = action.partition(":")
        bid = parse_int(value)
        if name != "bid" or bid is None:
            return None
        revealed = any(e.kind == "bids_revealed" for e in events)
        return t("mythic.bid_confirm_last" if revealed else "mythic.bid_confirm", locale, bid=bid)

    # -- helpers -------------------------------------------------------------------------------

    def _own_view(self, interaction: discord.Interaction) -> MythicView | None:
        """The engine's view for the user at this channel's Mythical Dice table, or None."""
        table = self.tables.by_channel.get(channel_of(interaction))
        if table is None or table.game != self.game or table.state is None:
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return None
        return MYTHICAL_DICE.view(table.state, seat)

    def _die_action(self, interaction: discord.Interaction, text: str) -> str:
        """``play:<die id>`` for what the player typed: a die id (the autocomplete's value) or a die type.

        A type picks a die of that type from the player's hand (a legal one if there is one); dice of
        one type are interchangeable. Without a seat at a running table the text goes to the table
        service as it is, which then says what is wrong (no table, not a player, …).
        """
        typed = text.strip().lstrip("#")
        view = self._own_view(interaction)
        if parse_int(typed) is not None or view is None:
            return f"play:{typed}"
        kind = self._die_type(typed, locale_of(interaction))
        if kind is None:  # also ``²`` or ``①``: digits to str.isdigit(), not to int()
            raise IllegalMove("unknown_die", die=text)
        return self._die_of_type(view, kind, text)

    def resolve_action(self, table: Table, user_id: int, action: str) -> str:
        """A control's ``play:<die type>`` (a roll menu that names types, not the player's dice: it may be
        public) as ``play:<die id>`` of a die of that type from the player's hand; any other action as it is
        (the table service refuses what is wrong: not a player, not your turn, a die you may not roll)."""
        name, _, kind = action.partition(":")
        seat = table.seat_of(user_id) if table.state is not None else None
        if name != "play" or kind not in DIE_TYPES or seat is None:
            return action
        return self._die_of_type(MYTHICAL_DICE.view(table.state, seat), kind, t(f"mythic.die.{kind}", table.locale))

    @staticmethod
    def _die_of_type(view: MythicView, kind: str, text: str) -> str:
        """A die of type ``kind`` from the viewer's hand, a legal one if there is one (dice of one type are
        interchangeable); IllegalMove if they hold none (``text``: the die as the player named it)."""
        ids = [d["id"] for d in view["your_dice"] if d["type"] == kind]
        if not ids:
            raise IllegalMove("die_not_in_hand", die=text)
        legal = [d for d in ids if f"play:{d}" in view["legal"]]
        return f"play:{(legal or ids)[0]}"

    @staticmethod
    def _die_type(typed: str, locale: str) -> str | None:
        word = typed.casefold()
        for kind in DIE_TYPES:
            names = {kind, t(f"mythic.die.{kind}", locale).casefold(), render.DIE_EMOJI[kind]}
            if word in names or word.rstrip("s") in names or (kind == "gray" and word == "grey"):
                return kind
        return None


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(Mythic(bot))
