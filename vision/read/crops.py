"""Cut one die's top face out of a frame as a fixed-size square, and turn crops into model input.

Training and the runtime classifier both go through these two functions, so a
crop the model sees at run time is made exactly like the crops it learnt from.
`channel_medians` measures crops (their bodies' colour) for the reader's checks.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.vectors import side_lengths

CROP_SIZE = 40
"""Side of a face crop in pixels: big enough for a thickened numeral and its 6/9 mark."""

DEFAULT_MARGIN = 0.12
"""Border kept around the face, as a fraction of the face side on each side: the
classifier learnt from crops cut so, like CROP_SIZE and the normalisation below a
contract with the trained network, not a setting."""

#: Normalisation of crops_to_tensor: pixel / 255, centred and scaled to unit-ish range.
PIXEL_MEAN = 0.5
PIXEL_STD = 0.25


def order_corners(corners: np.ndarray) -> np.ndarray:
    """The four corners in clockwise order on screen, starting from the first one given.

    The locator may list a box's corners in any order; only a cyclic order
    matters (the classifier reads faces at any rotation).
    """
    points = np.asarray(corners, np.float32).reshape(4, 2)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    order = list(np.argsort(angles))
    start = order.index(0)
    return points[order[start:] + order[:start]]


def crop_face(
    image: np.ndarray,
    corners: np.ndarray,
    size: int = CROP_SIZE,
    margin: float = DEFAULT_MARGIN,
) -> np.ndarray:
    """Perspective-warp the quad `corners` (4, 2) plus `margin` to a (size, size, 3) crop.

    Large faces are shrunk with area averaging first, so small crops of big dice
    do not alias; pixels beyond the frame repeat its border.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"crop_face needs an (H, W, 3) image, got shape {image.shape}")
    quad = order_corners(corners)
    if not np.isfinite(quad).all():
        raise ValueError(f"crop_face got non-finite corners {quad.tolist()}")
    inner = size / (1.0 + 2.0 * margin)
    lo = (size - inner) / 2.0
    hi = lo + inner
    # Pixel centres sit at integer coordinates, so the crop's middle is (size - 1) / 2.
    target = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32) - 0.5
    side = float(np.mean(side_lengths(quad)))
    # Region of the frame the crop can sample: the quad grown by the margin, plus slack.
    centre = quad.mean(axis=0)
    reach = (quad - centre) * (1.0 + 2.5 * margin) + centre
    height, width = image.shape[:2]
    x0 = int(max(np.floor(reach[:, 0].min()) - 2, 0))
    y0 = int(max(np.floor(reach[:, 1].min()) - 2, 0))
    x1 = int(min(np.ceil(reach[:, 0].max()) + 3, width))
    y1 = int(min(np.ceil(reach[:, 1].max()) + 3, height))
    if x1 - x0 < 2 or y1 - y0 < 2:
        raise ValueError(
            f"crop_face corners {quad.tolist()} lie outside the {width}x{height} frame"
        )
    roi = image[y0:y1, x0:x1]
    source = quad - np.array([x0, y0], np.float32)
    shrink = 1.5 * inner / max(side, 1e-6)
    if shrink < 1.0:
        roi = cv2.resize(roi, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        source = (source + 0.5) * np.float32(shrink) - 0.5
    homography = cv2.getPerspectiveTransform(source.astype(np.float32), target)
    return cv2.warpPerspective(
        roi, homography, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def scaled_box(corners: np.ndarray, scale: float) -> np.ndarray:
    """The quad `corners` (4, 2) scaled by `scale` about its centre, as float32: the box
    the classifier's crop is cut from (`ClassifySettings.box_scale`)."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    if scale == 1.0:
        return quad
    centre = quad.mean(axis=0)
    return ((quad - centre) * np.float32(scale) + centre).astype(np.float32)


def crops_to_tensor(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) uint8 BGR crops to the model's (N, 3, S, S) float32 input."""
    array = np.asarray(crops)
    if array.ndim != 4 or array.shape[3] != 3 or array.dtype != np.uint8:
        raise ValueError(
            f"crops must be (N, S, S, 3) uint8 BGR, got shape {array.shape} dtype {array.dtype}"
        )
    tensor = array.transpose(0, 3, 1, 2).astype(np.float32)
    tensor *= 1.0 / (255.0 * PIXEL_STD)
    tensor -= PIXEL_MEAN / PIXEL_STD
    return np.ascontiguousarray(tensor)


def channel_medians(images: np.ndarray) -> np.ndarray:
    """(N, C) float64: the median of each channel over each of the (N, ..., C) images,
    as `np.median` gives it (the mean of the two middle levels of an even count).

    uint8 images are counted level by level instead of sorted: a frame's crops are
    measured so on every read, and sorting along their strided channel axis cost more
    than the rest of the colour work. Other types go to `np.median`."""
    array = np.asarray(images)
    count, channels = len(array), array.shape[-1]
    pixels = int(np.prod(array.shape[1:-1]))
    if count == 0:
        return np.zeros((0, channels))
    flat = array.reshape(count, pixels, channels)
    if array.dtype != np.uint8:
        return np.median(flat.astype(np.float64), axis=1)
    histogram_of = np.arange(count * channels).reshape(count, 1, channels) * 256
    counts = np.bincount((histogram_of + flat).ravel(), minlength=count * channels * 256)
    below = counts.reshape(count, channels, 256).cumsum(axis=2)  # pixels at or below each level
    low = (below > (pixels - 1) // 2).argmax(axis=2)  # the middle level(s), counted from 0
    high = (below > pixels // 2).argmax(axis=2)
    return (low + high) / 2.0
