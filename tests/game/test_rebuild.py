"""Rebuilding the table from a reading with what is known: positions, counts, the rules."""
from __future__ import annotations

from controller.game.machine import TableState
from controller.game.reading import ReadTile, TableReading
from controller.game.rebuild import rebuild

W, H = 40.0, 54.0


def tile(code, x, y, confidence=0.99, alternatives=()):
    corners = ((x - W / 2, y - H / 2), (x + W / 2, y - H / 2), (x + W / 2, y + H / 2), (x - W / 2, y + H / 2))
    return ReadTile(code, confidence, (x, y), corners, tuple(alternatives))


def reading(*rows):
    """rows: lists of ReadTile forming one set each."""
    tiles, sets = [], []
    for row in rows:
        sets.append(tuple(range(len(tiles), len(tiles) + len(row))))
        tiles.extend(row)
    return TableReading(tuple(tiles), tuple(sets))


def row(codes, y, x0=100.0, **overrides):
    out = []
    for k, code in enumerate(codes):
        options = overrides.get(code, {})
        out.append(tile(code, x0 + k * W, y, **options))
    return out


def test_sure_reads_are_taken_as_they_are():
    result = rebuild(reading(row(["R3", "R4", "R5"], 100)), TableState())
    assert result.table.melds == (("R3", "R4", "R5"),) and not result.doubts and not result.settled


def test_an_unsure_tile_that_did_not_move_keeps_its_identity():
    before = rebuild(reading(row(["K10", "K11", "K12"], 100)), TableState()).table
    # the camera now hesitates on the middle tile, which has not moved (1 px shift)
    shaky = [tile("K10", 100, 100), tile("K7", 141, 101, 0.55, [("K11", 0.4)]), tile("K12", 180, 100)]
    result = rebuild(reading(shaky), before)
    assert result.table.melds == (("K10", "K11", "K12"),)
    assert result.settled and "did not move" in result.settled[0][3] and not result.doubts


def test_a_read_where_the_joker_lay_is_the_swapped_tile_when_the_joker_is_seen_elsewhere():
    before = rebuild(reading(row(["R3", "J", "R5"], 100)), TableState()).table
    result = rebuild(reading(row(["R3", "R4", "R5"], 100), row(["O4", "O5", "J"], 300)), before)
    assert result.table.melds == (("R3", "R4", "R5"), ("O4", "O5", "J")) and not result.doubts


def test_a_joker_that_seems_to_vanish_is_a_doubt_for_the_referee():
    before = rebuild(reading(row(["R3", "J", "R5"], 100)), TableState()).table
    result = rebuild(reading(row(["R3", "R4", "R5"], 100)), before)
    assert [d[0] for d in result.doubts] == [1] and set(result.doubts[0][1]) >= {"J", "R4"}


def test_a_sure_misread_of_an_unmoved_tile_is_settled_by_its_set():
    before = rebuild(reading(row(["K10", "K11", "K12"], 100)), TableState()).table
    result = rebuild(reading(row(["K8", "K11", "K12"], 100)), before)  # read K8 at 0.99 where K10 lay
    assert result.table.melds == (("K10", "K11", "K12"),) and not result.doubts
    assert result.settled[0][:3] == (0, "K8", "K10")


def test_a_tile_seen_neither_in_place_nor_elsewhere_is_missing():
    before = rebuild(reading(row(["K10", "K11", "K12"], 100)), TableState()).table
    result = rebuild(reading(row(["K10", "K11"], 100)), before)
    assert [code for code, _, _ in result.missing] == ["K12"]


def test_an_unsure_moved_tile_is_settled_when_only_one_reading_makes_its_set_valid():
    shaky = row(["B9", "B10", "B11"], 300, B10={"confidence": 0.5, "alternatives": [("B6", 0.3), ("O10", 0.2)]})
    result = rebuild(reading(shaky), TableState())
    assert result.table.melds == (("B9", "B10", "B11"),)
    assert result.settled == ((1, "B10", "B10", "the only reading that makes its set valid"),)


def test_two_readings_that_both_fit_are_flagged_for_the_referee_not_guessed():
    # a group of 7s: the unsure tile could be the blue or the orange 7, both make a valid group
    shaky = row(["K7", "R7", "B7"], 300, B7={"confidence": 0.5, "alternatives": [("O7", 0.45)]})
    result = rebuild(reading(shaky), TableState())
    assert len(result.doubts) == 1
    index, candidates, why = result.doubts[0]
    assert index == 2 and set(candidates) == {"B7", "O7"} and "2 readings" in why


def test_a_third_copy_makes_the_least_sure_one_doubtful():
    tiles = row(["R5", "R6", "R7"], 100) + row(["R5", "R6", "R7"], 200)
    tiles.append(tile("R5", 500, 300, 0.9, [("R8", 0.05)]))
    sets = ((0, 1, 2), (3, 4, 5))
    result = rebuild(TableReading(tuple(tiles), sets), TableState())
    assert [d[0] for d in result.doubts] == [6] and "R5" not in result.doubts[0][1]


def test_a_lone_tile_is_a_set_of_its_own():
    tiles = row(["R5", "R6", "R7"], 100) + [tile("B2", 600, 400)]
    result = rebuild(TableReading(tuple(tiles), ((0, 1, 2),)), TableState())
    assert result.table.melds == (("R5", "R6", "R7"), ("B2",))


def test_a_tile_most_frames_saw_but_not_all_is_a_doubt_with_no_tile_last():
    from controller.game.events import NO_TILE
    from controller.game.fusion import Unsure

    result = rebuild(reading(row(["R3", "R4", "R5"], 100), [tile("B9", 400, 300)]), TableState(),
                     unsure=[Unsure(3, 2, 3, ("B9", "B9"))])
    assert list(result.doubts) == [(3, ("B9", NO_TILE), "read B9 at 0.99; a lone tile: the rules cannot tell; "
                                                   "seen in 2 of 3 frames (B9, B9)")]


def test_a_tile_one_frame_of_three_saw_is_a_doubt_with_no_tile_first_whatever_its_set():
    from controller.game.events import NO_TILE
    from controller.game.fusion import Unsure

    # the R6 would make its run valid, but the rules never settle whether a tile lies somewhere
    result = rebuild(reading(row(["R3", "R4", "R5", "R6"], 100)), TableState(), unsure=[Unsure(3, 1, 3, ("R6",))])
    assert [(d[0], d[1]) for d in result.doubts] == [(3, (NO_TILE, "R6"))]
    assert "seen in 1 of 3 frames (R6)" in result.doubts[0][2]


def test_a_sure_code_the_frames_disagree_on_is_settled_by_its_set_or_left_to_the_referee():
    from controller.game.fusion import Unsure

    settled = rebuild(reading(row(["R3", "R4", "R5"], 100)), TableState(), unsure=[Unsure(1, 3, 3, ("R4", "R8", "R4"))])
    assert settled.table.melds == (("R3", "R4", "R5"),) and not settled.doubts
    assert settled.settled == ((1, "R4", "R4", "the only reading that makes its set valid"),)
    lone = rebuild(reading([tile("R4", 400, 300)]), TableState(), unsure=[Unsure(0, 3, 3, ("R4", "R8", "R4"))])
    assert [(d[0], d[1]) for d in lone.doubts] == [(0, ("R4", "R8"))]


def test_a_tile_in_no_set_one_step_beyond_a_sets_end_is_in_that_set():
    # the reader left the new R12 alone (its outline came out turned across its neighbours), though it
    # lies where the group's next tile would, along the group's slanted line
    group = [tile("K12", 300, 200), tile("O12", 336, 179)]
    stray = tile("R12", 264, 221)
    result = rebuild(TableReading((stray, *group), ((1, 2),)), TableState())
    assert result.table.melds == (("R12", "K12", "O12"),)
    assert [(i, why) for i, _, _, why in result.settled if "joined" in why] and not result.doubts


def test_a_tile_a_gap_beyond_a_sets_end_or_off_its_line_stays_apart():
    run = row(["B3", "B4", "B5"], 100)
    apart = tile("R12", 100 + 3 * W + 0.6 * W, 100)  # more than a third of a step past where the next tile lies
    below = tile("O12", 100 + 3 * W, 100 + 0.5 * H)  # at the next tile's place along, but half a tile lower
    result = rebuild(TableReading((*run, apart, below), ((0, 1, 2),)), TableState())
    assert sorted(result.table.melds) == [("B3", "B4", "B5"), ("O12",), ("R12",)]
