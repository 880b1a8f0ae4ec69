"""Grouping, orientation and reading order, on hand-made classifier outputs (no model)."""
import math

import numpy as np

from vision.classify import TileGuess
from vision.codes import CODE_INDEX, CODES
from vision.config import DEFAULT_CONFIG
from vision.geometry import order_upright
from vision.melds import find_groups, place_group


def _quad(cx, cy, angle=0.0, w=30.0):
    h = w / 0.74
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return order_upright(local @ np.array([[c, s], [-s, c]]) + [cx, cy])


def _guess(quad, code, turned_p=0.0, also=None):
    co = np.zeros((len(CODES), 2))
    co[CODE_INDEX[code]] = [1 - turned_p, turned_p]
    if also:  # a second reading of the same face, e.g. 6 upright vs 9 turned
        other, p = also
        co *= 1 - p
        co[CODE_INDEX[other]] += [0, p] if turned_p < 0.5 else [p, 0]
    return TileGuess(quad, 0.99, co, 0.9)


def test_tiles_side_by_side_form_one_group_and_rows_stay_apart():
    row1 = [_quad(100 + 31 * k, 100) for k in range(4)]
    row2 = [_quad(100 + 31 * k, 100 + 60) for k in range(3)]  # next row, a tile height and a gap lower
    far = [_quad(400, 100)]
    groups = find_groups(row1 + row2 + far, DEFAULT_CONFIG)
    assert sorted(sorted(g) for g in groups) == [[0, 1, 2, 3], [4, 5, 6], [7]]


def test_a_gap_of_a_tile_width_splits_a_row_into_two_sets():
    quads = [_quad(100, 100), _quad(131, 100), _quad(131 + 60, 100), _quad(131 + 91, 100)]
    groups = find_groups(quads, DEFAULT_CONFIG)
    assert sorted(sorted(g) for g in groups) == [[0, 1], [2, 3]]


def test_a_turned_set_reads_right_to_left_and_neighbours_settle_a_6_or_9():
    # K7 K8 K9 lying the other way round: in the image from left to right K9 K8 K7.
    quads = [_quad(100 + 31 * k, 100, angle=0.02 * k) for k in range(3)]
    guesses = [
        _guess(quads[0], "K9", turned_p=0.95),
        _guess(quads[1], "K8", turned_p=0.97),
        # this face alone cannot tell "K7 turned" from a plain reading; the set decides
        _guess(quads[2], "K7", turned_p=0.5),
    ]
    placed, order = place_group(guesses, DEFAULT_CONFIG)
    codes = [CODES[int(np.argmax(placed[k].code_probabilities))] for k in order]
    assert codes == ["K7", "K8", "K9"]
    # the reported top-left corner of a turned tile is at its bottom-right in the image
    first = placed[order[0]]
    assert first.corners[0][1] > first.corners[3][1]


def test_six_upside_down_in_an_upright_run_reads_as_six():
    quads = [_quad(100 + 31 * k, 100) for k in range(3)]
    guesses = [
        _guess(quads[0], "R4"),
        _guess(quads[1], "R5"),
        # the face could be R6 upright (0.55) or R9 turned (0.45)
        TileGuess(quads[2], 0.99, _six_or_nine(), 0.9),
    ]
    placed, order = place_group(guesses, DEFAULT_CONFIG)
    assert [CODES[int(np.argmax(placed[k].code_probabilities))] for k in order] == ["R4", "R5", "R6"]


def test_nine_in_a_turned_run_reads_as_nine():
    quads = [_quad(100 + 31 * k, 100) for k in range(3)]
    guesses = [
        TileGuess(quads[0], 0.99, _six_or_nine(), 0.9),
        _guess(quads[1], "R8", turned_p=0.99),
        _guess(quads[2], "R7", turned_p=0.99),
    ]
    placed, order = place_group(guesses, DEFAULT_CONFIG)
    assert [CODES[int(np.argmax(placed[k].code_probabilities))] for k in order] == ["R7", "R8", "R9"]


def _six_or_nine():
    co = np.zeros((len(CODES), 2))
    co[CODE_INDEX["R6"], 0] = 0.55
    co[CODE_INDEX["R9"], 1] = 0.45
    return co
