"""The table's play area in the game's record (a part of `TableRunner`).

The area is the camera's, kept in the table's area file by the reader (`adapters/reader.py`); the
game records every change of it as `play-area-set`, through the one write path: the referee page's
marks (checked against the state table before the file is written, recorded once it is), and, when a
game starts or resumes, a marked area the game has not recorded yet (from the table's settings).

With none marked, the table finds the area itself on its clear frame as the game begins and keeps it
for the game (`found-once`): a table with tiles on it, or a hand over it, shows its edges less well
than the empty table does, and an area found anew on every frame may take in the tile box beside
the table on one frame and not on the next. A resumed game reads in the area it recorded."""
from __future__ import annotations


from controller.game.events import AREA_CONFIRMED, AreaSource, PlayAreaSet, TableAccepted
from controller.game.machine import State, apply, expected_events

from .host import Table
from .ports import AdapterError, DeskError, KeepsArea, RefereeRequest, WatchesArea


TABLE_SETTINGS = "table settings"  # who set an area that was in the table's area file when the game started
THE_TABLE = "the table"  # who found an area on its own clear frame
FOUND_ON_CLEAR = "found on the clear table as the game began"
# the states between turns, when the table holds only the tiles the game accepted (none as it begins)
CLEAR_STATES = (State.SEATING, State.DEALING, State.REDEAL_WINDOW, State.TURN_READY)
# PlayAreaSet.area() of an area found on each frame: what a game that recorded no area was read in
FOUND = (AreaSource.FOUND.value, (), 0, 0)


class PlayArea:
    """The play area in the game's record (a part of the table's runner, `TableRunner`)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def area_event(self, by: str, reason: str) -> PlayAreaSet | None:
        """The area the reader reads in now, as an event; None for a reader that takes no area."""
        reader = self.table.devices.reader
        if not isinstance(reader, KeepsArea):
            return None
        marked = reader.area_in_force()
        if marked is None:
            return PlayAreaSet(how=AreaSource.FOUND, corners=(), width=0, height=0, by=by, reason=reason)
        corners, width, height = marked
        return PlayAreaSet(how=AreaSource.MARKED, corners=tuple(corners), width=int(width), height=int(height),
                           by=by, reason=reason)

    def watch_the_area(self) -> None:
        """The eyes watch the area the reader reads in (a watch that can): with one marked or kept, the
        tile box and the lid beside it hold no wait up; found on each frame, the whole frame is watched."""
        reader = self.table.devices.reader
        watch = self.table.looking.watch
        if isinstance(reader, KeepsArea) and isinstance(watch, WatchesArea):
            area = reader.area_read_in()
            if area is None:
                watch.watch_area(None, None)
            else:
                watch.watch_area(area[0], (int(area[1]), int(area[2])))

    def last_area(self) -> PlayAreaSet | None:
        return next((e for e in reversed(self.table.records.events(self.table.game_id)) if isinstance(e, PlayAreaSet)), None)

    def record_area_in_force(self) -> None:
        """A game records the area it is read in: a marked area (or a change back to finding it) that the
        game has not recorded yet is recorded when it starts or resumes."""
        if PlayAreaSet.kind not in expected_events(self.table.model.state):
            return
        reader = self.table.devices.reader
        file = reader.area_file if isinstance(reader, KeepsArea) else None
        now = self.area_event(TABLE_SETTINGS, str(file) if file is not None else "the table's area file")
        if now is None:
            return
        last = self.last_area()
        if now.how is AreaSource.FOUND:  # none marked: the area found on the clear table holds for the game
            if last is not None and last.how is AreaSource.FOUND_ONCE:
                self.table.devices.reader.keep_area(last.corners, last.width, last.height)
                return
            if (last is None or last.by == TABLE_SETTINGS) and self.find_area_once():
                return
        if now.area() != (last.area() if last is not None else FOUND):
            self.table.record(now)

    def to_confirm(self) -> PlayAreaSet | None:
        """The area the table found on its clear frame, while the referee has not confirmed it (nor marked
        one): a game killed before the confirmation asks again when resumed."""
        for event in reversed(self.table.records.events(self.table.game_id)):
            if isinstance(event, TableAccepted) and event.reason == AREA_CONFIRMED:
                return None
            if isinstance(event, PlayAreaSet):
                return event if event.how is AreaSource.FOUND_ONCE and event.by == THE_TABLE else None
        return None

    def confirm_words(self, found: PlayAreaSet) -> str:
        return ("confirm the play area found on the clear table (" + " ".join(f"{x:.0f},{y:.0f}" for x, y in found.corners)
                + f" of {found.width}x{found.height}) and that nothing lies on the table: press the arbiter button, "
                "or accept the table on the referee page (drag the area's corners there first to move it)")

    def fresh_table(self) -> bool:
        """A game with no settled table yet, its table clear."""
        return self.table.eyes.reference is None and self.table.model.state in CLEAR_STATES and not self.table.model.table.tiles

    def find_area_once(self) -> bool:
        """With the table clear (no tile on it in the game), the area found on its frame is recorded and
        kept; False when the reader cannot find one, the table is not clear, or the frame shows no edge."""
        reader = self.table.devices.reader
        if not isinstance(reader, KeepsArea) or self.table.model.state not in CLEAR_STATES:
            return False
        if self.table.model.table.tiles:
            return False
        try:
            found = reader.find_area_on(self.table.looking.watch.frame())
        except AdapterError as error:  # the game goes on, the area found on each frame
            self.table.devices.display.say(f"the play area was not found on the clear table ({error}); "
                                     "it is found on each frame")
            return False
        if found is None:
            return False
        corners, width, height = found
        self.table.record(PlayAreaSet(how=AreaSource.FOUND_ONCE, corners=tuple(corners), width=int(width),
                                height=int(height), by=THE_TABLE, reason=FOUND_ON_CLEAR))
        reader.keep_area(corners, width, height)
        self.table.devices.display.say("play area found on the clear table: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)
                                 + f" of {width}x{height}; nothing outside it is read. The referee page shows it: "
                                 "drag its corners there to move it (or `tileref area` and --area)")
        return True

    def desk_area(self, request: RefereeRequest) -> str:
        """The referee page's area: checked against the state table, kept in the table's area file, then
        recorded; it is read in from the next look on."""
        reader = self.table.devices.reader
        if not isinstance(reader, KeepsArea) or reader.area_file is None:
            raise DeskError("this table keeps no play area file: `tileref play` keeps one (--area AREA.json, or "
                            "play-area.json beside its records)")
        by = f"referee {request.referee}"
        if request.corners is None:
            event = PlayAreaSet(how=AreaSource.FOUND, corners=(), width=0, height=0, by=by, reason=request.reason)
        else:
            width, height = request.frame
            event = PlayAreaSet(how=AreaSource.MARKED, corners=tuple(request.corners), width=width, height=height,
                                by=by, reason=request.reason)
        apply(self.table.model, event)  # the state table refuses it before the area file is touched
        before = reader.area_in_force()
        if event.how is AreaSource.FOUND:
            reader.find_area()
        else:
            reader.mark_area(event.corners, event.width, event.height)
        try:
            self.table.record(event)
        except BaseException:
            # the records refused it: the table's file goes back to the area the game last recorded
            if before is None:
                reader.find_area()
            else:
                reader.mark_area(*before)
            raise
        self.table.eyes.area_changed()  # read ahead in the old area: the next look reads its frames again
        if event.how is AreaSource.FOUND:
            return f"play area found on each frame from the next look on, set by referee {request.referee}"
        return (f"play area marked by referee {request.referee} from the next look on: "
                + " ".join(f"{x:.0f},{y:.0f}" for x, y in event.corners) + f" on {event.width}x{event.height}")

