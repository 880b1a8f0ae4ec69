"""The table layer: the main loop that runs a game at a table (`TableRunner`), written against the
ports in `ports.py` (camera watch, photo encoder, timer, reader, display, referee, referee desk,
records). The real devices are in `controller/adapters/`; every event goes through the game's one
write path, `controller.game.journal.GameJournal`."""
from .looking import FusedLook
from .ports import TableDevices
from .runner import STEPS, Observer, TableRunner
from .settings import RunnerSettings

__all__ = ["FusedLook", "Observer", "RunnerSettings", "STEPS", "TableDevices", "TableRunner"]
