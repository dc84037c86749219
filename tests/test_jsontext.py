"""One compact JSON encoder serves engine state, table meta and stored columns."""

from __future__ import annotations

from bot.games import Action, get_engine
from bot.games.dice import SeededDice
from bot.jsontext import dumps, loads
from bot.store import repo
from bot.tables.model import Table


def test_dumps_is_compact_and_keeps_key_order():
    assert dumps({"b": [1, 2.5, None, True], "a": "é"}) == '{"b":[1,2.5,null,true],"a":"é"}'


def test_what_orjson_refuses_is_written_as_the_standard_library_wrote_it():
    assert dumps({1: [Action("roll")]}) == '{"1":[["roll",[]]]}'
    assert dumps(2**70) == "1180591620717411303424"


def test_text_written_before_orjson_still_reads():
    assert loads('{"a":"\\u00e9"}') == {"a": "é"}


def test_state_meta_and_stored_columns_use_the_same_text():
    engine = get_engine("pig")
    state, _ = engine.new_game(2, engine.options(), SeededDice(1))
    assert engine.dumps(state) == dumps(engine.to_json(state))
    assert repo.dumps is dumps
    table = Table(1, 2, 3, "pig", "running", 4, {}, [], timeouts=[0, 2])
    table.add_log([("roll", {"player": 0, "face": 4})])
    assert table.meta() == '{"timeouts":[0,2],"locale":"en","log":[["roll",{"player":0,"face":4}]],"acted":[]}'
