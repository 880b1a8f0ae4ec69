"""What the players are to do now, in plain words: the table display's main line.

Drawn from where the game stands (the live state's `phase`, whose turn, the restore under way,
the score) and the catalogue of the page's language; never an internal state name.
"""
from __future__ import annotations

from typing import Any, Mapping

from controller.messages import RESTORE_DIFFERENCES, Catalogue, difference_words  # noqa: F401 (the pages' import)


def prompt_of(state: Mapping[str, Any], words: Catalogue) -> dict[str, str | None]:
    """The phase's name, what to do now and, if the table is not read yet, why ({"phase", "now", "waiting"})."""
    phase = state.get("phase") or "new"
    player = state.get("player") or ""
    now = _now(phase, player, state, words)
    waiting = state.get("waiting")
    return {"phase": words.maybe(f"phase.{phase}", ""), "now": now,
            "waiting": words.maybe(f"waiting.{waiting}", "") if waiting else None}


def _now(phase: str, player: str, state: Mapping[str, Any], words: Catalogue) -> str:
    if phase == "seating":
        return words.text("prompt.seating", players=", ".join(state.get("due") or ()))
    if phase == "turn-running" and state.get("paused"):
        return words.text("prompt.turn-paused", player=player)
    if phase == "turn-running" and state.get("own_clock"):
        clock = state.get("clock") or {}
        if not clock.get("running") and not clock.get("expired"):  # armed: the player's press starts it
            return words.text("prompt.turn-armed", player=player)
    if phase == "restoring":
        # the game's own account of the restore (status) first: the plan's region may not be drawn yet
        penalty = state.get("restore") or state.get("penalty") or {}
        who = penalty.get("player") or player
        if not penalty.get("penalty", True):
            return words.text("prompt.restoring-undo", player=who)
        key = "prompt.restoring-time" if penalty.get("timed_out") else "prompt.restoring"
        return words.text(key, player=who, draw=penalty.get("draw", 0))
    if phase == "finished":
        scores = state.get("scores") or {}
        return words.text("prompt.finished", winner=scores.get("winner") or state.get("winner") or "")
    return words.maybe(f"prompt.{phase}", "", player=player)


DIFFERENCES = RESTORE_DIFFERENCES  # as a restore check records them; the catalogue's words for each


def difference_parts(text: str, words: Catalogue) -> dict[str, Any]:
    """One way a restored table differs, for a page to draw: {"before", "codes", "after"} (the words around
    the tiles, which the page draws as tiles), or {"text"} for a difference of another kind."""
    for prefix, key in DIFFERENCES.items():
        if text.startswith(prefix):
            before, after = words.around(key, "tiles")
            return {"before": before, "codes": text[len(prefix):].split(), "after": after}
    return {"text": text}
