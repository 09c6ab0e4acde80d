"""A program at a seat: plays the first legal command whenever the seat is awaited.

    python examples/first_legal.py CODE [--data-dir PATH]
"""
import json
import subprocess
import sys

command = [sys.executable, "-m", "cardtable", *sys.argv[2:], "join", sys.argv[1], "--stdio"]
seat = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in seat.stdout:
    message = json.loads(line)
    if message["type"] == "state" and message["awaiting"]:
        print(message["legal"][0], file=seat.stdin, flush=True)
    elif message["type"] in ("over", "error"):
        print(message)
sys.exit(seat.wait())
