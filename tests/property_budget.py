"""How many examples a property test tries under the loaded Hypothesis profile.

The profiles live in tests/conftest.py: "ci" tries CI_EXAMPLES (Hypothesis's own
default) where a test names no count, "dev" a tenth of that. A test that names
its own (thorough) count passes it through `examples`, and gets the same share of
it under each profile.
"""

from __future__ import annotations

from typing import Final

from hypothesis import settings

#: Examples per property test under the "ci" profile (Hypothesis's default).
CI_EXAMPLES: Final[int] = 100


def examples(thorough: int) -> int:
    """`thorough` under the "ci" profile; the loaded profile's share of it otherwise."""
    return max(1, thorough * settings.default.max_examples // CI_EXAMPLES)
