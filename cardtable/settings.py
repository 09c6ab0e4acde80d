"""The player's preferences: theme, bot speed, four-colour deck — one small JSON file.

The file lives in ``$CARDTABLE_CONFIG_DIR`` or the platform's user config folder. A file that
cannot be used never stops the app: the defaults (or the values that were usable) apply and
``read_settings`` says in words what was wrong, so the app can tell the player.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from .paths import folder_from, write_atomically

APP_NAME = "cardtable"
CONFIG_DIR_ENV = "CARDTABLE_CONFIG_DIR"
FILE_NAME = "settings.json"

# The bot speeds the menus offer: name → seconds between a bot's moves.
BOT_SPEEDS: dict[str, float] = {"fast": 0.2, "normal": 0.6, "slow": 1.2}
MAX_BOT_DELAY = 10.0
FOUR_COLOUR_HELP = "Diamonds blue and clubs green: every suit in a colour of its own."


@dataclass
class Settings:
    """The preferences. Mutable on purpose: the app and every table share one instance, so a
    change (say, bot speed from the command palette) applies at once; ``save_settings`` keeps it."""

    theme: str = "textual-dark"
    bot_delay: float = 0.6
    four_colour: bool = False

    @property
    def bot_speed(self) -> str | None:
        """The name of the current bot delay ("fast", "normal", "slow"), None for another value."""
        for name, delay in BOT_SPEEDS.items():
            if abs(delay - self.bot_delay) < 1e-9:
                return name
        return None


def config_dir() -> Path:
    """``$CARDTABLE_CONFIG_DIR`` if set, else the platform's user config folder for cardtable.
    Raises UnusablePath for a value naming a home folder that cannot be found."""
    return folder_from(CONFIG_DIR_ENV, platformdirs.user_config_path)


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def read_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The saved settings and a list of problems in words (empty when all was well). A missing
    file is not a problem; a broken one gives the defaults; a bad value gives that one default."""
    path = settings_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), []
    except (OSError, UnicodeDecodeError) as error:
        return Settings(), [f"Could not read the settings file {path} ({error}); using the defaults."]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return Settings(), [
            f"The settings file {path} is not valid JSON (line {error.lineno}); using the defaults."
        ]
    if not isinstance(data, dict):
        return Settings(), [f"The settings file {path} is not a JSON object; using the defaults."]
    settings = Settings()
    problems = []
    # unknown keys are ignored without a word: a newer cardtable may have written them
    for field in fields(Settings):
        if field.name not in data:
            continue
        value = _checked(field.name, data[field.name])
        if value is None:
            problems.append(
                f"The setting {field.name} = {data[field.name]!r} in {path} is not usable; "
                f"using {getattr(settings, field.name)!r}."
            )
        else:
            setattr(settings, field.name, value)
    return settings, problems


def _checked(name: str, value: Any) -> Any:
    """``value`` if it suits the setting ``name`` (ints widen to floats), else None."""
    if name == "theme":
        return value if isinstance(value, str) and value.strip() else None
    if name == "bot_delay":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return float(value) if ok and 0 <= value <= MAX_BOT_DELAY else None
    if name == "four_colour":
        return value if isinstance(value, bool) else None
    return None


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults where the file is missing or unusable."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically: a crash half-way leaves the previous file intact."""
    path = settings_path() if path is None else path
    write_atomically(path, json.dumps(asdict(settings), indent=2) + "\n")
