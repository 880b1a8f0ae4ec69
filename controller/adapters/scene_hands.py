"""Moved to `controller.demo.scene_hands` (the demo's scenes). Kept only for `models/occluder_eval.py`,
which the camera helpers own, until it imports from there; then delete this file."""
from controller.demo.scene_hands import *  # noqa: F401,F403
