"""0.1's path of the bridge from the strategic game to A25, kept: see `minors.asl.bridge`.

At run time `minors.bridge` *is* that module (patching one patches the other); type
checkers read its names from the star import below.
"""

import sys

from ..asl import bridge as _module
from ..asl.bridge import *  # noqa: F403

sys.modules[__name__] = _module
