"""0.1's path of rule 82's engine questions, kept importable: see `minors.rules82.queries`.

At run time `minors.queries` *is* that module (patching one patches the other); type
checkers read its names from the star import below.
"""

import sys

from ..rules82 import queries as _module
from ..rules82.queries import *  # noqa: F403

sys.modules[__name__] = _module
