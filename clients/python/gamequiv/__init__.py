"""gamequiv: a Python client of the gamequiv service.

gamequiv decides whether two General Game Playing games (GDL) are the same
game in disguise, finds their mapping, their symmetries and the equivalence
classes of a collection. This package talks to its REST API::

    from pathlib import Path
    import gamequiv

    gq = gamequiv.Client("http://127.0.0.1:8080")
    gq.upload_folder("shared/games")                # batches, progress bar
    cmp = gq.compare("ggp-base-repo/ticTacToe", "ggp-base/sum15")
    cmp["verdict"], cmp["reason"]
    gq.mapping_frames(cmp).propositions             # a pandas DataFrame

It needs ``requests``; the ``*_frame`` methods need ``pandas``, and
progress bars use ``tqdm`` when it is installed.
"""

from .client import (
    Client,
    UploadReport,
    UploadResult,
    content_sha256,
    normalize_line_endings,
)
from .errors import GamequivError

__all__ = [
    "Client",
    "GamequivError",
    "UploadReport",
    "UploadResult",
    "content_sha256",
    "normalize_line_endings",
]
__version__ = "0.1.0"
