"""Semantic mutants of the rule modules: where they are, and how one is put in force.

A mutant is one small change of the source of one function (or of one module-level
assignment, a table written in Python): a comparison flipped (`<` to `<=`, `==` to `!=`,
`in` to `not in`, `is` to `is not`), `and` and `or` swapped, one operand of an `and` / `or`
dropped (a dropped condition), a `not` removed, an integer one higher (an off-by-one),
`True` and `False` swapped, `Side.AXIS` and `Side.ALLIES` swapped (swapped sides), `min`
and `max` or `any` and `all` swapped, `+` and `-` swapped, a call statement deleted (an
effect, a note, a write left out), `continue` and `break` swapped. Strings, docstrings,
annotations, decorators, `assert` and `raise` statements are never mutated: a mutant
changes what the rules do, not what they say.

Each mutant has an id made of its file, its function, its operator and the source it
changes (with a counter for repeats), not of line numbers: ids stay the same while code
elsewhere moves, so judgements of equivalence (`equivalent.toml`) keep applying.

`apply(mutant)` puts a mutant in force in this process: the mutated function is compiled
in its module's namespace and its code object replaces the original's (`__code__`), so
every reference to the function (a rulebook's table, a wrapper, an import elsewhere) runs
the mutant; a module-level assignment is executed again mutated, with the assignments
after it (tables derived from it), and names bound to the old value elsewhere follow.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

MODULES = (
    "minors.rules82.war",
    "minors.rules82.ties",
    "minors.rules82.survival",
    "minors.rules82.diplomacy",
    "minors.rules82.deployment",
    "minors.rules82.conquest",
    "minors.rules82.limits",
    "minors.rules82.movement",
    "minors.rules82.machine",
    "minors.rules82.brps",
    "minors.rules82.sequence",
    "minors.asl.commissar",
    "minors.asl.humanwave",
    "minors.asl.dyo",
    "minors.asl.cascade",
    "minors.asl.traits",
    "minors.asl.nationality",
)
"""The rule modules of rule 82 and A25 (the rules, their statuses and their data in code)."""

FLIP = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
    ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
SWAP_NAMES = {"min": "max", "max": "min", "any": "all", "all": "any"}
SIDES = {"AXIS": "ALLIES", "ALLIES": "AXIS"}


@dataclass(frozen=True)
class Mutant:
    """One mutant: where (module, scope), what (operator, before, after) and its id."""

    module: str
    scope: str
    """A top-level function (`name`), a method (`Class.name`) or `<module>:NAME`."""
    operator: str
    before: str
    after: str
    line: int
    index: int
    """Its place among the mutation sites of its scope (the walk's order)."""
    id: str

    @property
    def path(self) -> str:
        return self.module.replace(".", "/") + ".py"


class _Sites(ast.NodeTransformer):
    """Walks one scope; counts its mutation sites and, at `target`, makes the change."""

    def __init__(self, target: int | None = None) -> None:
        self.target = target
        self.count = 0
        self.found: list[tuple[str, ast.AST, ast.AST]] = []
        self.done: tuple[str, str, str, int] | None = None

    def _site(self, operator: str, node: ast.AST, mutated: ast.AST) -> ast.AST:
        index = self.count
        self.count += 1
        if self.target is None:
            self.found.append((operator, node, mutated))
            return node
        if index == self.target:
            self.done = (operator, ast.unparse(node), ast.unparse(mutated), node.lineno)  # type: ignore[attr-defined]
            return ast.copy_location(mutated, node)
        return node

    # ---- what is never mutated ----------------------------------------------------------

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return node

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        return node

    def visit_arguments(self, node: ast.arguments) -> ast.AST:
        return node  # defaults and annotations

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                out.append(stmt)  # a docstring
                continue
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = self._body(node.body)
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return node
        return self.generic_visit(node)

    # ---- mutations -------------------------------------------------------------------------

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, op in enumerate(list(node.ops)):
            flipped = FLIP.get(type(op))
            if flipped is None:
                continue
            mutated = copy.deepcopy(node)
            mutated.ops[i] = flipped()
            result = self._site("compare", node, mutated)
            if result is not node:
                return result
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        result = self._site("and-or", node, ast.BoolOp(op=other, values=copy.deepcopy(node.values)))
        if result is not node:
            return result
        for i in range(len(node.values)):
            rest = [copy.deepcopy(v) for j, v in enumerate(node.values) if j != i]
            mutated = rest[0] if len(rest) == 1 else ast.BoolOp(op=node.op, values=rest)
            result = self._site("drop-condition", node, mutated)
            if result is not node:
                return result
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._site("drop-not", node, copy.deepcopy(node.operand))
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, bool):
            return self._site("true-false", node, ast.Constant(not node.value))
        if isinstance(node.value, int):
            return self._site("off-by-one", node, ast.Constant(node.value + 1))
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.value, ast.Name)
            and node.value.id == "Side"
            and node.attr in SIDES
            and isinstance(node.ctx, ast.Load)
        ):
            return self._site(
                "swap-side", node, ast.Attribute(node.value, SIDES[node.attr], node.ctx)
            )
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in SWAP_NAMES:
            mutated = copy.deepcopy(node)
            mutated.func = ast.Name(SWAP_NAMES[node.func.id], ast.Load())
            return self._site("swap-call", node, mutated)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        swap = {ast.Add: ast.Sub, ast.Sub: ast.Add}.get(type(node.op))
        if swap is not None:
            mutated = ast.BinOp(copy.deepcopy(node.left), swap(), copy.deepcopy(node.right))
            return self._site("plus-minus", node, mutated)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Call):
            return self._site("delete-call", node, ast.Pass())
        return node

    def visit_Continue(self, node: ast.Continue) -> ast.AST:
        return self._site("continue-break", node, ast.Break())

    def visit_Break(self, node: ast.Break) -> ast.AST:
        return self._site("continue-break", node, ast.Continue())


def _scopes(tree: ast.Module) -> Iterator[tuple[str, ast.stmt]]:
    """(scope, node) of each function, method and module-level assignment worth mutating."""
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            yield stmt.name, stmt
        elif isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, ast.FunctionDef):
                    yield f"{stmt.name}.{inner.name}", inner
        elif isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if names and names[0] not in ("__all__",) and stmt.value is not None:
                yield f"<module>:{names[0]}", stmt


def _source(module: str) -> str:
    return (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")


def mutants(module: str) -> list[Mutant]:
    """Every mutant of one module, in source order."""
    tree = ast.parse(_source(module))
    out: list[Mutant] = []
    short = module.removeprefix("minors.")
    for scope, node in _scopes(tree):
        walker = _Sites()
        walker.visit(copy.deepcopy(node))
        seen: dict[str, int] = {}
        for index, (operator, before, after) in enumerate(walker.found):
            b, a = ast.unparse(before), ast.unparse(after)
            key = f"{short}:{scope}:{operator}:{b} => {a}"
            seen[key] = seen.get(key, 0) + 1
            ident = key if seen[key] == 1 else f"{key} #{seen[key]}"
            out.append(Mutant(module, scope, operator, b, a, before.lineno, index, ident))  # type: ignore[attr-defined]
    return out


def _unwrapped(obj: Any, name: str) -> Any:
    """The plain function behind decorators (effect wrappers, caches, argument checks)."""
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    seen = 0
    while seen < 10:
        # an effect's dispatcher is generated under the effect's own name: look behind it
        # first (the kernel's tables call the function it wraps, not the dispatcher)
        spec = getattr(obj, "__minors_effect__", None)
        code = getattr(obj, "__code__", None)
        if spec is None and code is not None and code.co_name == name:
            return obj
        nxt = spec.function if spec is not None else getattr(obj, "__wrapped__", None)
        if nxt is None:
            break
        obj, seen = nxt, seen + 1
    raise LookupError(f"cannot find the function {name!r} behind {obj!r}")


def apply(mutant: Mutant) -> None:
    """Put `mutant` in force in this process (see the module's docstring)."""
    module = importlib.import_module(mutant.module)
    tree = ast.parse(_source(mutant.module))
    scopes = list(_scopes(tree))
    position = next(i for i, (scope, _) in enumerate(scopes) if scope == mutant.scope)
    node = scopes[position][1]
    walker = _Sites(mutant.index)
    mutated = walker.visit(copy.deepcopy(node))
    assert walker.done is not None, mutant.id
    ast.fix_missing_locations(mutated)
    if mutant.scope.startswith("<module>:"):
        _apply_assignment(module, tree, node, mutated)
        return
    mutated.decorator_list = []
    namespace: dict[str, Any] = {}
    exec(
        compile(ast.Module([mutated], []), str(ROOT / mutant.path), "exec"), vars(module), namespace
    )
    new = namespace[mutated.name]
    owner, _, name = mutant.scope.rpartition(".")
    holder = vars(getattr(module, owner)) if owner else vars(module)
    original = _unwrapped(holder[name], name)
    if original.__code__.co_freevars != new.__code__.co_freevars:
        raise LookupError(f"{mutant.scope} has free variables: cannot swap its code")
    original.__code__ = new.__code__


def _apply_assignment(module: Any, tree: ast.Module, node: ast.stmt, mutated: ast.stmt) -> None:
    """Execute a mutated module-level assignment, then the assignments after it."""
    namespace = vars(module)
    before = dict(namespace)
    later = tree.body[tree.body.index(node) + 1 :]
    statements = [mutated] + [s for s in later if isinstance(s, ast.Assign | ast.AnnAssign)]
    exec(compile(ast.Module(statements, []), module.__file__, "exec"), namespace)
    changed = {k: (before[k], namespace[k]) for k in before if before[k] is not namespace.get(k)}
    for other in list(sys.modules.values()):
        name = getattr(other, "__name__", "")
        if not name.startswith("minors") or other is module:
            continue
        for key, value in list(vars(other).items()):
            if key in changed and value is changed[key][0]:
                setattr(other, key, changed[key][1])


def all_mutants(modules: tuple[str, ...] = MODULES) -> list[Mutant]:
    """Every mutant of `modules`."""
    return [m for module in modules for m in mutants(module)]


def scope_lines(module: str, source: str | None = None) -> dict[str, tuple[int, int]]:
    """Each scope of a module -> its first and last line (for selecting the tests that run
    it), in `source` (the module's as it is now by default)."""
    tree = ast.parse(source if source is not None else _source(module))
    return {scope: (node.lineno, node.end_lineno or node.lineno) for scope, node in _scopes(tree)}


if __name__ == "__main__":
    found = all_mutants()
    for module in MODULES:
        print(f"{module}: {sum(1 for m in found if m.module == module)}")
    print(f"{len(found)} mutants")
    _ = inspect  # (kept for callers that inspect the mutants interactively)
