"""Frames in, readings out, by stage: `camera` (where frames come from and when one is worth
reading), `read` (a frame to a `vision.reading.Reading`) and `profile` (the household's own
dice); the `Reading` itself, the evaluation and the renderer (`synth`) serve them all."""
