"""A referee action's JSON body as a typed request (`parse_request`): what each action takes, and a
clear BadRequest (400, nothing recorded) naming what is wrong."""
from __future__ import annotations

from typing import Any

from controller.adapters.desk import DeskAction, RefereeRequest
from controller.game.events import NO_TILE, Override, RefereeCorrection
from controller.rules.tiles import parse_tile

MAX_FRAME_SIDE = 16384  # pixels: more than any table camera gives


class BadRequest(Exception):
    """A referee action's body that is not what the action takes (400, nothing recorded)."""


def _text(body: dict, name: str, required: bool = True) -> str:
    value = body.get(name, "")
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be text")
    value = value.strip()
    if required and not value:
        raise BadRequest(f"{name!r} is required: every referee action names who ({'referee'!r}) and why "
                         f"({'reason'!r})")
    if len(value) > 500:
        raise BadRequest(f"{name!r} is longer than 500 characters")
    return value


def parse_request(action: DeskAction, body: Any) -> RefereeRequest:
    """A referee action's JSON body as a typed request; BadRequest (400) names what is wrong."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    referee, reason = _text(body, "referee"), _text(body, "reason")
    if action is DeskAction.CORRECT:
        target = _text(body, "target", required=False) or "table"
        if target == "table":
            changes = body.get("changes", "")
            if isinstance(changes, str):
                words = changes.replace(",", " ").split()
                if len(words) % 2:
                    raise BadRequest(f"'changes': 'index code' pairs, e.g. '3 R5 7 {NO_TILE}' ({NO_TILE!r}: no tile lies there)")
                pairs = [(words[k], words[k + 1]) for k in range(0, len(words), 2)]
            elif isinstance(changes, list) and all(isinstance(c, list) and len(c) == 2 for c in changes):
                pairs = [(str(i), str(c)) for i, c in changes]
            else:
                raise BadRequest(f"'changes': 'index code' pairs, e.g. '3 R5 7 {NO_TILE}' ({NO_TILE!r}: no tile lies there)")
            if not pairs:
                raise BadRequest("'changes': name at least one tile: 'index code'")
            try:
                parsed = tuple((int(i), NO_TILE if c.lower() == NO_TILE else parse_tile(c).code) for i, c in pairs)
            except ValueError:
                raise BadRequest("'changes': a tile index is a whole number") from None
            return RefereeRequest(action, referee, reason, target="table", changes=parsed)
        if not target.startswith("rack:") or not target[5:].strip():
            raise BadRequest("'target': 'table' or 'rack:PLAYER'")
        tiles = body.get("tiles", "")
        codes = tiles.replace(",", " ").split() if isinstance(tiles, str) else tiles
        if not isinstance(codes, list):
            raise BadRequest("'tiles': the rack's codes, e.g. 'R5 K13 J'")
        return RefereeRequest(action, referee, reason, target=RefereeCorrection.rack_target(target[5:].strip()),
                              rack=tuple(parse_tile(str(c)).code for c in codes))
    if action is DeskAction.TILES_THERE:
        changes = body.get("changes", "")
        if not isinstance(changes, str):
            raise BadRequest("'changes': 'index code' pairs, e.g. '3 R5 7 K13', or nothing (the table is read again)")
        words = changes.replace(",", " ").split()
        if len(words) % 2:
            raise BadRequest("'changes': 'index code' pairs, e.g. '3 R5 7 K13'")
        try:
            parsed = tuple((int(words[k]), parse_tile(words[k + 1]).code) for k in range(0, len(words), 2))
        except ValueError:
            raise BadRequest("'changes': a tile index is a whole number") from None
        return RefereeRequest(action, referee, reason, changes=parsed)
    if action is DeskAction.OVERRIDE:
        outcome = _text(body, "outcome", required=False) or Override.LEGAL
        if outcome not in tuple(Override):
            raise BadRequest(f"'outcome': {outcome!r} is not one of " + ", ".join(repr(o.value) for o in Override))
        return RefereeRequest(action, referee, reason, outcome=Override(outcome))
    if action is DeskAction.EXTEND:
        seconds = body.get("seconds")
        if isinstance(seconds, str) and seconds.strip().isdigit():
            seconds = int(seconds)
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 < seconds <= 3600:
            raise BadRequest("'seconds': the extra time, 1 to 3600 seconds")
        return RefereeRequest(action, referee, reason, seconds=seconds)
    if action is DeskAction.PAUSE:
        return RefereeRequest(action, referee, reason, resume=bool(body.get("resume", False)))
    if action is DeskAction.AREA:
        return area_request(referee, reason, body)
    return RefereeRequest(action, referee, reason)


def _whole(body: dict, name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_FRAME_SIDE:
        raise BadRequest(f"{name!r}: the frame's {name} in pixels, 1 to {MAX_FRAME_SIDE}; got {value!r}")
    return value


def area_request(referee: str, reason: str, body: dict) -> RefereeRequest:
    """`found`: true (the area is found on each frame), or `corners` [[x, y] x 4] on a frame of `width` x
    `height` pixels: inside it, a convex four-sided area of a sensible size (BadRequest names the value)."""
    from vision.area import AreaError, marked_on_frame  # here: `tileref serve` never needs OpenCV

    if body.get("found") is True:
        if "corners" in body:
            raise BadRequest("'found': true takes no 'corners' (the area is found on each frame)")
        return RefereeRequest(DeskAction.AREA, referee, reason)
    corners = body.get("corners")
    shape_ok = isinstance(corners, list) and len(corners) == 4 and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in c)
        for c in corners)
    if not shape_ok:
        raise BadRequest(f"'corners': four corners [x, y] in the frame's pixels (or 'found': true); got {corners!r}")
    width, height = _whole(body, "width"), _whole(body, "height")
    try:
        area = marked_on_frame(corners, width, height)
    except AreaError as error:
        raise BadRequest(f"'corners': {error}") from None
    return RefereeRequest(DeskAction.AREA, referee, reason, corners=tuple(area.corners), frame=(width, height))
