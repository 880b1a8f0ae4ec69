"""Tile codes as the vision layer knows them (same notation as ../shared/RULES.md).

vision must not import controller, so the 53 codes are listed here; the class index of a
code is its position in CODES, shared by training, the ONNX model and inference.
"""
from __future__ import annotations

COLOUR_LETTERS = ("K", "B", "O", "R")  # black, blue, orange, red
NUMBERS = tuple(range(1, 14))
JOKER_CODE = "J"

CODES: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOUR_LETTERS for n in NUMBERS) + (JOKER_CODE,)
CODE_INDEX = {code: i for i, code in enumerate(CODES)}

MAX_COPIES = 2  # of any code in one full set (jokers included)
# Every tile of a full set: two of each coloured number, two jokers.
FULL_SET: tuple[str, ...] = tuple(code for code in CODES for _ in range(MAX_COPIES))
FULL_SET_SIZE = len(FULL_SET)  # 106

# The classifier's outputs: for code i, 2*i is "upright in the crop" and 2*i+1 "turned
# half round"; the last output is "not a tile".
CLASS_COUNT = 2 * len(CODES) + 1
NOT_A_TILE = CLASS_COUNT - 1
