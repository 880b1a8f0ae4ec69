"""The classifier reads a photo's crops in batches; each face must come out as it does read alone."""
from pathlib import Path

import numpy as np

from vision import load_image
from vision.classify import _BATCH, classify
from vision.config import DEFAULT_CONFIG
from vision.models import CLASSIFIER_FILE, DETECTOR_FILE, load_model
from vision.pipeline import find_tiles

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"


def test_faces_read_in_batches_read_as_each_face_read_alone():
    image = load_image(PHOTO)
    classifier = load_model(CLASSIFIER_FILE, DEFAULT_CONFIG.threads)
    candidates = find_tiles(image, DEFAULT_CONFIG, load_model(DETECTOR_FILE, DEFAULT_CONFIG.threads))
    crops = sum(1 + len(c.other_turns) for c in candidates)
    assert crops > _BATCH, f"the photo's {crops} crops fill one batch; a batch's seam would go untested"
    together = classify(image, candidates, classifier, DEFAULT_CONFIG)
    alone = [classify(image, (c,), classifier, DEFAULT_CONFIG)[0] for c in candidates]
    assert len(together) == len(alone) == len(candidates)
    for k, (a, b) in enumerate(zip(together, alone)):
        assert int(np.argmax(a.code_probabilities)) == int(np.argmax(b.code_probabilities)), f"face {k}"
        assert np.array_equal(a.corners, b.corners), f"face {k}: another turn chosen"
        assert abs(a.tile_probability - b.tile_probability) < 1e-5, f"face {k}"
        assert np.allclose(a.code_orientation, b.code_orientation, atol=1e-5), f"face {k}"
        assert np.array_equal(a.crop, b.crop), f"face {k}"
