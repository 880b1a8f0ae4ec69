"""Steadying a frame's reading against the last settled table (controller.game.steady): where a
patch lies unchanged, a code flicker is kept, a missed tile is put back and a tile read on bare
table is taken out; where it changed (a tile really taken away or laid down), the reading stands."""
from __future__ import annotations

import pytest

from controller.game.reading import ReadTile, TableReading
from controller.game.steady import judged_tiles, steady_reading

WIDTH, HEIGHT = 30, 40
ROW = (("K1", 100), ("K2", 131), ("K3", 162))  # a run, each tile about 1.03 widths from the next
BARE_X = 300  # bare table on the settled table


def box(x: float, y: float = 100) -> tuple[tuple[float, float], ...]:
    return ((x - WIDTH / 2, y - HEIGHT / 2), (x + WIDTH / 2, y - HEIGHT / 2), (x + WIDTH / 2, y + HEIGHT / 2),
            (x - WIDTH / 2, y + HEIGHT / 2))


def tile(code: str, x: float, confidence: float = 0.95) -> ReadTile:
    return ReadTile(code, confidence, (x, 100.0), box(x))


def settled(unchanged=(True, True, True)):
    return judged_tiles([box(x) for _, x in ROW], [code for code, _ in ROW], unchanged)


def reading(*tiles: ReadTile) -> TableReading:
    return TableReading(tuple(tiles), (tuple(range(len(tiles))),), ("read on one frame",))


def codes(result: TableReading) -> list[str]:
    return sorted(t.code for t in result.tiles)


def test_an_unchanged_reading_comes_back_as_it_was():
    read = reading(*(tile(code, x) for code, x in ROW))
    assert steady_reading(read, settled(), (True, True, True)) is read


def test_a_flickered_code_on_an_unchanged_tile_keeps_its_settled_code():
    read = reading(tile("K1", 100), tile("K7", 131), tile("K3", 162))
    result = steady_reading(read, settled(), (True, True, True))
    assert [t.code for t in result.tiles] == ["K1", "K2", "K3"]
    assert result.tiles[1].alternatives[0] == ("K7", 0.95)
    assert any("read K7, kept K2" in w for w in result.warnings)


def test_a_tile_the_reader_missed_on_an_unchanged_patch_is_put_back():
    read = reading(tile("K1", 100), tile("K3", 162))
    result = steady_reading(read, settled(), (True, True))
    assert codes(result) == ["K1", "K2", "K3"]
    back = next(t for t in result.tiles if t.code == "K2")
    assert back.corners == box(131) and back.center == (131.0, 100.0)
    assert any("tile K2 at (131, 100) not read, put back" in w for w in result.warnings)
    assert result.sets == ((0, 1),) and "read on one frame" in result.warnings  # the reader's own stay


def test_a_tile_read_on_unchanged_bare_table_is_taken_out():
    read = TableReading((tile("K1", 100), tile("O3", BARE_X), tile("K2", 131), tile("K3", 162)), ((0, 2, 3), (1,)))
    result = steady_reading(read, settled(), (True, True, True, True))
    assert [t.code for t in result.tiles] == ["K1", "K2", "K3"]
    assert result.sets == ((0, 1, 2),)  # the sets renumbered, the emptied one gone
    assert any(f"tile at ({BARE_X}, 100) read O3, taken out" in w for w in result.warnings)


def test_a_tile_really_taken_away_is_not_put_back():
    read = reading(tile("K1", 100), tile("K3", 162))
    result = steady_reading(read, settled(unchanged=(True, False, True)), (True, True))
    assert result is read and codes(result) == ["K1", "K3"]


def test_a_tile_really_laid_on_bare_table_is_not_taken_out():
    read = reading(tile("K1", 100), tile("K2", 131), tile("K3", 162), tile("O3", BARE_X))
    result = steady_reading(read, settled(), (True, True, True, False))
    assert result is read and codes(result) == ["K1", "K2", "K3", "O3"]


def test_without_flags_for_the_read_tiles_nothing_is_taken_out():
    read = reading(tile("K1", 100), tile("K2", 131), tile("K3", 162), tile("O3", BARE_X))
    assert steady_reading(read, settled()) is read


def test_a_tile_read_a_little_off_its_settled_place_is_not_doubled():
    # matched beyond the radius, but lying on the settled tile: neither put back beside it nor taken out
    read = reading(tile("K1", 100), tile("K2", 131 + 0.48 * WIDTH), tile("K3", 162))
    result = steady_reading(read, settled(), (True, True, True))
    assert codes(result) == ["K1", "K2", "K3"] and len(result.tiles) == 3


def test_a_settled_tile_of_unknown_code_is_not_put_back_but_still_holds_its_place():
    unknown = judged_tiles([box(x) for _, x in ROW], ["K1", "", "K3"], (True, True, True))
    missed = steady_reading(reading(tile("K1", 100), tile("K3", 162)), unknown, (True, True))
    assert codes(missed) == ["K1", "K3"]
    there = reading(tile("K1", 100), tile("K9", 131), tile("K3", 162))
    assert steady_reading(there, unknown, (True, True, True)) is there


def test_a_reading_with_no_tiles_gets_every_unchanged_settled_tile_back():
    result = steady_reading(TableReading((), ()), settled(unchanged=(True, False, True)), ())
    assert codes(result) == ["K1", "K3"]


def test_flags_must_match_the_read_tiles():
    with pytest.raises(ValueError, match="2 flags for 3 tiles"):
        steady_reading(reading(*(tile(code, x) for code, x in ROW)), settled(), (True, True))
