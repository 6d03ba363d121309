"""setuptools' set-up script, run by the build backend (build_support/backend.py).

Everything about the package is in pyproject.toml.  Only when the backend builds a platform
wheel (``RANDOMCHESS_COMPILE_WHEEL=1``, set by its ``build_wheel``) does this add the mypyc
extensions of build_support/native.py, written under ``randomchess/_compiled/`` with their
stamp; the sdist, the editable install and the pure wheel are plain setuptools.
"""

import os
import sys

from setuptools import setup

if os.environ.get("RANDOMCHESS_COMPILE_WHEEL") == "1":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_support"))
    import native

    setup(**native.setup_options())
else:
    setup()
