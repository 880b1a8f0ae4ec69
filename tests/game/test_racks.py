"""A rack laid open on the table (controller/game/racks.py): the tiles that are not the table's, in rows,
left to right, and the unsure ones as doubts."""
from __future__ import annotations

from controller.game.machine import TableState
from controller.game.racks import RackSettings, rack_tiles
from controller.game.reading import ReadTile, TableReading

W = 40.0  # tile width in pixels
H = W / 0.74  # a tile's height: rows laid one under the other are this far apart


def tile(code: str, x: float, y: float, confidence: float = 0.99) -> ReadTile:
    corners = ((x - W / 2, y - H / 2), (x + W / 2, y - H / 2), (x + W / 2, y + H / 2), (x - W / 2, y + H / 2))
    return ReadTile(code, confidence, (x, y), corners, (("K9", 0.01),))


def test_a_rack_laid_in_two_touching_rows_is_read_row_by_row_left_to_right():
    table = TableState(tiles=(("R1", 100.0, 100.0),), sets=((0,),))
    y1, y2 = 600.0, 600.0 + H
    tiles = (tile("R1", 100, 100),  # the table's tile, where it lay
             tile("B3", 3 * W, y1 + 2), tile("B1", 1 * W, y1 - 1), tile("O7", 2 * W, y2 - 2),
             tile("B2", 2 * W, y1 + 1), tile("O5", 1 * W, y2 + 1, confidence=0.4))
    rack = rack_tiles(TableReading(tiles, ()), table)
    assert rack.codes == ("B1", "B2", "B3", "O5", "O7")
    assert rack.doubts == ((3, ("O5", "K9"), "read O5 at 0.40"),)


def test_the_row_gap_is_a_setting():
    tiles = (tile("B2", 2 * W, 600), tile("B1", W, 600 + 0.6 * W))  # one row, laid a little crooked
    assert rack_tiles(TableReading(tiles, ()), TableState()).codes == ("B1", "B2")
    assert rack_tiles(TableReading(tiles, ()), TableState(), rack=RackSettings(row_gap=0.5)).codes == ("B2", "B1")
