"""Suite-wide test settings.

Hypothesis runs derandomized by default: the same examples on every run and in CI, so a failure is
reproducible and a green run means the same thing twice. ``HYPOTHESIS_PROFILE=explore`` draws fresh
random examples (and more of them) when you want to hunt for new failures locally.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
