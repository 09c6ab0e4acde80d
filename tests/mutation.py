"""Mutation testing of one rules module against its game's own tests (a script, not a test).

    python tests/mutation.py rules/property/rules.py tests/games/test_property.py [more tests…]
        [--jobs 2] [--limit N | --sample N [--seed S] | --only N,…] [--lines A-B,…] [--show-survivors]

Each mutant changes one thing in the module — a comparison (< into <=, == into !=, in into not
in), an arithmetic operator (+ into -), a whole number (n into n+1), a boolean (True into False),
``and`` into ``or``, a ``not`` dropped, a statement that only has effects (a call, an ``x += …``)
removed — and the tests are run against it in a copy of the project. A mutant is killed when the
tests fail (or hang); one that passes survives and is a rule the tests would not notice broken.
Strings, docstrings, messages and annotations are left alone: they are words, not rules.

Prints each survivor's line and the score: killed / all, the standard asks for at least 90%.
``--sample N`` tries N mutants drawn at random (seeded) instead of all of them, and gives the
score with its 95% interval (Wilson): an estimate where the whole run would take hours.
``--lines 10-24,31`` tries every mutant on those lines (a change's own lines) as well, and
scores them apart: with ``--sample`` the sample's score stays an unbiased estimate.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("rules", "tests", "seeds", "pyproject.toml")

_COMPARE_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                 ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
               ast.Mod: ast.FloorDiv}


@dataclass(frozen=True)
class Mutant:
    number: int
    line: int
    what: str


class _Sites(ast.NodeTransformer):
    """Walks the module; with ``target`` None it lists the mutation sites, with a target number
    it applies that one mutation and leaves the rest alone."""

    def __init__(self, target: int | None = None) -> None:
        self.target = target
        self.sites: list[Mutant] = []
        self.count = 0

    def _site(self, node: ast.AST, what: str) -> bool:
        """Record a site; True when it is the one to mutate now."""
        number = self.count
        self.count += 1
        if self.target is None:
            self.sites.append(Mutant(number, getattr(node, "lineno", 0), what))
            return False
        return number == self.target

    # words and types are not rules
    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for i, stmt in enumerate(body):
            body[i] = self.visit(stmt)
        node.body = node.body[: len(node.body) - len(body)] + body
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        return node

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        return node  # the refusal itself; what leads to it is mutated elsewhere

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return node
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, op in enumerate(node.ops):
            swap = _COMPARE_SWAP.get(type(op))
            if swap is not None and self._site(node, f"{type(op).__name__} → {swap.__name__}"):
                node.ops[i] = swap()
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        swap = _BINOP_SWAP.get(type(node.op))
        if swap is not None and not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            if self._site(node, f"{type(node.op).__name__} → {swap.__name__}"):
                node.op = swap()
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if self._site(node, "x op= … removed"):
            return ast.Pass()
        swap = _BINOP_SWAP.get(type(node.op))
        if swap is not None and self._site(node, f"{type(node.op).__name__}= → {swap.__name__}="):
            node.op = swap()
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._site(node, f"{type(node.op).__name__} → {other.__name__}"):
            node.op = other()
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and self._site(node, "not dropped"):
            return node.operand
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if self._site(node, f"{value} → {not value}"):
                return ast.copy_location(ast.Constant(not value), node)
        elif isinstance(value, int):
            if self._site(node, f"{value} → {value + 1}"):
                return ast.copy_location(ast.Constant(value + 1), node)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Call) and self._site(node, "call removed"):
            return ast.Pass()
        return node


def sites(source: str) -> list[Mutant]:
    walker = _Sites()
    walker.visit(ast.parse(source))
    return walker.sites


def mutate(source: str, number: int) -> str:
    tree = _Sites(number).visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


def copy_project(into: Path) -> None:
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "__snapshots__"))
        else:
            shutil.copy2(source, into / name)


def run_tests(where: Path, tests: list[str], timeout: float) -> bool:
    """True when the tests pass in ``where`` (the mutant survives)."""
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "0", *tests],
            cwd=where, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False  # a hang is a failure the player would notice
    return done.returncode == 0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", help="the rules module to mutate, e.g. rules/property/rules.py")
    parser.add_argument("tests", nargs="+", help="the game's own tests")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N mutants (a quick look)")
    parser.add_argument("--sample", type=int, default=0, help="N mutants drawn at random: an estimate with its interval")
    parser.add_argument("--seed", type=int, default=0, help="the draw of --sample")
    parser.add_argument("--lines", type=_line_ranges, default=frozenset(),
                        help="every mutant on these lines too, scored apart, e.g. 10-24,31")
    parser.add_argument("--only", type=lambda text: {int(n) for n in text.split(",")}, default=set(),
                        help="only these mutants by number, e.g. the survivors of a run again")
    parser.add_argument("--show-survivors", action="store_true", help="print each survivor's line")
    args = parser.parse_args()

    relative = Path(args.module)
    source = (ROOT / relative).read_text(encoding="utf-8")
    every = sites(source)
    mutants = every
    if args.only:
        mutants = [m for m in mutants if m.number in args.only]
    elif args.limit:
        mutants = mutants[: args.limit]
    elif args.sample and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample), key=lambda m: m.number)
        print(f"a random sample of {len(mutants)} of the {len(every)} mutants (seed {args.seed})")
    drawn = mutants if args.sample or args.limit else []
    on_lines = [m for m in every if m.line in args.lines]
    if args.lines:
        print(f"{len(on_lines)} mutants on the lines given, {len(set(on_lines) - set(drawn))} of them not drawn")
        mutants = sorted(set(drawn) | set(on_lines), key=lambda m: m.number)
    lines = source.splitlines()

    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        copies = []
        for job in range(args.jobs):
            where = Path(folder) / f"copy{job}"
            where.mkdir()
            copy_project(where)
            copies.append(where)
        start = time.perf_counter()
        if not run_tests(copies[0], args.tests, timeout=1800):
            print("the tests fail on the unmutated module: fix them first", file=sys.stderr)
            return 2
        baseline = time.perf_counter() - start
        timeout = max(30.0, 10 * baseline)
        print(f"{relative}: {len(mutants)} mutants; the tests take {baseline:.1f}s unmutated")

        free = list(copies)

        def trial(mutant: Mutant) -> tuple[Mutant, bool]:
            where = free.pop()
            try:
                target = where / relative
                target.write_text(mutate(source, mutant.number), encoding="utf-8")
                survived = run_tests(where, args.tests, timeout)
                target.write_text(source, encoding="utf-8")
                return mutant, survived
            finally:
                free.append(where)

        survivors = []
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for done, (mutant, survived) in enumerate(pool.map(trial, mutants), 1):
                if survived:
                    survivors.append(mutant)
                    if args.show_survivors:
                        text = lines[mutant.line - 1].strip() if 0 < mutant.line <= len(lines) else ""
                        print(f"  survived: #{mutant.number} line {mutant.line}: {mutant.what}: {text}")
                if done % 25 == 0:
                    print(f"  … {done}/{len(mutants)}, {len(survivors)} surviving", flush=True)
    print(f"{relative}: {len(mutants)} mutants tried in {time.perf_counter() - start:.0f}s")
    groups = [("the sample", drawn), ("the lines given", on_lines)] if args.lines else [("", mutants)]
    for name, group in groups:
        if group:
            left = [m for m in survivors if m in set(group)]
            killed = len(group) - len(left)
            print(f"{relative}{name and ', ' + name}: {killed}/{len(group)} mutants killed = "
                  f"{killed / len(group):.1%} ({len(left)} survived)")
            if args.sample and group is drawn:
                low, high = wilson(killed, len(group))
                print(f"  95% interval of the whole module's score: {low:.1%}–{high:.1%}")
    return 0


def _line_ranges(text: str) -> frozenset[int]:
    """'10-24,31' → the line numbers 10 to 24 and 31."""
    lines: set[int] = set()
    for part in text.split(","):
        if part.strip():
            first, _, last = part.partition("-")
            lines.update(range(int(first), int(last or first) + 1))
    return frozenset(lines)


if __name__ == "__main__":
    sys.exit(main())
