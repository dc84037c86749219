"""Dice Tavern: five dice games for Discord."""
