"""A PEP 517 build backend that builds with the setuptools already
installed (Debian's python3-setuptools), so that ``pip install
./clients/python`` works without a package index.

pip builds in an isolated environment that hides the interpreter's own
site-packages and would download ``setuptools`` from an index; this
backend declares no build requirement and, if setuptools is hidden, puts
the interpreter's site-packages back on ``sys.path`` before delegating
every hook to ``setuptools.build_meta``.
"""

import site
import sys

try:
    import setuptools  # noqa: F401
except ImportError:
    for path in site.getsitepackages():
        if path not in sys.path:
            sys.path.append(path)

from setuptools import build_meta as _meta  # noqa: E402
from setuptools.build_meta import *  # noqa: E402,F401,F403

# setuptools would ask for "wheel" (also installed, also hidden): the
# hooks below add nothing pip would have to download.


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


build_wheel = _meta.build_wheel
build_sdist = _meta.build_sdist
prepare_metadata_for_build_wheel = _meta.prepare_metadata_for_build_wheel
