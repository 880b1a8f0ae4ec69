#!/bin/sh
# Install the typefaces the renderer (models/recipe/synth.py, font_families()) draws tile numbers
# with when training. Only the training machine needs them: the shipped models read tiles
# without any font, and the renderer falls back to OpenCV's Hershey faces without them.
#
#   sh models/recipe/install_training_fonts.sh        (as root, or with sudo available)
#
# Debian/Ubuntu packages; each family the renderer keeps is listed in models/recipe/typefaces.py
# (_FONT_SOURCES). Pillow, which draws them, comes with `pip install -e '.[train]'`.
set -eu

PACKAGES="fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-urw-base35 fonts-noto-core"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

# the package lists of a fresh container are empty; update only when the install fails
if ! $SUDO apt-get install -y --no-install-recommends $PACKAGES; then
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends $PACKAGES
fi

# show what the renderer will use (needs Pillow; skipped quietly without it)
cd "$(dirname "$0")/.."
python3 - <<'PY' || true
from models.recipe.synth import HELD_OUT_FAMILY, font_families

families = font_families()
if len(families) == 1:
    print("no font families usable: is Pillow installed? (pip install -e '.[train]')")
for name, faces in families.items():
    mark = "  (held out of training)" if name == HELD_OUT_FAMILY else ""
    print(f"{name}: {', '.join(face.style for face in faces)}{mark}")
PY
