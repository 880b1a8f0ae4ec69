"""A decision with two thresholds on an occluder map (lab/decisions/occ16.txt): not shipped.

Cells above the lower threshold make the regions; a region counts only if its highest cell
reaches the upper one (the peak). `python -m lab.experiments.occluder_candidates score
--two-thresholds` scores candidates with it.
"""
from __future__ import annotations

from models.recipe.occluder_eval import SHARES, THRESHOLDS, Tally, choose_thresholds, regions_of, tally

PEAK_STEPS = (0.1, 0.2, 0.3)  # how far above the low threshold a two-threshold decision's peak may lie


def choose_two_thresholds(validation_maps) -> tuple[float, float | None, float, Tally]:
    """(threshold, peak, min share, tally) by lab/decisions/occ16.txt: the fewest mistakes on
    validation over the one-threshold grid and the same with a peak PEAK_STEPS above the threshold;
    among equals the one-threshold rule (peak None, as choose_thresholds picks it), then the largest
    minimum share, then the middle of the (threshold, peak) pairs."""
    threshold, min_share, one = choose_thresholds(validation_maps)
    regions = {t: [(case.covered, m.size, regions_of(m, t)) for case, m in validation_maps] for t in THRESHOLDS}
    mistakes = {}
    for t in THRESHOLDS:
        for peak in (round(t + step, 2) for step in PEAK_STEPS):
            if peak > 0.95:
                continue
            for s in SHARES:
                mistakes[(t, peak, s)] = sum(covered != any(area >= s * size and top >= peak for area, top in found)
                                             for covered, size, found in regions[t])
    best = min(mistakes.values())
    if one.refused + one.accepted <= best:
        return threshold, None, min_share, one
    good = [k for k, n in mistakes.items() if n == best]
    s = max(k[2] for k in good)
    options = sorted(k[:2] for k in good if k[2] == s)
    t, peak = options[len(options) // 2]
    return t, peak, s, tally(validation_maps, t, s, peak=peak)
