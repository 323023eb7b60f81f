"""0.1's path of the A25 nationality profiles, kept importable: see `minors.asl.nationality`.

At run time `minors.nationality` *is* that module (patching one patches the other); type
checkers read its names from the star import below.
"""

import sys

from ..asl import nationality as _module
from ..asl.nationality import *  # noqa: F403

sys.modules[__name__] = _module
