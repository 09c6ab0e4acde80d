"""rules/ is pure game logic: importing every game must not pull in the UI or storage."""

import json
import subprocess
import sys

FORBIDDEN = ("textual", "rich", "platformdirs", "cardtable")


def test_rules_import_no_ui_or_storage():
    code = (
        "import json, sys, rules\n"
        "from rules.core.simulate import simulate\n"
        "from rules.core.replay import Replay\n"
        "for spec in rules.GAMES.values(): spec.setup(['A', 'B', 'C'][:spec.players[0]], None, 1)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = json.loads(out.stdout)
    leaked = [m for m in modules if m.split(".")[0] in FORBIDDEN]
    assert leaked == []
    assert "rules.property" in modules and "rules.portfolio" in modules
