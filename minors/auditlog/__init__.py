"""0.1's path of the audit log, kept importable: the module is `minors.audit.log`.

At run time `minors.auditlog` *is* that module (patching one patches the other); type
checkers read its names from the star import below.
"""

import sys

from ..audit import log as _module
from ..audit.log import *  # noqa: F403

sys.modules[__name__] = _module
