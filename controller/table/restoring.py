"""Restoring the table after a penalty: the plan shown, the table read until it matches, or given up."""
from __future__ import annotations


from controller.game import judging
from controller.game.events import RestoreChecked, TurnJudged
from controller.game.machine import State
from controller.game.rebuild import Rebuilt, rebuild
from controller.messages import difference_words

from .host import Table
from .looking import FusedLook
from .ports import SignalKind
from .settings import ARBITER


_LEFT_STATE = object()  # settle_after_change: the referee page ended the restore while it waited


class Restore:
    """Restoring the table after a penalty (a part of the table's runner, `TableRunner`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        # how the table last read differed from what it had to show (None: no refused restore to wait out)
        self.last_differences: tuple[str, ...] | None = None

    def ended(self) -> None:
        """The restore ended otherwise (a verdict overridden): no refused table is waited out."""
        self.last_differences = None

    def show(self, event: TurnJudged) -> None:
        photo = self.table.records.photo(self.table.model.turn_photo) if self.table.model.turn_photo else None
        suffix = ".jpg" if photo is not None and photo.mime == "image/jpeg" else ".png"
        self.table.devices.display.restore(event, photo.data if photo else None, suffix)
        self.table.devices.timer.show("RESTORE TABLE")

    def step(self) -> None:
        """Read the table each time it settles after a change, until it shows the sets it must (the table
        before the turn, or what stays of one that could not be restored). The arbiter's button gives up
        restoring a failed turn's table (the rule set settles it), or accepts the table as it lies."""
        model = self.table.model
        self.table.looking.compare_with_turn_start()
        settled = self.settle_after_change()
        if settled is _LEFT_STATE:
            return  # the referee page ended the restore (accepted, overridden)
        if settled is None:  # the arbiter's button: the table as it lies now, without waiting
            reference = self.table.eyes.reference
            frame = reference.image if reference is not None else self.table.looking.watch.frame()
            seen = self.table.looking.look_at(frame)
            rebuilt = rebuild(seen.reading, model.table, self.table.settings.rebuild,
                              judging.ruleset_of(model).melds_reading())
            judgement = model.judgement
            if judgement is not None and judgement.penalty and judgement.settlement is None:
                self.give_up(seen, rebuilt)
                return
            self.accept(seen, rebuilt)
            return
        seen, rebuilt = self.table.looking.look(model.table)
        matches, differences = judging.restore_check(model, rebuilt.table)
        if not matches and differences == self.last_differences:
            return  # the same wrong table again: nothing new to record
        self.last_differences = None if matches else differences
        self.table.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=matches,
                                   differences=differences, tiles=rebuilt.table.tiles, sets=rebuilt.table.sets,
                                   by_referee=False),
                    photos=seen.photos, readings=seen.raws)
        if matches:
            self.table.devices.display.say("    table restored")
        else:
            self.table.devices.display.say("    not restored yet: " + "; ".join(difference_words(d) for d in differences))

    def accept(self, seen: FusedLook, rebuilt: Rebuilt, referee: str | None = None, note: str | None = None) -> None:
        """The arbiter accepts the table as it lies: compared with what it had to show, and recorded so
        (`differences` empty: it matches; else how it does not)."""
        matches, differences = judging.restore_check(self.table.model, rebuilt.table)
        self.table.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=True,
                                   differences=() if matches else tuple(differences), tiles=rebuilt.table.tiles,
                                   sets=rebuilt.table.sets, by_referee=True, referee=referee, note=note),
                    photos=seen.photos, readings=seen.raws)
        self.last_differences = None
        self.table.devices.display.say("    table accepted by the arbiter" + (
            "; it matches the start of the turn" if matches else " although it does not match: " + "; ".join(differences)))

    def give_up(self, seen: FusedLook, rebuilt: Rebuilt) -> None:
        event = judging.unrestorable(self.table.model, rebuilt.table, seen.photo.sha256, seen.raw.sha256)
        self.table.record(event, photos=seen.photos, readings=seen.raws)
        self.last_differences = None
        self.table.devices.display.unrestorable(event)

    def settle_after_change(self):
        """After a refused restore, wait for the table to change before reading it again. None: the
        arbiter's button; _LEFT_STATE: the referee page ended the restore meanwhile; True: read it."""
        if self.last_differences is None:
            return True
        reference = self.table.eyes.reference.image if self.table.eyes.reference is not None else None
        while True:
            signal = self.table.devices.timer.wait(0.01)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
                return None
            if self.table.desk.attend() and self.table.model.state is not State.RESTORING:
                return _LEFT_STATE
            frame = self.table.looking.watch.frame()
            if reference is None or self.table.looking.watch.moved(frame, reference):
                return True
