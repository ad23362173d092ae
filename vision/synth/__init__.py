"""Synthetic dice-tray scenes: training data for the face classifier and the demo camera.

There are no labelled photos of Phase 10 dice, so the product renders its own:
a camera's view of a tray with any of the ten dice, randomising what a real table
varies, with each die's ground truth (face, centre, top-face corners).

The training data made from these scenes (`vision.synth.training`,
`vision.synth.locator_training`) is imported by the trainers only, never here:
the demo camera renders scenes without loading it.
"""

from vision.synth.conditions import Conditions, random_conditions
from vision.synth.placement import Placement, random_placements, random_roll
from vision.synth.scene import RenderedDie, Scene, render_scene

__all__ = [
    "Conditions",
    "Placement",
    "RenderedDie",
    "Scene",
    "random_conditions",
    "random_placements",
    "random_roll",
    "render_scene",
]
