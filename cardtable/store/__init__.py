"""Where the games live: one SQLite database that many cardtables may write at once.

``SaveStore`` (``games.py``) keeps every game — its setup and its moves, numbered, each written
in one transaction after it is checked against every move before it — and the summary the saves
list reads. ``files.py`` is the border with JSON files: the saves of earlier versions (brought in
once, left where they are), exports and imports. ``info.py`` holds what callers get back.
``seats.py`` the seats played from other screens: join codes, and which screens are open;
``analyses.py`` the analyses of finished games, kept.
"""

from ..paths import UnusablePath, default_data_dir, user_path
from .errors import Diverged, GameChanged, MovedFirst, SaveError
from .games import FILE, SaveStore
from .seats import AWAY_SECONDS, CodeError, Joined, Throttle
from .info import Opened, Replayed, SaveInfo, is_valid_id, result_text, seat_label

__all__ = [
    "AWAY_SECONDS", "CodeError", "FILE", "Diverged", "GameChanged", "Joined", "MovedFirst", "Opened", "Replayed", "SaveError", "SaveInfo", "SaveStore", "Throttle",
    "UnusablePath", "default_data_dir", "is_valid_id", "result_text", "seat_label", "user_path",
]
