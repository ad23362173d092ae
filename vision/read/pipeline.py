"""One frame in, one Reading out: locate the top faces, classify them in one batch, decode.

`DiceReader` holds the classifier (loaded once) and the tray region; it never
knows where frames come from. A frame that is not an image, or a tray without
dice, gives an empty Reading rather than an error, because a camera loop must
keep going. A die found but not read is listed as unreadable (`is_unreadable_die`),
unless its numeral and ink are read for sure though the crop is doubted as a face: it
is then read, marked unsure (`legible_dice`); a box read as a face without certainty
must be shaped like a die's top (`vision.read.die_shape`), and a box whose body colour is
unlike the rest of the set's is no die (`vision.read.body_check`); a hand flag never empties
a reading. The dice of a soft (out-of-focus) frame are sharpened before the classifier
reads them (`vision.read.focus`).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from scorer.dice import FULL_ROLL
from scorer.dice_set import PRINTED_DICE, DiceSet
from vision.read.body_check import body_colours, never_odd, odd_bodies
from vision.read.decode import DecodedFace, by_face, decode, face_probabilities
from vision.read.die_shape import SizeByPlace, median_ratios
from vision.read.face_probe import FaceProbe
from vision.read.focus import is_soft, sharpened
from vision.read.frame_colours import FrameColours, crop_lightness
from vision.read.frame_inks import ink_chroma
from vision.read.ink_order import ink_order_evidence
from vision.read.labels import colour_index, value_index
from vision.read.settings import DecodeSettings, FlattenSettings, ReaderSettings, SortSettings
from vision.read.tops import Located, TopFinder
from vision.read.trust import PHOTO_CALIBRATION_FILE, Calibration, DieEvidence
from vision.read.vectors import side_lengths
from vision.reading import ReadDie, Reading, ReadingFlag, UnreadableDie


class FrameLocator(Protocol):
    """What finds the dice's top faces in a frame: a `TopFinder`, or one told where to look."""

    def locate(self, frame: np.ndarray, tray: np.ndarray | None = None) -> Located: ...


InkEvidence = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""(N, 3) ink chroma, (N, C) colour probabilities, (N,) body lightness (0..1) -> (N, C)
colour log-likelihood adjustments."""


class ProfileEvidence(Protocol):
    """What the reader asks of a household's dice profile (`vision.profile.profile.
    ProfileMatcher`): evidence for each die's face, and how much the frame's inks count
    beside it. A protocol, so reading imports no profile code."""

    @property
    def frame_ink_weight(self) -> float: ...

    def evidence(self, descriptors: np.ndarray, chroma: np.ndarray) -> np.ndarray: ...


if TYPE_CHECKING:
    from vision.read.classifier import FaceClassifier, FacePredictions

logger = logging.getLogger(__name__)

def is_unreadable_die(located: Located, index: int,
                      sort: SortSettings = SortSettings()) -> bool:
    """Whether box `index` of `located`, which the classifier rejected, is a real die that
    cannot be read (a pip die, a face under glare or blur) rather than a false detection:
    the locator is sure of a die-shaped top there (`SortSettings.unreadable`)."""
    return sort.unreadable.fits(located, index)


@dataclass(frozen=True)
class Candidates:
    """Every box of a frame with what the reader's stages made of it so far: the
    classifier's readout, then which boxes are dice to decode (`dice`, in box order) and
    which are dice that cannot be read (`unreadable`); the other boxes are not dice."""

    readout: Readout
    dice: np.ndarray  # indices into the readout's boxes
    unreadable: np.ndarray  # indices into the readout's boxes


@dataclass(frozen=True)
class ColourEvidence:
    """What speaks for each die's colour besides the classifier, in `Candidates.dice`
    order: the log-evidence the decoder adds (None where nothing speaks), and which dice
    the frame's ink order contradicted (`vision.read.ink_order`: their colour is in
    doubt whatever the decoder makes of it)."""

    log_evidence: np.ndarray | None  # (dice, 44), by face (`vision.read.decode.by_face`)
    contradicted: np.ndarray  # (dice,) bool


@dataclass(frozen=True)
class Readout:
    """What the classifier made of a frame's located boxes, before decoding: the crops
    and their probabilities (averaged over quarter turns), and the profile descriptors
    when the model gives them. Teaching a profile labels these crops. Each is cut from
    its box scaled by `ClassifySettings.box_scale`, or from the whole box where it was
    read again whole (`DiceReader._whole_boxes_kept`). When the frame is soft (`soft`,
    `vision.read.focus`), the classifier read the crops sharpened; the crops kept are as
    cut, for the inks and bodies measured from them."""

    located: Located
    crops: np.ndarray  # (N, CROP_SIZE, CROP_SIZE, 3) uint8, one per located box
    value_probs: np.ndarray  # (N, 11)
    colour_probs: np.ndarray  # (N, 4)
    face_prob: np.ndarray  # (N,)
    descriptors: np.ndarray | None  # (N, D) unit vectors, or None
    soft: bool = False  # the frame was soft: the classifier read its crops sharpened
    looked_value_probs: np.ndarray | None = None
    """(N, 11) value probabilities averaged over every look taken at each crop (three for
    a doubtful one, `TrustSettings.second_look_below`); None: no second looks."""
    tops: tuple[np.ndarray, ...] | None = None
    """Per box, where its die shows its top: the quad found inside a box searched for it
    (`DiceReader._tops_searched`; its crop is cut from there only with
    `TopSearchSettings.read_there`), else the box itself; None: every box as located."""

    def top(self, index: int) -> np.ndarray:
        """Where box `index`'s die shows its top: its quad in `tops`, else the box."""
        return self.located.boxes[index] if self.tops is None else self.tops[index]

    def faces(self, min_face_prob: float = SortSettings().min_face_prob) -> np.ndarray:
        """Indices of the boxes the classifier reads as die faces."""
        return np.flatnonzero(self.face_prob >= min_face_prob)

    def face_probs(self, index: np.ndarray) -> np.ndarray:
        """(len(index), 44) joint face probabilities of those boxes."""
        return face_probabilities(self.value_probs[index], self.colour_probs[index])

    def sure_faces(self, sort: SortSettings = SortSettings()) -> tuple[np.ndarray, np.ndarray]:
        """The boxes read as faces (`faces`), and whether each is read as one face at
        least `sort.sure_face` surely: such a face is always kept as a die (`set_dice`)."""
        faces = self.faces(sort.min_face_prob)
        return faces, self.face_probs(faces).max(axis=1) >= sort.sure_face


def is_frame(frame: object) -> bool:
    """A non-empty (H, W, 3) uint8 image, the only thing the pipeline reads."""
    return (
        isinstance(frame, np.ndarray)
        and frame.dtype == np.uint8
        and frame.ndim == 3
        and frame.shape[2] == 3
        and frame.shape[0] >= 8
        and frame.shape[1] >= 8
    )


class DiceReader:
    """Reads the dice of a frame: `read(frame) -> Reading`."""

    def __init__(
        self,
        classifier: FaceClassifier | None = None,
        tray: Sequence[Sequence[float]] | np.ndarray | None = None,
        threads: int = 1,
        *,
        settings: ReaderSettings = ReaderSettings(),
        finder: FrameLocator | None = None,
        profile: ProfileEvidence | None = None,
        calibration: Calibration | None | bool = True,
        dice_set: DiceSet = PRINTED_DICE,
        second_look_below: float | None | bool = True,
        face_probe: FaceProbe | None | bool = True,
        photo_calibration: Calibration | None | bool = True,
    ) -> None:
        """`tray`: a polygon of (x, y) pixel points; dice outside it are ignored.
        `settings`: every stage's thresholds (`vision.read.settings`; the shipped ones by
        default). `profile`: the user's own dice (`vision.profile.profile`), which weighs each
        read face; None reads with the network alone. `calibration`: how the dice's
        probabilities are calibrated and which to mark (`vision.read.trust`); True loads the
        one fitted for the classifier (`models/calibration.json`), None or False marks
        each die by its posterior alone. `dice_set`: the dice the table plays with,
        which the decoding matches a reading to (the household's own layout).
        `second_look_below`: read a crop again at two other quarter turns when its most
        likely value is believed less than this (`vision.read.trust.TrustSettings`); True
        takes the calibration's (which was fitted with it), None or False never.
        `face_probe`: what tells a Phase 10 face from another numeral die's
        (`vision.read.face_probe`); a die it doubts is marked whatever the roll. True loads
        the one fitted on the classifier (`models/face_probe.json`), None or False never
        doubts a die for its kind. `photo_calibration`: the calibration a photo's reading
        is marked by (`vision.read.photo`); True loads one fitted on photos
        (`models/photo_calibration.json`, none shipped: measured in models/MODEL_CARD.md,
        "The photos' own calibration") beside the shipped `calibration`, else takes
        `calibration` itself."""
        self.settings = settings
        if classifier is None:
            from vision.read.classifier import FaceClassifier

            classifier = FaceClassifier.load(threads=threads)
        self.classifier = classifier
        self.finder: FrameLocator = (
            finder if finder is not None
            else TopFinder.load(threads=threads, settings=settings.locate)
        )
        self.tray = None if tray is None else np.asarray(tray, dtype=np.float32).reshape(-1, 2)
        self.profile = profile
        #: Colour evidence from the frame's other dice (`vision.read.frame_colours`); None: off.
        #: Its networks are a few hundred weights each: one thread, whatever `threads` says.
        self.ink_evidence: InkEvidence | None = (
            FrameColours.load(inks=settings.colour.frame) if settings.colour.frame_inks
            else None)
        sha256 = getattr(classifier, "sha256", None) or None  # what the fits were for
        shipped = calibration is True
        if calibration is True:
            calibration = Calibration.load(classifier_sha256=sha256)
        self.calibration: Calibration | None = calibration or None
        if photo_calibration is True:
            photo_calibration = (
                Calibration.load(PHOTO_CALIBRATION_FILE, sha256)
                if shipped and self.calibration is not None
                and PHOTO_CALIBRATION_FILE.is_file() else None
            ) or self.calibration
        self.photo_calibration: Calibration | None = photo_calibration or None
        self.dice_set = dice_set
        if second_look_below is True:
            second_look_below = (None if self.calibration is None
                                 else self.calibration.settings.second_look_below)
        self.second_look_below: float | None = (
            None if second_look_below is False or second_look_below is None
            else float(second_look_below))
        if face_probe is True:
            face_probe = FaceProbe.load(classifier_sha256=sha256)
        self.face_probe: FaceProbe | None = face_probe or None

    @property
    def turns(self) -> int:
        """Quarter turns of each crop the classifier reads (`ClassifySettings.turns`)."""
        return self.settings.classify.turns

    def sharing(
        self, *, tray: np.ndarray | None = None, finder: FrameLocator | None = None
    ) -> DiceReader:
        """A reader with this one's networks, settings and profile that reads inside
        `tray` (pixel points; None: the whole frame) through `finder` (None: this
        reader's): for a tray chosen per frame, or a locator told where to look."""
        reader = copy.copy(self)
        reader.tray = None if tray is None else np.asarray(tray, np.float32).reshape(-1, 2)
        if finder is not None:
            reader.finder = finder
        return reader

    def locate(self, frame: np.ndarray) -> Located:
        return self.finder.locate(frame, self.tray)

    def crop(self, frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """The crop the classifier reads for the box `corners` (4, 2) of `frame`: the box
        scaled by `ClassifySettings.box_scale`, cut by `crop_face`."""
        from vision.read.crops import crop_face, scaled_box

        return crop_face(frame, scaled_box(corners, self.settings.classify.box_scale))

    def readout(self, frame: np.ndarray, located: Located | None = None) -> Readout:
        """Locate the dice of a BGR uint8 frame (unless `located` says where they lie) and
        classify every located box."""
        from vision.read.crops import CROP_SIZE

        located = self.locate(frame) if located is None else located
        if not located.boxes:
            empty = np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
            none = np.zeros((0,), np.float64)
            return Readout(located, empty, none.reshape(0, 11), none.reshape(0, 4), none, None)
        crops = np.stack([self.crop(frame, corners) for corners in located.boxes])
        focus = self.settings.classify.focus
        soft = is_soft(crops, focus)
        seen = sharpened(crops, focus) if soft else crops
        read = self.classifier.predict_turns(seen, self.turns)
        readout = self._whole_boxes_kept(frame, Readout(
            located, crops, read.value_probs, read.colour_probs, read.face_prob, read.embeddings,
            soft))
        readout = self._tops_searched(frame, readout)
        return replace(readout, looked_value_probs=self._second_looks(readout))

    def _whole_boxes_kept(self, frame: np.ndarray, readout: Readout) -> Readout:
        """`readout` with each box its scaled crops would leave out of the reading (read
        neither as a die nor as an unreadable one, `read_dice`) cut and read again from
        the whole box. A box set off its die's top (a side face and part of the top) may
        hold the numeral only at its edge, which the scaled crop cuts off; read whole, as
        before boxes were scaled, the die is not lost."""
        if self.settings.classify.box_scale == 1.0 or not self.settings.classify.whole_box_kept:
            return readout
        sort = self.settings.sort
        _, sure = readout.sure_faces(sort)
        if sure.size == len(readout.located.boxes) and sure.all():
            return readout  # a face read for sure is always kept: nothing to look at again
        keep, unread = read_dice(readout, sort)
        left_out = np.setdiff1d(np.arange(len(readout.located.boxes)),
                                np.concatenate([keep, unread]))
        if not left_out.size:
            return readout
        from vision.read.crops import crop_face

        whole = np.stack([crop_face(frame, readout.located.boxes[int(i)]) for i in left_out])
        seen = sharpened(whole, self.settings.classify.focus) if readout.soft else whole
        again = self.classifier.predict_turns(seen, self.turns)
        return _rows_replaced(readout, left_out, whole, again)

    def _tops_searched(self, frame: np.ndarray, readout: Readout) -> Readout:
        """`readout` with each die read whose box is larger than the dice have where it lies
        (a die seen at a slant boxed with its sides, `vision.read.top_search`) placed at the
        closer quad inside it that the classifier reads most surely as one face, where that
        beats the box as found (`Readout.tops`): the die is then placed and drawn at its
        top, and judged by the box as found (`ReadDie.found_corners`). It is read from the
        box as found too, unless `TopSearchSettings.read_there`."""
        from vision.read import top_search

        search = self.settings.classify.top_search
        if search.above is None or len(readout.located.boxes) < 2:
            return readout
        boxes = [np.asarray(box, np.float64) for box in readout.located.boxes]
        by_place = self.settings.sort.doubtful_face.by_place
        ratios = median_ratios(boxes) if by_place is None else by_place.ratios(boxes)
        keep, _ = read_dice(readout, self.settings.sort)
        read = np.zeros(len(boxes), bool)
        read[keep] = True  # only a die read is moved: a box not read as one stays as it is
        chosen = top_search.searched(np.where(read, ratios, 0.0), search)
        if not chosen.size:
            return readout
        quads = [top_search.candidate_quads(boxes[int(i)], search) for i in chosen]
        crops = np.stack([self.crop(frame, quad) for tried in quads for quad in tried])
        seen = sharpened(crops, self.settings.classify.focus) if readout.soft else crops
        again = self.classifier.predict_turns(seen, self.turns)
        scores = top_search.face_scores(again.value_probs, again.colour_probs, again.face_prob)
        per_box = len(quads[0])
        by_box = scores.reshape(len(chosen), per_box)
        best = by_box.argmax(axis=1)
        # candidate 0 is the box as found: another must read more surely by the gain
        moved = np.flatnonzero(by_box.max(axis=1) > by_box[:, 0] + search.gain)
        if not moved.size:
            return readout
        tops = list(readout.located.boxes)
        for k in moved:
            tops[int(chosen[k])] = quads[k][best[k]]
        found = replace(readout, tops=tuple(tops))
        if not search.read_there:
            return found
        picks = moved * per_box + best[moved]  # the quads kept, in the batch read
        return _rows_replaced(found, chosen[moved], crops[picks], _picked(again, picks))

    def _second_looks(self, readout: Readout) -> np.ndarray | None:
        """The readout's value probabilities averaged over the first look and, for each crop
        whose most likely value is doubtful (`second_look_below`), two more at the quarter
        turns not yet seen. A numeral of an unseen font read wrong for sure one way up is seldom
        read the same the other ways up, so the looks' disagreement tells such dice apart
        (MODEL_CARD.md); one extra batch, for the doubtful crops only."""
        classify = self.settings.classify
        if self.second_look_below is None or self.turns != 1:
            return None
        turns = classify.second_look_turns
        looked = np.asarray(readout.value_probs, np.float64).copy()
        doubtful = np.flatnonzero(looked.max(axis=1) < self.second_look_below)
        if doubtful.size:
            crops = readout.crops[doubtful]
            crops = sharpened(crops, classify.focus) if readout.soft else crops
            turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])
            more = self.classifier.predict(np.ascontiguousarray(turned)).value_probs
            more = np.asarray(more, np.float64).reshape(len(turns), doubtful.size, -1)
            looked[doubtful] = (looked[doubtful] + more.sum(axis=0)) / (1 + len(turns))
        return looked

    def read(self, frame: np.ndarray) -> Reading:
        """The dice in this frame, decoded jointly against the inventory: the stages
        locate and classify (`readout`), sort out (`sort_out`), weigh colours
        (`colour_evidence`), decode (`vision.read.decode`), then calibrate and mark
        (`_trusted`). With `ReaderSettings.flatten` on (off as shipped), a frame whose dice
        show a steep camera is read put back flat (`vision.read.flatten`), the reading
        placed back in the frame's pixels."""
        if not is_frame(frame):
            shape = getattr(frame, "shape", None)
            logger.debug("not a BGR uint8 frame (shape %s): empty reading", shape)
            return Reading.empty((0, 0), ReadingFlag.BAD_FRAME)
        size = (int(frame.shape[1]), int(frame.shape[0]))
        located = None
        if self.settings.flatten.above_degrees is not None:  # off as shipped
            from vision.read.flatten import flattening

            located = self.locate(frame)
            flat = flattening(located.boxes, size, self.settings.flatten)
            if flat is not None:
                return self._read_flat(frame, size, flat)
        readout = self.readout(frame) if located is None else self.readout(frame, located)
        return self._looked_again(frame, self._read(frame, size, readout))

    def _read_flat(self, frame: np.ndarray, size: tuple[int, int], flat: np.ndarray
                   ) -> Reading:
        """The frame (`size` pixels) read warped by the homography `flat`
        (`vision.read.flatten`), its tray taken along, and the reading placed back in the
        frame's pixels."""
        from vision.read.flatten import flattened, mapper

        onto = mapper(flat)
        tray = (None if self.tray is None
                else np.array([onto((float(x), float(y))) for x, y in self.tray]))
        inside = self.sharing(tray=tray)  # read once flat, never flattened again
        inside.settings = replace(self.settings, flatten=FlattenSettings())
        back = mapper(np.linalg.inv(flat))
        return inside.read(flattened(frame, flat)).mapped(back, size)

    def _looked_again(self, frame: np.ndarray, reading: Reading) -> Reading:
        """`reading`, or the frame read once more with the locator looking at the dice's
        own size (`vision.read.looks`) where that reads better: only for a frame whose
        first reading is not a whole roll read sure (`ReaderSettings.second_look`)."""
        look = self.settings.second_look
        if not look.frames or reading.is_complete():
            return reading
        from vision.read.die_measure import die_side
        from vision.read.looks import better_reading, reader_at_die_size

        pinned = reader_at_die_size(self, int(frame.shape[1]), die_side(reading), False, look)
        if pinned is None:
            return reading
        again = pinned.read(frame)
        return again if better_reading(again, reading, look.keeps) else reading

    def _read(self, frame: np.ndarray, size: tuple[int, int], readout: Readout) -> Reading:
        """The stages after locating and classifying, as `read` describes them."""
        hand = (ReadingFlag.HAND,) if readout.located.hand else ()
        if not readout.located.boxes:
            return Reading.empty(size, *hand)
        candidates = self.sort_out(readout)
        unreadable = _unreadable_dice(candidates)
        flags = list(hand)
        if readout.soft:
            flags.append(ReadingFlag.SOFT_FOCUS)
        if unreadable:
            flags.append(ReadingFlag.UNREADABLE)
        if candidates.dice.size + len(unreadable) > FULL_ROLL:
            flags.append(ReadingFlag.TOO_MANY)
        if candidates.dice.size == 0:
            return Reading((), size, tuple(flags), unreadable)
        keep = candidates.dice
        colours = self.colour_evidence(candidates)
        decoding = decode(
            readout.value_probs[keep],
            readout.colour_probs[keep],
            settings=self.settings.decode,
            use_inventory=self.settings.use_inventory,
            evidence=colours.log_evidence,
            dice_set=self.dice_set,
        )
        faces = contradicted_faces(decoding.faces, colours.contradicted,
                                   self.settings.colour.order.contradicted_confidence)
        dice = _read_dice(candidates, faces, self.settings.sort,
                          self._phase10_odds(readout, keep))
        flags += [flag for flag in decoding.flags if flag not in flags]
        dice, roll_probability, value_probability = self._trusted(dice, bool(flags))
        return Reading(tuple(dice), size, tuple(flags), unreadable, roll_probability,
                       value_probability)

    def _phase10_odds(self, readout: Readout, index: np.ndarray) -> np.ndarray | None:
        """The face probe's odds of boxes `index` (None without a probe or descriptors)."""
        probe = self.face_probe
        if probe is None or readout.descriptors is None:
            return None
        return probe.odds(readout.descriptors[index])

    def sort_out(self, readout: Readout) -> Candidates:
        """Which of the readout's boxes are dice to decode, which are dice that cannot be
        read, and which are no dice (`read_dice`)."""
        dice, unreadable = read_dice(readout, self.settings.sort)
        return Candidates(readout, dice, unreadable)

    def colour_evidence(self, candidates: Candidates) -> ColourEvidence:
        """Evidence for each die's face besides the classifier's, and the dice whose colour
        the frame's ink order contradicted. The one place the colour evidences are summed:

        - the household's profile, when taught (`ProfileEvidence.evidence`: its likeness
          to the taught faces, its ink references and its fitted heads, weighed by the
          profile's own settings, `vision.profile.settings.ProfileSettings`);
        - plus the frame's inks, for two dice or more (`frame_inks`, `_frame_colours`):
          each die's ink against the frame's other dice (`ColourSettings.frame`, red
          against orange and green against blue settled by the frame networks), plus the
          mending of distinct inks read as one colour (`ColourSettings.order`); the two at
          weight 1, or at the profile's `frame_ink_weight` when a profile speaks, since
          both judge the same ink.
        """
        readout, keep = candidates.readout, candidates.dice
        profile = self.profile  # read once: another thread may swap it (the web app does)
        descriptors = readout.descriptors
        matcher = profile if profile is not None and descriptors is not None else None
        use_inks = self.ink_evidence is not None and keep.size >= 2
        none_contradicted = np.zeros(keep.size, bool)
        if matcher is None and not use_inks:
            return ColourEvidence(None, none_contradicted)
        chroma = ink_chroma(readout.crops[keep])
        household = (matcher.evidence(descriptors[keep], chroma)
                     if matcher is not None and descriptors is not None else None)
        if not use_inks:
            return ColourEvidence(household, none_contradicted)
        inks, order = self._frame_colours(readout.crops[keep], chroma, readout.colour_probs[keep])
        frame = by_face(inks + order)
        contradicted = np.asarray(order.any(axis=1), bool)
        if matcher is None or household is None:
            return ColourEvidence(frame, contradicted)
        return ColourEvidence(household + frame * matcher.frame_ink_weight, contradicted)

    def _trusted(self, dice: list[ReadDie], flagged: bool = False
                 ) -> tuple[list[ReadDie], float, float | None]:
        """The dice with their calibrated probabilities and marks (`vision.read.trust`; a die
        the face probe doubts is marked whatever the roll), the probability that all of
        them are right, and that all their values are (None without value maps); without a
        calibration, as decoded, the probe's doubts marked (their likely faces untold) and no
        value judged apart. With one, a marked die's likely faces are kept only where its
        posterior can tell them (`likely_told`). A
        reading that carries a flag (`flagged`) is judged by the flagged rolls' maps."""
        calibration = self.calibration
        probe = self.face_probe
        kind_doubted = [probe is not None and probe.doubts(die.phase10_odds) for die in dice]
        if calibration is None:
            dice = [replace(die, unsure=True, likely=None) if doubt else die
                    for die, doubt in zip(dice, kind_doubted, strict=True)]
            return dice, float(np.prod([die.right_probability for die in dice])), None
        # The plain score reads only the posterior, the face belief and (to choose the map)
        # the network's own belief: the box's shape is measured only for a calibration
        # that weighs it.
        evidence = [evidence_of(die) if calibration.weights is not None
                    else DieEvidence(die.confidence, die.face_prob, die.network_prob,
                                     agreement=die.agreement,
                                     value_confidence=die.value_confidence)
                    for die in dice]
        probs = [calibration.die_probability(item) for item in evidence]
        settings = calibration.settings
        by_size = settings.max_size_ratio is not None or settings.merged_aspect is not None
        ratios = (size_ratios(dice, self.settings.sort.doubtful_face.by_place)
                  if by_size else np.ones(len(dice)))
        doubted = [settings.box_doubted(float(ratio), die.locator_score, box_aspect(die))
                   or kind for ratio, die, kind in zip(ratios, dice, kind_doubted, strict=True)]
        marks = calibration.marked(probs, doubted, flagged)
        values = calibration.value
        value_probs = ([values.die_probability(item) for item in evidence]
                       if values is not None else list(probs))
        value_marks = calibration.value_marked(value_probs, doubted, flagged) or marks
        illegible = [die.face_prob < self.settings.sort.min_face_prob for die in dice]
        other_kind = [values is not None and values.kind_doubted(die.phase10_odds)
                      for die in dice]
        trusted = [
            likely_told(replace(
                die, probability=round(p, 4),  # a legible die stays marked
                value_probability=None if values is None else round(v, 4),
                unsure=mark or faint,
                # checked where colour does not count: doubted for its face and value
                value_unsure=None if values is None else (mark or faint) and (
                    value_mark or faint or kind)), box or kind or faint, self.settings.decode)
            for die, p, v, mark, value_mark, faint, kind, box in zip(
                dice, probs, value_probs, marks, value_marks, illegible, other_kind, doubted,
                strict=True)
        ]
        value_probability = (None if values is None
                             else values.roll_probability(value_probs, flagged))
        return trusted, calibration.roll_probability(probs, flagged), value_probability

    def _frame_colours(
        self, crops: np.ndarray, chroma: np.ndarray, colour_probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Two (N, C) colour evidences from the frame's dice (two or more): how each die's
        ink compares with the others' (`ink_evidence`), and, unless switched off, the
        mending of distinct inks read as one colour (`vision.read.ink_order`; zeros
        where nothing is mended)."""
        assert self.ink_evidence is not None
        evidence = self.ink_evidence(chroma, colour_probs, crop_lightness(crops))
        if not self.settings.colour.ink_order:
            return evidence, np.zeros_like(evidence)
        belief = np.log(np.maximum(colour_probs, 1e-12)) + evidence
        return evidence, ink_order_evidence(chroma, belief, self.settings.colour.order)


def _picked(read: FacePredictions, rows: np.ndarray) -> FacePredictions:
    """The classifier's outputs for `rows` of a batch."""
    return replace(read, value_probs=read.value_probs[rows], colour_probs=read.colour_probs[rows],
                   face_prob=read.face_prob[rows],
                   embeddings=None if read.embeddings is None else read.embeddings[rows])


def _rows_replaced(readout: Readout, rows: np.ndarray, crops: np.ndarray,
                   read: FacePredictions) -> Readout:
    """`readout` with boxes `rows` cut as `crops` and read as `read` instead."""

    def replaced(old: np.ndarray, new: np.ndarray) -> np.ndarray:
        old = np.array(old, copy=True)
        old[rows] = new
        return old

    return replace(
        readout,
        crops=replaced(readout.crops, crops),
        value_probs=replaced(readout.value_probs, read.value_probs),
        colour_probs=replaced(readout.colour_probs, read.colour_probs),
        face_prob=replaced(readout.face_prob, read.face_prob),
        descriptors=(None if readout.descriptors is None or read.embeddings is None
                     else replaced(readout.descriptors, read.embeddings)),
    )


def legible_dice(readout: Readout, keep: np.ndarray, unread: np.ndarray,
                 sort: SortSettings = SortSettings()) -> np.ndarray:
    """Those of the `unread` boxes (indices into `readout`) whose value and colour the
    classifier reads surely although it doubts the crop is a face (`legible_below_face`),
    where the frame's dice read as faces (`keep`) outnumber them: a Phase 10 set with a
    die or two seen oddly, not a tray of other dice."""
    if not unread.size or keep.size <= unread.size:
        return np.zeros(0, int)
    sure = (readout.value_probs[unread].max(axis=1) >= sort.legible_below_face) & (
        readout.colour_probs[unread].max(axis=1) >= sort.legible_below_face)
    return np.asarray(unread, int)[sure]


def read_dice(readout: Readout,
              sort: SortSettings = SortSettings()) -> tuple[np.ndarray, np.ndarray]:
    """`set_dice` of a readout whose rejected boxes are judged by `is_unreadable_die`:
    the dice a reading decodes (with the `legible_dice` among them, in box order) and
    those it lists unreadable."""
    located, face_prob = readout.located, readout.face_prob
    keep, unread = set_dice(readout, np.array(
        [index for index in range(len(located.boxes))
         if face_prob[index] < sort.min_face_prob and is_unreadable_die(located, index, sort)],
        int), sort)
    legible = legible_dice(readout, keep, unread, sort)
    if not legible.size:
        return keep, unread
    return np.sort(np.concatenate([keep, legible])), np.setdiff1d(unread, legible)


def set_dice(
    readout: Readout, unread: np.ndarray | None = None, sort: SortSettings = SortSettings()
) -> tuple[np.ndarray, np.ndarray]:
    """The dice a reading keeps, as indices into `readout`'s boxes (read, unreadable): the
    boxes read as faces, less those read without certainty whose box is not shaped
    like a die's top (`SortSettings.doubtful_face`: key caps, cable plugs) and any
    whose body colour is unlike the rest of the set's (`vision.read.body_check`, which
    never judges a face read for sure, nor a certain box whose value is sure):
    things on the table, not dice; and those kept unreadable, all of them (a die of
    another kind among a set, a red pip die among white ones, is still a die found:
    it is listed, never dropped). `unread`: the boxes found unreadable (None: none)."""
    unread = np.zeros(0, int) if unread is None else unread
    faces, sure = readout.sure_faces(sort)
    # Only a face not read for sure is judged by its shape (the plane of sizes costs).
    shaped = np.array([not is_sure and sort.doubtful_face.fits(readout.located, int(index))
                       for index, is_sure in zip(faces, sure, strict=True)], bool)
    keep, sure = faces[sure | shaped], sure[sure | shaped]
    if len(faces) > len(keep):
        logger.debug("%d boxes left out: read as faces, not for sure, and not die-shaped",
                     len(faces) - len(keep))
    chosen = np.concatenate([keep, unread]).astype(int)
    if keep.size == 0 or len(chosen) < sort.body.min_boxes:
        return keep, unread
    judged_never = np.ones(len(chosen), bool)
    scores = np.array([readout.located.score(int(index)) for index in keep])
    judged_never[: keep.size] = never_odd(sure, readout.value_probs[keep], scores, sort.body)
    odd = odd_bodies(body_colours(readout.crops[chosen]), judged_never, sort.body)
    if odd.any():
        logger.debug("%d boxes left out: their body is unlike the set's", int(odd.sum()))
    return keep[~odd[: keep.size]], unread


def _unreadable_dice(candidates: Candidates) -> tuple[UnreadableDie, ...]:
    """The dice found but not read, as a Reading lists them."""
    readout = candidates.readout
    located = readout.located
    return tuple(
        UnreadableDie(
            centre=_centre(located.boxes[index]),
            corners=_corners(located.boxes[index]),
            locator_score=round(float(located.scores[index]), 4),
            face_prob=round(float(readout.face_prob[index]), 4),
        )
        for index in candidates.unreadable
    )


def contradicted_faces(faces: Sequence[DecodedFace], contradicted: np.ndarray,
                       confidence: float) -> list[DecodedFace]:
    """The decoded faces, those `contradicted` (the frame's ink order moved their colour)
    read at no more than `confidence`, unsure, and with any face likely: the order shows
    that the colours read contradict the set, not which ink is which, and the dice table
    can make the decoder sure of a colour the group was only moved towards."""
    return [face.held(confidence) if doubted else face
            for face, doubted in zip(faces, contradicted, strict=True)]


def _read_dice(candidates: Candidates, faces: Sequence[DecodedFace],
               sort: SortSettings, phase10_odds: np.ndarray | None = None) -> list[ReadDie]:
    """Each decoded die with where it lies, the classifier's own beliefs and the face
    probe's odds (`phase10_odds`, in `candidates.dice` order), top to bottom, left to
    right."""
    readout = candidates.readout
    odds = ([None] * len(faces) if phase10_odds is None
            else [round(float(value), 4) for value in phase10_odds])
    dice = [
        ReadDie(
            die=face.die,
            confidence=face.confidence,
            centre=_centre(readout.top(index)),
            corners=_corners(readout.top(index)),
            found_corners=(None if readout.top(index) is readout.located.boxes[index]
                           else _corners(readout.located.boxes[index])),
            unsure=face.unsure or bool(readout.face_prob[index] < sort.min_face_prob),  # legible
            alternatives=face.alternatives,
            face_prob=round(float(readout.face_prob[index]), 4),
            network_prob=round(float(_network_prob(readout, int(index), face.die)), 6),
            agreement=_agreement(readout, int(index), face.die),
            locator_score=_locator_score(readout.located, int(index)),
            phase10_odds=kind,
            value_confidence=face.value_confidence,
            likely=face.likely,
        )
        for face, index, kind in zip(faces, candidates.dice, odds, strict=True)
    ]
    dice.sort(key=lambda read: (read.centre[1], read.centre[0]))
    return dice


def likely_told(die: ReadDie, doubted: bool, settings: DecodeSettings) -> ReadDie:
    """`die` with its likely faces kept only where its posterior can tell them
    (`DecodeSettings.likely_below`): not `doubted` (its box, its kind, a faint face), and
    the posterior of what is in doubt (its value, or its face where the value is sure)
    under the setting; else it may show any face (`ReadDie.likely` None)."""
    if die.likely is None:
        return die
    value_doubted = die.value_unsure is None or die.value_unsure
    posterior = (die.value_confidence if value_doubted and die.value_confidence is not None
                 else die.confidence)
    if doubted or posterior >= settings.likely_below:
        return replace(die, likely=None)
    return die


def evidence_of(die: ReadDie) -> DieEvidence:
    """What `vision.read.trust` judges a read die's probability from."""
    sides = _box_sides(die)
    return DieEvidence(die.confidence, die.face_prob, die.network_prob,
                       float(sides.mean()), _aspect(sides), die.agreement, die.value_confidence)


def _box_sides(die: ReadDie) -> np.ndarray:
    corners = np.asarray(die.found_box, np.float64)
    return side_lengths(corners)


def _aspect(sides: np.ndarray) -> float:
    return float(sides.min() / max(sides.max(), 1e-6))


def box_aspect(die: ReadDie) -> float:
    """The die's box's shortest side over its longest (1: square; a steep view or two
    faces boxed as one: less)."""
    return _aspect(_box_sides(die))


def size_ratios(dice: Sequence[ReadDie], by_place: SizeByPlace | None) -> np.ndarray:
    """Each read die's box side over the side the other dice read have where it lies
    (`vision.read.die_shape.SizeByPlace`; against their median when `by_place` is None)."""
    boxes = [np.asarray(die.found_box, np.float64) for die in dice]
    return median_ratios(boxes) if by_place is None else by_place.ratios(boxes)


def _locator_score(located: Located, index: int) -> float:
    """The locator's confidence in box `index`; 1.0 where it gave none (no doubt known)."""
    return round(float(located.scores[index]), 4) if index < len(located.scores) else 1.0


def _agreement(readout: Readout, index: int, die) -> float:
    """The looks' mean belief in the value read for box `index` (1.0 without looks)."""
    if readout.looked_value_probs is None:
        return 1.0
    return round(float(readout.looked_value_probs[index, value_index(die)]), 6)


def _network_prob(readout: Readout, index: int, die) -> float:
    """The classifier's own probability that box `index` shows `die` (value times colour)."""
    return float(readout.value_probs[index, value_index(die)]
                 * readout.colour_probs[index, colour_index(die)])


def _corners(box: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in box)


def _centre(corners: np.ndarray) -> tuple[float, float]:
    x, y = np.asarray(corners, dtype=np.float64).mean(axis=0)
    return (round(float(x), 2), round(float(y), 2))
