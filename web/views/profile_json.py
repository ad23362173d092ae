"""The dice profile's JSON (web/API.md): its summary, its examples, a teaching reading's
crops; each picture a PNG data URL."""

from __future__ import annotations

from typing import Any

from web.crop_images import png_data_url
from web.presenters import die_dict
from web.profile_summary import Example, ProfileSummary


def profile_summary_dict(summary: ProfileSummary) -> dict[str, Any]:
    """`GET /api/profile`'s body (before the layout's)."""
    return {
        "examples": summary.examples,
        "rolls_confirmed": summary.rolls_confirmed,
        "from_corrections": summary.from_corrections,
        "from_scored_rolls": summary.from_scored_rolls,
        "faces_seen": summary.faces_seen,
        "faces_total": summary.faces_total,
        "distinct_seen": summary.distinct_seen,
        "distinct_total": summary.distinct_total,
        "faces": [{**die_dict(face.face), "count": face.count, "dice": face.dice}
                  for face in summary.faces],
        "learn_from_corrections": summary.learn_from_corrections,
        "layout": summary.layout.to_dict(),
        "left_out": [{"key": out.key, "confirmed": die_dict(out.confirmed),
                      "looks_like": die_dict(out.looks_like), "crop": png_data_url(out.crop)}
                     for out in summary.left_out],
        "left_out_checked": summary.left_out_checked,
        "error": summary.error,
    }


def example_dicts(examples: tuple[Example, ...]) -> list[dict[str, Any]]:
    """The taught pictures of one face."""
    return [{"key": example.key, "crop": png_data_url(example.crop),
             "left_out": example.left_out} for example in examples]
