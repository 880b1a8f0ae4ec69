"""`tileref demo`'s recorded table: a scripted game (`recorded_game.py`: the script, the camera that
renders each moment of it, the timer that presses its buttons) and the scenes it renders
(`scene.py`, `scene_hands.py`, `scene_photos.py` with the real table tops and tile faces in
`scene_data/`). The bundled scripts are package data in `controller/demo_games/`."""
