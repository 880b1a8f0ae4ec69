"""Restoring the table after a penalty: the plan shown, the table read until it matches, or given up."""
from __future__ import annotations

from controller.game import judging
from controller.game.events import RestoreChecked, TurnJudged
from controller.game.machine import State
from controller.game.rebuild import Rebuilt, rebuild
from controller.messages import difference_words

from .looking import Look
from .ports import SignalKind
from .settings import ARBITER

_LEFT_STATE = object()  # settle_after_change: the referee page ended the restore while it waited


class Restoring:
    """The restore step (a part of `TableRunner`)."""

    def show_restore(self, event: TurnJudged) -> None:
        photo = self.records.photo(self.model.turn_photo) if self.model.turn_photo else None
        suffix = ".jpg" if photo is not None and photo.mime == "image/jpeg" else ".png"
        self.devices.display.restore(event, photo.data if photo else None, suffix)
        self.devices.timer.show("RESTORE TABLE")

    def step_restoring(self) -> None:
        """Read the table each time it settles after a change, until it shows the sets it must (the table
        before the turn, or what stays of one that could not be restored). The arbiter's button gives up
        restoring a failed turn's table (the rule set settles it), or accepts the table as it lies."""
        model = self.model
        self.compare_with_turn_start()
        settled = self.settle_after_change()
        if settled is _LEFT_STATE:
            return  # the referee page ended the restore (accepted, overridden)
        if settled is None:  # the arbiter's button: the table as it lies now, without waiting
            frame = self.reference.image if self.reference is not None else self.watch.frame()
            seen = self.look_at(frame)
            rebuilt = rebuild(seen.reading, model.table, self.settings.rebuild,
                              judging.ruleset_of(model).melds_reading())
            judgement = model.judgement
            if judgement is not None and judgement.penalty and judgement.settlement is None:
                self.give_up_restore(seen, rebuilt)
                return
            self.accept_restore(seen, rebuilt)
            return
        seen, rebuilt = self.look(model.table)
        matches, differences = judging.restore_check(model, rebuilt.table)
        if not matches and differences == self.last_restore_differences:
            return  # the same wrong table again: nothing new to record
        self.last_restore_differences = None if matches else differences
        self.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=matches,
                                   differences=differences, tiles=rebuilt.table.tiles, sets=rebuilt.table.sets,
                                   by_referee=False),
                    photos=seen.photos, readings=seen.raws)
        if matches:
            self.devices.display.say("    table restored")
        else:
            self.devices.display.say("    not restored yet: " + "; ".join(difference_words(d) for d in differences))

    def accept_restore(self, seen: Look, rebuilt: Rebuilt, referee: str | None = None, note: str | None = None) -> None:
        """The arbiter accepts the table as it lies: compared with what it had to show, and recorded so
        (`differences` empty: it matches; else how it does not)."""
        matches, differences = judging.restore_check(self.model, rebuilt.table)
        self.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=True,
                                   differences=() if matches else tuple(differences), tiles=rebuilt.table.tiles,
                                   sets=rebuilt.table.sets, by_referee=True, referee=referee, note=note),
                    photos=seen.photos, readings=seen.raws)
        self.last_restore_differences = None
        self.devices.display.say("    table accepted by the arbiter" + (
            "; it matches the start of the turn" if matches else " although it does not match: " + "; ".join(differences)))

    def give_up_restore(self, seen: Look, rebuilt: Rebuilt) -> None:
        event = judging.unrestorable(self.model, rebuilt.table, seen.photo.sha256, seen.raw.sha256)
        self.record(event, photos=seen.photos, readings=seen.raws)
        self.last_restore_differences = None
        self.devices.display.unrestorable(event)

    def settle_after_change(self):
        """After a refused restore, wait for the table to change before reading it again. None: the
        arbiter's button; _LEFT_STATE: the referee page ended the restore meanwhile; True: read it."""
        if self.last_restore_differences is None:
            return True
        reference = self.reference.image if self.reference is not None else None
        while True:
            signal = self.devices.timer.wait(0.01)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
                return None
            if self.attend_desk() and self.model.state is not State.RESTORING:
                return _LEFT_STATE
            frame = self.watch.frame()
            if reference is None or self.watch.moved(frame, reference):
                return True
