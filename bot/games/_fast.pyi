# The compiled fast path of the Pig and Liar's Dice engines (bot/games/_fast.c). The engine functions are method
# descriptors: CompiledPig and CompiledLiarsDice bind them as methods with the pure engines' signatures.
from collections.abc import Callable
from typing import Any

def setup_base(event: type, action: type, /) -> None: ...
def setup_pig(
    state: type,
    roll: Any,
    hold: Any,
    seats: tuple[Any, ...],
    turn: tuple[Any, ...],
    to_act: Callable[..., Any],
    legal_actions: Callable[..., Any],
    apply: Callable[..., Any],
    /,
) -> None: ...
def setup_liar(
    state: type,
    challenge: Any,
    seats: tuple[Any, ...],
    turn: tuple[Any, ...],
    moves: dict[str, Any],
    moves_fn: Callable[..., Any],
    new_game: Callable[..., Any],
    to_act: Callable[..., Any],
    legal_actions: Callable[..., Any],
    apply: Callable[..., Any],
    /,
) -> None: ...

pig_to_act: Any
pig_legal_actions: Any
pig_apply: Any
liar_new_game: Any
liar_to_act: Any
liar_legal_actions: Any
liar_apply: Any
