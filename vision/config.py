"""Every threshold and size of the reading pipeline, in one place."""
from __future__ import annotations

from dataclasses import dataclass

# Crop geometry shared by training and inference: a tile face rectified upright.
CROP_WIDTH = 40
CROP_HEIGHT = 56
# The detector's second output is the face shrunk by this factor around its centre, so
# touching tiles in a meld give separate blobs; a blob is grown back by its inverse.
CORE_SHRINK = 0.5
DETECT_STRIDE = 16  # the detector input is padded to a multiple of this
# The occluder net sees the frame small: a hand is large, and settling runs on every frame.
OCCLUDER_LONG_SIDE = 192
OCCLUDER_STRIDE = 8  # its input is padded to a multiple of this; its output is 1/4 of its input
# The largest image read: 8K UHD (7680 x 4320, 33.2 megapixels). A larger one is refused from its
# header, before it is decoded (a 20000 x 20000 photo took 2.4 GB; a PNG header may claim 65535 x 65535).
MAX_IMAGE_PIXELS = 7680 * 4320
MAX_IMAGE_SIDE = 16384  # pixels, either side (a 40000 x 800 strip is not a table photo either)


@dataclass(frozen=True)
class VisionConfig:
    # A dim frame is brightened, a clipped one darkened, before it is read (vision/exposure.py;
    # lab/decisions/exposure.txt, exposure_clipped.txt).
    exposure_target: float = 225.0  # grey level a frame's bright level is raised to when below it (0: read as it comes)
    exposure_quantile: float = 99.5  # percent of the frame's pixels at or below its bright level (the brightest faces)
    exposure_max_gain: float = 2.0  # a frame is brightened by at most this factor
    exposure_clipped: float = 255.0  # a bright level this high is clipped at white: brought to the target (0: never)
    detect_long_side: int = 640  # the frame is resized so its long side is this before detection
    # a frame this long or longer (0: none) is first looked at with its long side detect_large_look: at
    # detect_long_side a 4K frame's tiles are too small to read, and that look only chose this one
    detect_large_frame: int = 2560
    detect_large_look: int = 1280
    # The first look misses some of the smallest tiles, so its median runs high: 26, not
    # the 22 the detector reads well, still sends a full 1080p table to the second look.
    detect_min_tile_width: float = 26.0  # detector pixels; a median tile narrower than this ...
    detect_max_tile_width: float = 80.0  # ... or wider than this makes the detector look again
    detect_tile_width: float = 40.0  # at the size that brings the median tile to this width
    detect_min_long_side: int = 320  # bounds of that second look (time and memory)
    detect_max_long_side: int = 1600
    # A second look within this share of a whole fraction of the frame (a half, a third...) is taken there:
    # shrinking by a whole factor is a plain box average, a third of the time of any other factor on a 4K frame,
    # and the tiles still come out near detect_tile_width (0: the look as computed)
    detect_whole_fraction: float = 0.1
    min_face_share: float = 0.2  # a face under this share of the area-weighted median face's area is a speck, not a tile
    core_threshold: float = 0.6  # probability above which a pixel is in a tile's core (tuned on training photos)
    core_peak_threshold: float = 0.9  # a core's middle; two of these in one core blob are two tiles run together
    # A core blob is grown by this to give the face. 1/CORE_SHRINK would be exact for a
    # perfect net; the trained net's cores come out about 20% larger (median over the
    # training photos), so the factor is calibrated there (never on held-out photos).
    core_grow: float = 1.67
    face_threshold: float = 0.5  # probability above which a pixel is on a tile face
    face_grow: float = 1.0  # same calibration for the outline of a lone tile's face blob
    min_core_pixels: int = 4  # smaller blobs (at detector resolution) are noise
    core_fragment_ratio: float = 0.25  # a core blob under this share of the largest core on its face blob is a crumb
    min_tile_side: float = 6.0  # detector-resolution pixels; narrower quads are dropped
    max_tile_aspect: float = 1.7  # long/short side of a core blob; one tile's is ~1.35, two side by side ~2
    tile_aspect: float = 0.74  # face width / height
    merged_area_ratio: float = 1.6  # a core blob this many times the frame's typical core is several tiles
    min_split_spacing: float = 0.6  # cutting a blob into tiles whose centres lie closer than this many faces apart is refused
    unsure_angle_aspect: float = 1.15  # a face squarer than this (a tile's is ~1.35) has an unsure angle ...
    angle_tries: int = 12  # ... so the classifier also reads it turned in 180/angle_tries-degree steps and keeps the surest,
    # unless it has sure neighbours (centres within this many of its face heights): then it lies
    # as they do, and only which side is the long one is in doubt
    unsure_angle_reach: float = 1.1
    # a face of unsure angle left so is read at its fitted angle and a quarter turn from it; its other turns
    # only when the surer of those two reads less sure than this (1.0: every turn at once)
    unsure_turns_read_below: float = 0.9
    unsure_angle_agreement: float = 30.0  # degrees; a face fitted further from its neighbours' angle keeps its turns
    # A face still unsure lies along the line of its nearest neighbours (vision.detect.lie_along_sets):
    set_lines: bool = True
    set_line_spacing: float = 1.3  # its nearest neighbours: within this many times the nearest one's distance
    set_line_agreement: float = 15.0  # degrees; they lie on one line through the face
    set_line_fit: float = 20.0  # degrees; the line agrees with the face's own sides, modulo a quarter turn
    perspective: bool = True  # faces as parallelograms that follow the table's perspective (vision/perspective.py)
    perspective_set_reach: float = 1.6  # set neighbours: centres within this many face widths along the face ...
    perspective_rounds: int = 4  # rounds of fitting the height axes' vanishing point, each keeping the faces ...
    perspective_agreement: float = 8.0  # ... whose own height axis lies within this many degrees of it
    perspective_min_faces: int = 5  # fewer agreeing faces: no vanishing point, every face keeps its own axis
    perspective_min_share: float = 0.5  # ... and so when fewer than this share of the faces agree (tiles strewn at every angle)
    perspective_turn_min: float = 8.0  # degrees; a set line that turns a face's width axis by more: its rectangle or the line is off ...
    perspective_off_line_both: bool = True  # ... so it is read both ways, sheared and turned whole; the surer reading keeps its cut
    perspective_second_read_below: float = 0.9  # ... the whole drawing read only when the sheared one reads less sure than this (1.0: always)
    min_tile_confidence: float = 0.5  # below this a candidate that the classifier calls "no tile" is dropped
    set_faces_kept: bool = True  # ... unless it lies in a set beside two sure tiles (vision.pipeline._keep_faces_in_sets)
    alternatives: int = 3  # runner-up codes reported per tile
    # A camera's frame in a play area is read again only where it changed since its last whole read
    # (vision/changes.py): its faces elsewhere keep their readings.
    read_changed_only: bool = True
    changed_block: float = 0.25  # frames are compared in blocks this share of a tile's width on a side ...
    changed_level: float = 12.0  # ... a block whose mean differs by more than this (grey levels, any channel) changed
    changed_most: float = 0.5  # rectangles to read again that cover more of the play area's box than this: read whole
    changed_whole_every: int = 30  # ... and so is every this-many-th frame in a row
    meld_gap: float = 0.35  # max edge-to-edge gap between neighbours in a set, in tile widths (sets lie further apart)
    meld_row_tolerance: float = 0.35  # max sideways offset between neighbours, in tile heights
    meld_angle_tolerance_deg: float = 20.0  # max angle between neighbours in one set
    low_confidence: float = 0.6  # tiles below this are named in a warning
    copy_limit: bool = True  # no code read more often than a full set holds it (vision/copies.py); False: as read, with a warning
    # Colour as a role among one photo's inks (vision/inks.py; with a set profile, its sure colours stand).
    # Lab: L 0-100, a/b about -128..127; chosen on the validation and train photos and on rendered
    # tables of the seen designs (docs/vision.md, "Colour as a role"), never on test or the held-out design.
    ink_roles: bool = True  # run the stage
    ink_roles_with_profile: bool = True  # also after a set profile's classifier: its colours stand unless weak (docs/vision.md)
    ink_margin: float = 0.12  # share of the crop's width/height left out at each edge
    ink_min_inkness: float = 0.3  # 1 - darkest white-balanced channel of a pixel counted as ink ...
    ink_peak_share: float = 0.6  # ... and at least this share of the crop's inkiest (99th percentile)
    ink_min_pixels: int = 6  # fewer ink pixels: the tile's ink is not measured
    ink_min_tiles: int = 6  # fewer measured tiles in the photo: no families, colours as read
    ink_lightness_weight: float = 1.0  # L counts this much against a and b (stroke width moves L)
    ink_min_family: int = 3  # a family of fewer tiles re-decides none of them (and one no colour vote seeded is dissolved)
    ink_merge: float = 12.0  # families whose inks lie closer than this are one ink
    ink_spread: float = 6.0  # least Lab distance scale of a tile's membership of a family (else the photo's own scatter)
    ink_neutral_chroma: float = 8.0  # a family's ink under this chroma can only be black
    ink_colour_chroma: float = 18.0  # a family this much more coloured than the greyest one (and this coloured) is not black
    ink_pair_chroma: float = 8.0  # of two black families with no blue one, one this much more coloured is the blue (or the missing warm)
    ink_tile_chroma: float = 30.0  # one tile's ink this coloured rules out black (or the other side of warm/cool) even for a sure reading ...
    ink_tile_overrule: float = 0.99  # ... but not for one surer than this (it yields only to a family's role)
    ink_cool_hue: tuple[float, float] = (150.0, 330.0)  # Lab hue (degrees) of blue-to-teal inks
    ink_pair_hue: float = 10.0  # of two red families with no orange one, one this much yellower is the orange (and the other way round)
    ink_warm_gap: float = 25.0  # warm families this far apart in hue are red (lower) and orange (higher)
    ink_weak_colour: float = 0.9  # a tile's colour share under this is weak: its family's role may decide
    ink_sure_member: float = 0.9  # membership of a role's families needed to re-decide a tile
    ink_role_probability: float = 0.97  # colour share given to a re-decided tile's role
    # The play area (vision/area.py): only tiles inside it are read. Chosen on the validation photos
    # with a box, a lid, a rack and floor composited beside the table (benchmarks/bench_area.py).
    play_area: bool = True  # find the area from the frame when none is given (False: the whole frame)
    play_area_colour_distance: float = 4.0  # distance from the table's colour, in the table's own spread, within which the surface goes on
    play_area_max_spread: float = 20.0  # Lab units: a middle spread wider than this holds two surfaces ...
    # ... the middle's share of the frame's sides, narrowed in turn on a frame with no tile ...
    play_area_middles: tuple[float, ...] = (0.5, 0.25, 0.125)
    play_area_bridge: float = 1.0  # tile widths: the surface is opened by this, so that thinner bridges to other surfaces break
    play_area_least_spread: float = 3.0  # Lab units: the least spread of the table's colour (a plain top is not that plain under light)
    play_area_whole_frame: float = 0.7  # a surface whose hull covers this share of the frame is the whole frame
    play_area_inside_share: float = 0.8  # a face this much inside the area is read ...
    play_area_outside_share: float = 0.2  # ... one this little inside is not; between, it lies across the edge
    # ... and a face reaching over a marked area's edge (less than this share of it inside) ...
    play_area_crossing_share: float = 0.98
    # ... under this share of the inside faces' median area is the part of a tile the edge cuts that shows: named
    # across, never read
    play_area_cut_share: float = 0.5
    # A sure face outside an area found on the frame is read when it lies on the table's own surface: this share
    # of the ring around it is table-coloured and joined to the table, and it lies within this many tile widths
    # of the area or in a set with a face inside it (vision/area.py split_on_table)
    play_area_surface_share: float = 0.5
    play_area_set_surface_share: float = 0.25  # ... the share needed by a face in a set with faces inside the area
    play_area_reach: float = 1.0
    # ... and it is within this ratio of the area of the tiles inside the area; a face the classifier doubts is
    # painted out of the table's surface when no larger than this ratio of the median face (pipeline._doubted_faces)
    play_area_size_ratio: float = 1.5
    play_area_shade: float = 2.0  # the table's lightness spread is widened this much for the surface a face lies on
    threads: int = 2  # onnxruntime intra-op threads
    # the shipped classifier is read through its eight-bit copy (vision/models.py eight_bit;
    # lab/decisions/int8.txt) unless a set profile is given: False reads the float net itself
    eight_bit: bool = True
    # Something over the table (hand, arm, sleeve, phone, cup): models/occluder.onnx marks it per
    # cell of a 1/4-resolution grid; thresholds chosen on the validation photos (models/README.md).
    occluder_threshold: float = 0.3  # probability (the mean over the averaged nets) above which a cell is covered
    occluder_min_share: float = 0.003  # share of the frame a covered blob needs to count
    occluder_change_level: int = 24  # with a reference: a cell whose colour moved less than this is unchanged
    occluder_edge_margin: float = 0.08  # a region this close to a frame edge (share of the frame) reaches in from it


DEFAULT_CONFIG = VisionConfig()


@dataclass(frozen=True)
class CalibrationConfig:
    """How `vision.calibrate` fits a set profile; chosen on rendered tables of the training
    designs (models/README.md), never on the held-out design."""

    row_gap: float = 0.5  # tile heights off a row's line that start a new row of the layout
    # a calibration photo shows the set and nothing else: a face the detector found stays
    # unless the classifier is all but sure it is no tile (a joker it never saw may look like none)
    min_tile_confidence: float = 0.05
    missing_gap: float = 1.5  # a gap this many tile pitches wide in a row holds a missing tile
    out_of_place_margin: float = 0.05  # cosine a tile must sit nearer another code's tile than its own copy's
    out_of_place_confidence: float = 0.9  # ... and the shipped reading must be this sure of another code
    jitters: int = 12  # jittered re-crops per tile (position, size, angle, light, blur)
    jitter_shift: float = 0.05  # of the face width
    jitter_scale: float = 0.06
    jitter_angle_deg: float = 4.0
    jitter_corner: float = 0.04  # each corner on its own, of the face width
    background_crops: int = 3  # "not a tile" crops of bare table per tile
    steps: int = 300  # full-batch Adam steps on the residual last layer
    learning_rate: float = 0.03
    weight_decay: float = 0.0  # pulls the residual towards zero: the shipped reading stays the prior
    fit_bias: bool = False  # a bias learns the layout's class mix, not the set's look
    seed: int = 0


DEFAULT_CALIBRATION = CalibrationConfig()
