"""How a household's dice profile weighs each read face, and which taught dice it doubts.

`ProfileMatcher` (`vision.profile.profile`) takes a `ProfileSettings`, and the heads
fitted to a profile (`vision.profile.profile_heads`) its `HeadsSettings`; the defaults are
the shipped ones. How each was chosen, and on which dice sets, is in models/MODEL_CARD.md
("The colour and decode stages' settings"), never in the code.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.read.settings import FrameInkSettings


@dataclass(frozen=True)
class HeadsSettings:
    """How the corrections to the classifier's heads are fitted to a profile's examples
    (`vision.profile.profile_heads`): from zero, by gradient descent, kept small."""

    penalty: float = 0.001
    """Weight penalty: a correction moves only where the network was wrong or unsure on
    the household's dice, and stays near zero elsewhere."""
    steps: int = 300
    """Gradient steps: many more fit the corrections too closely to the examples."""
    rate: float = 0.5
    """Step size of the gradient descent."""
    turns: int = 4
    """Quarter turns of each example fitted, each a sample of its own (a die lands any
    way up)."""


@dataclass(frozen=True)
class ProfileSettings:
    """The profile's weights on its three evidences (likeness to the taught faces, ink
    references, fitted heads) and beside the frame's inks, and its tests for a slip."""

    similarity_weight: float = 20.0
    """A seen face's log-probability gains this much per unit of its nearest example's
    similarity (the cosine between centred descriptors) above `similarity_neutral`."""
    similarity_neutral: float = 0.9
    """Similarity at or below which a seen face gains nothing and loses nothing: a face
    taught once or twice, seen under another lamp or angle, may look unlike its examples,
    and that must not make it less likely than a face never taught."""
    ink_sigma: float = 0.2
    """Spread of one ink's chroma between dice and frames (log units): a die's chroma this
    far from a colour's reference costs that colour 0.5 in log-likelihood."""
    ink_degrees: float = FrameInkSettings().degrees
    """Degrees of freedom of the ink likelihood (`vision.read.ink_likelihood`), the frame
    inks' by default: a lost ink (glare, a side face) says little to either."""
    ink_min_examples: int = 2
    """A colour needs this many taught examples before its ink reference is trusted."""
    unseen_ink: float = -2.0
    """Evidence for a colour the profile has no ink reference for (as if 2 sigma from it)."""
    frame_ink_weight: float = 0.5
    """Beside the profile's ink references, the frame's colour evidence counts this much:
    both judge a die by its ink, and at full weight the same ink counts twice."""
    ink_contradiction: float = 1.0
    """A taught colour is contradicted by its ink when the ink lies this many nats of ink
    likelihood nearer another colour's examples than its own colour's other examples."""
    doubted_colour: float = 0.05
    """...and by the classifier when it gives the taught colour less than this; a colour
    contradicted by both is a slip (mistyped or mis-tapped) and is left out."""
    doubted_value: float = 0.05
    """A taught value is doubted by the classifier when it gives it less than this."""
    likeness_margin: float = 0.1
    """...and contradicted by its likeness when its descriptor lies this much cosine
    nearer an example of the value the classifier reads than any example of its own; a
    value contradicted by both is a slip and is left out."""
    heads: HeadsSettings = HeadsSettings()
    """How the corrections to the classifier's heads are fitted to the profile's examples."""
