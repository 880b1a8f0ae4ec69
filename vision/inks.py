"""Stage 3b: colour as a role - decide each tile's colour family among the inks of one photo.

A set's "blue" may be teal, its "orange" amber or yellow, its "black" dark grey: the
classifier, which judges a tile's hue on its own, can read a teal it never saw as black.
What does not change from set to set is that a photo's tiles carry (up to) four inks and
that each ink plays one role. So, without a set profile:

1. each tile's ink is measured on the crop the classifier read (`TileGuess.crop`): the
   most inked pixels of its middle, white-balanced on the face, as a CIE Lab colour;
2. the inks of the photo are grouped into up to four families (k-means in Lab);
3. each family gets a role (K, B, O, R) from its members' colour votes, corrected by what
   its ink can be: a neutral ink can only be black, one far more coloured than the
   photo's greyest never is, a cool one is blue; and relative to each other: of two
   "black" families with no blue, the more coloured is the blue, of two "red" ones with no
   orange, the yellower is the orange, and warm families far apart in hue are red (the
   lower) and orange;
4. a tile whose own colour is weak or contradicts its family's role is re-decided (the
   number part of its reading is kept); one whose ink lies between families of different
   roles and whose own reading is not sure keeps both colours as alternatives, with a
   warning, instead of a guess.

After a set profile's classifier the stage runs too (`ink_roles_with_profile`): the profile's sure
colours stand, its weak ones are re-decided by their ink's role. Thresholds:
`VisionConfig.ink_*`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .classify import TileGuess
from .codes import COLOUR_LETTERS, CODES, JOKER_CODE, NUMBERS
from .config import VisionConfig
from .geometry import bright_levels

_JOKER = CODES.index(JOKER_CODE)
_COLOURS = len(COLOUR_LETTERS)


@dataclass(frozen=True)
class InkFamily:
    role: str  # K, B, O or R
    lab: tuple[float, float, float]  # the family's ink (CIE Lab, L 0-100)
    tiles: tuple[int, ...]  # indices into the guesses


@dataclass(frozen=True)
class InkRoles:
    guesses: tuple[TileGuess, ...]  # the same tiles, colours re-decided where the roles say so
    families: tuple[InkFamily, ...]  # empty when too few tiles were measured to group
    inks: np.ndarray  # N x 3 Lab ink of each tile (NaN: not measured, e.g. a joker)
    changed: tuple[int, ...]  # tiles whose colour was re-decided
    unsure: tuple[int, ...]  # tiles whose colour stays ambiguous (alternatives and a warning)


def decide_colours(guesses, config: VisionConfig) -> InkRoles:
    """Re-decide the colours of one photo's tiles by the role of their ink among its inks."""
    guesses = tuple(guesses)
    n = len(guesses)
    inks = np.full((n, 3), np.nan, np.float32)
    if n == 0 or not config.ink_roles:
        return InkRoles(guesses, (), inks, (), ())
    probs = np.stack([g.code_probabilities for g in guesses])
    colour = probs[:, :_JOKER].reshape(n, _COLOURS, len(NUMBERS)).sum(axis=2)
    numbered = probs[:, _JOKER] < 0.5
    crops = [g.crop for g in guesses]
    measurable = [i for i in range(n) if numbered[i] and crops[i] is not None]
    if measurable:
        brights = [guesses[i].bright for i in measurable]
        known = None if any(b is None for b in brights) else np.stack(brights)
        inks[measurable] = _ink_lab(np.stack([crops[i] for i in measurable]), config, known)
    use = [i for i in measurable if np.isfinite(inks[i]).all()]
    if len(use) < config.ink_min_tiles:
        return InkRoles(guesses, (), inks, (), ())
    votes = colour[use] / np.maximum(colour[use].sum(axis=1, keepdims=True), 1e-9)
    feats = _features(inks[use], config)
    labels, centres, stray = _kmeans(feats, votes, config)
    roles, overruled = _roles(inks[use], labels, votes, config)
    # each tile's belief in each role from its ink: soft membership of the families
    d2 = ((feats[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    # the scale of membership: how far the photo's inks scatter around their families
    spread = max(config.ink_spread, float(np.sqrt(d2[np.arange(len(use)), labels].mean() / 3)))
    member = np.exp(-(d2 - d2.min(axis=1, keepdims=True)) / (2 * spread ** 2))
    member /= member.sum(axis=1, keepdims=True)
    ink_role = np.zeros((len(use), _COLOURS))
    for k, r in enumerate(roles):
        ink_role[:, COLOUR_LETTERS.index(r)] += member[:, k]
    sizes = np.bincount(labels, minlength=len(roles))
    least = min(float(np.hypot(*inks[use][labels == k, 1:].mean(axis=0))) for k in range(len(roles)) if sizes[k])
    out = list(guesses)
    changed, unsure = [], []
    for row, i in enumerate(use):
        if sizes[labels[row]] < config.ink_min_family:
            continue  # a family of one or two tiles would only confirm its own readings
        own = votes[row]
        mine = int(np.argmax(own))
        role = int(np.argmax(ink_role[row]))
        strong = own[mine] >= config.ink_weak_colour
        if role == mine and strong:
            continue
        sure = ink_role[row, role] >= config.ink_sure_member
        if stray[row]:  # an ink like no family's: at most unsure, never re-decided
            if not strong and role != mine:
                out[i] = _recoloured(guesses[i], 0.5 * (own + ink_role[row]))
                unsure.append(i)
            continue
        forbidden = own[mine] < config.ink_tile_overrule and _forbids(inks[i], mine, least, config)
        if strong and not (sure and (overruled[labels[row]] or forbidden)):
            continue  # a sure reading yields only to an ink that rules it out
        if sure:
            q = np.full(_COLOURS, (1 - config.ink_role_probability) / (_COLOURS - 1))
            q[role] = config.ink_role_probability
            changed.append(i)
        elif role != mine:
            q = 0.5 * (own + ink_role[row])  # both colours stay, as the code and its alternative
            unsure.append(i)
        else:
            continue
        out[i] = _recoloured(guesses[i], q)
    families = tuple(InkFamily(roles[k], tuple(float(v) for v in inks[use][labels == k].mean(axis=0)),
                               tuple(use[j] for j in np.nonzero(labels == k)[0]))
                     for k in range(len(roles)) if (labels == k).any())
    return InkRoles(tuple(out), families, inks, tuple(changed), tuple(unsure))


def _ink_lab(crops: np.ndarray, config: VisionConfig, bright: np.ndarray | None = None) -> np.ndarray:
    """The ink of each rectified crop (N x H x W x 3 uint8) as CIE Lab, white-balanced on the
    face (`bright`: the crops' bright levels when known); NaN where too few pixels are inked to tell."""
    h, w = crops.shape[1:3]
    m = config.ink_margin
    # white_balance's figures, capped at white, for the pixels inside the margin only
    x = crops[:, int(h * m): int(h * (1 - m)), int(w * m): int(w * (1 - m))].astype(np.float32)
    x /= np.maximum(bright_levels(crops) if bright is None else bright, 8.0)[:, None, None, :]
    np.clip(x, 0.0, 1.0, out=x)
    x = x.reshape(len(x), -1, 3)
    # a yellow ink is dark in blue only: the darkest channel counts (taken pairwise: numpy's min over
    # an axis of three is ten times slower, with the same figures)
    inkness = 1.0 - np.minimum(np.minimum(x[:, :, 0], x[:, :, 1]), x[:, :, 2])
    peak = np.percentile(inkness, 99, axis=1)
    chosen = inkness >= np.maximum(config.ink_min_inkness, config.ink_peak_share * peak)[:, None]
    count = chosen.sum(axis=1)
    # the median of each crop's chosen pixels, all crops at once: the others sort to the end
    ranked = np.sort(np.where(chosen[..., None], x, np.inf), axis=1)
    rows = np.arange(len(x))
    low, high = np.maximum(count - 1, 0) // 2, count // 2
    bgr = ((ranked[rows, low] + ranked[rows, np.minimum(high, ranked.shape[1] - 1)]) / 2).astype(np.float32)
    out = cv2.cvtColor(np.ascontiguousarray(np.nan_to_num(bgr, posinf=0.0)).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    out[count < config.ink_min_pixels] = np.nan
    return out


def _features(lab: np.ndarray, config: VisionConfig) -> np.ndarray:
    return np.column_stack([lab[:, 0] * config.ink_lightness_weight, lab[:, 1], lab[:, 2]]).astype(np.float64)


def _kmeans(x: np.ndarray, votes: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """k-means (up to four families) seeded by the classifier's colour votes (a colour two
    tiles are sure of), then by the inks farthest from every seed; families closer than
    ink_merge are one ink. Also returns which tiles were strays of a dissolved family."""
    weights = votes ** 2
    centres = [weights[:, r] @ x / weights[:, r].sum() for r in range(_COLOURS) if weights[:, r].sum() >= 1.5]
    voted = [True] * len(centres)
    if not centres:
        centres, voted = [x[0]], [False]
    while len(centres) < min(4, len(x)):
        d = np.min([((x - c) ** 2).sum(axis=1) for c in centres], axis=0)
        if d.max() < config.ink_merge ** 2:
            break
        centres.append(x[int(np.argmax(d))])
        voted.append(False)
    c, voted = np.array(centres), np.array(voted)
    for _ in range(20):
        labels = np.argmin(((x[:, None, :] - c[None]) ** 2).sum(axis=2), axis=1)
        keep = np.unique(labels)
        c, voted = c[keep], voted[keep]
        labels = np.searchsorted(keep, labels)
        new = np.array([x[labels == j].mean(axis=0) for j in range(len(c))])
        if np.allclose(new, c):
            break
        c = new
    while len(c) > 1:  # merge families whose inks are one ink
        d = np.sqrt(((c[:, None] - c[None]) ** 2).sum(axis=2)) + np.eye(len(c)) * 1e9
        a, b = sorted(np.unravel_index(np.argmin(d), d.shape))
        if d[a, b] >= config.ink_merge:
            break
        labels = np.where(labels == b, a, labels)
        labels = np.where(labels > b, labels - 1, labels)
        voted[a] |= voted[b]
        c, voted = np.delete(c, b, axis=0), np.delete(voted, b)
        c[a] = x[labels == a].mean(axis=0)
    # a family no colour vote started and that only a tile or two joined is no family: they
    # join the nearest one (where they may stay unsure)
    keep = voted | (np.bincount(labels, minlength=len(c)) >= config.ink_min_family)
    stray = ~keep[labels]
    c = c[keep]
    labels = np.argmin(((x[:, None, :] - c[None]) ** 2).sum(axis=2), axis=1)
    used = np.unique(labels)  # a family every tile left behind is none
    return np.searchsorted(used, labels), c[used], stray


def _roles(lab: np.ndarray, labels: np.ndarray, votes: np.ndarray, config: VisionConfig) -> tuple[list[str], list[bool]]:
    """The role of each family: its members' votes, corrected by what its ink can be; and
    whether the ink overruled the votes."""
    k = int(labels.max()) + 1
    means = np.array([lab[labels == j].mean(axis=0) for j in range(k)])
    chroma = np.hypot(means[:, 1], means[:, 2])
    hue = np.degrees(np.arctan2(means[:, 2], means[:, 1]))  # -180..180: red near 0-40, orange-yellow 50-100
    cool = (hue % 360 >= config.ink_cool_hue[0]) & (hue % 360 <= config.ink_cool_hue[1])
    vote = np.array([votes[labels == j].mean(axis=0) for j in range(k)])
    roles = [COLOUR_LETTERS[int(np.argmax(v))] for v in vote]
    least = float(chroma.min())
    for j in range(k):
        coloured = chroma[j] >= config.ink_colour_chroma
        if chroma[j] < config.ink_neutral_chroma:
            roles[j] = "K"  # a neutral ink is black (or dark grey), whatever it was read as
        elif roles[j] == "K" and coloured and chroma[j] - least >= config.ink_colour_chroma:
            roles[j] = "B" if cool[j] else _warmer(vote[j])  # far more coloured than the photo's greyest ink
        elif roles[j] == "B" and coloured and not cool[j]:
            roles[j] = _warmer(vote[j])
        elif roles[j] in ("O", "R") and coloured and cool[j]:
            roles[j] = "B"
    # two black families and no blue (or no red/orange): the more coloured one plays the missing role
    blacks = sorted((float(chroma[j]), j) for j in range(k) if roles[j] == "K")
    for c, j in blacks[1:]:
        if c - blacks[0][0] < config.ink_pair_chroma:
            continue
        role = "B" if cool[j] else _warmer(vote[j])
        if role not in roles:
            roles[j] = role
    # two red families and no orange (or two orange and no red): the yellower one is the orange
    for same, missing in (("R", "O"), ("O", "R")):
        pair = sorted((float(hue[j]), j) for j in range(k) if roles[j] == same and chroma[j] >= config.ink_colour_chroma)
        if len(pair) == 2 and missing not in roles and pair[1][0] - pair[0][0] >= config.ink_pair_hue:
            roles[pair[1][1] if missing == "O" else pair[0][1]] = missing
    # warm families side by side: the redder hue is R, the yellower O, when they differ enough
    warm = sorted((float(hue[j]), j) for j in range(k) if roles[j] in ("O", "R") and chroma[j] >= config.ink_colour_chroma)
    if len(warm) >= 2:
        gaps = [warm[i + 1][0] - warm[i][0] for i in range(len(warm) - 1)]
        cut = int(np.argmax(gaps))
        if gaps[cut] >= config.ink_warm_gap:
            for i, (_, j) in enumerate(warm):
                roles[j] = "R" if i <= cut else "O"
    return roles, [roles[j] != COLOUR_LETTERS[int(np.argmax(vote[j]))] for j in range(k)]


def _forbids(lab: np.ndarray, colour: int, least: float, config: VisionConfig) -> bool:
    """Whether one tile's own ink rules out the colour it was read as: a black far more
    coloured than the photo's greyest ink, a blue of warm hue, a red or orange of cool hue."""
    chroma = float(np.hypot(lab[1], lab[2]))
    if chroma < config.ink_tile_chroma:
        return False
    hue = float(np.degrees(np.arctan2(lab[2], lab[1]))) % 360
    cool = config.ink_cool_hue[0] <= hue <= config.ink_cool_hue[1]
    letter = COLOUR_LETTERS[colour]
    if letter == "K":
        return chroma - least >= config.ink_colour_chroma
    return cool != (letter == "B")


def _warmer(vote: np.ndarray) -> str:
    return "O" if vote[COLOUR_LETTERS.index("O")] >= vote[COLOUR_LETTERS.index("R")] else "R"


def _recoloured(guess: TileGuess, colour: np.ndarray) -> TileGuess:
    """The guess with its colour replaced by `colour` (K, B, O, R) and its number (and
    orientation, and joker share) kept."""
    co = guess.code_orientation
    joker = co[_JOKER].copy()
    numbered = co[:_JOKER].reshape(_COLOURS, len(NUMBERS), 2)
    number = numbered.sum(axis=0)  # 13 x 2: P(number, orientation)
    new = (colour[:, None, None] / max(colour.sum(), 1e-9)) * number[None]
    out = np.concatenate([new.reshape(_JOKER, 2), joker[None]], axis=0)
    return replace(guess, code_orientation=out.astype(co.dtype))
