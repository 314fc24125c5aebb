"""The mutants of one module for tools/mutate.py: what each changes and how it is spliced in.

`make_mutants(module, source)` walks the module's AST and lists one `Mutant` per change (see
tools/mutate.py for the kinds); `mutated_source` splices one into the text, `diff_of` shows it.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass

COMPARE_SWAPS = {
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
BINOP_SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass
class Mutant:
    module: str
    index: int  # position in the module's mutant list (stable while the module is unchanged)
    line: int
    where: str  # the enclosing function or class, dotted
    kind: str
    before: str
    after: str
    start: tuple[int, int]  # (line, col) of the replaced source span, 1-based lines
    end: tuple[int, int]
    status: str = "pending"
    seconds: float = 0.0
    diff: str = ""
    reason: str = ""

    occurrence: int = 1  # the n-th mutant with this description in its function

    @property
    def key(self) -> str:
        """How the equivalents list and --rerun name a mutant: stable under edits elsewhere
        in the file (`#n` tells apart identical mutants in one function)."""
        text = f"{self.module}::{self.where}::{self.kind}::{self.before} -> {self.after}"
        return text if self.occurrence == 1 else f"{text} #{self.occurrence}"


class _Collector(ast.NodeVisitor):
    """Walks a module and records (node, kind, replacement source) for every mutation point."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.scope: list[str] = []
        self.functions = 0  # how many function bodies enclose the current node
        self.points: list[tuple[ast.AST, str, str, str]] = []  # node, where, kind, new source

    def _skip(self, node: ast.AST) -> bool:
        line = self.lines[node.lineno - 1]
        return line.rstrip().endswith("# pragma: no mutate")

    def _add(self, node: ast.AST, kind: str, new: ast.AST | str) -> None:
        if self._skip(node):
            return
        text = new if isinstance(new, str) else ast.unparse(new)
        self.points.append((node, ".".join(self.scope) or "<module>", kind, text))

    def _visit_body(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            if docstring:
                continue
            self.visit(stmt)

    # scopes: annotations, decorators and defaults are not mutated
    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.scope.append(node.name)
        self.functions += 1
        self._visit_body(node.body)
        self.functions -= 1
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self._visit_body(node.body)
        self.scope.pop()

    def visit_Module(self, node: ast.Module) -> None:
        self._visit_body(node.body)

    def visit_Import(self, node: ast.AST) -> None:
        pass

    visit_ImportFrom = visit_Import
    visit_JoinedStr = visit_Import  # error messages

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if "__slots__" in names or "__all__" in names:
            return
        if self.functions:  # module and class constants are not deleted
            self._add(node, "delete statement", "pass")
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            return
        if not isinstance(test, (ast.Compare, ast.UnaryOp)):
            self._add(test, "negate condition", ast.UnaryOp(ast.Not(), test))
        self.visit(test)
        self._visit_body(node.body)
        self._visit_body(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        if not isinstance(node.test, (ast.Compare, ast.UnaryOp)):
            self._add(node.test, "negate condition", ast.UnaryOp(ast.Not(), node.test))
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        if not isinstance(node.test, (ast.Compare, ast.UnaryOp)):
            self._add(node.test, "negate condition", ast.UnaryOp(ast.Not(), node.test))
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        self._add(node, "delete statement", "pass")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._add(node, "delete statement", "pass")
        swap = BINOP_SWAPS.get(type(node.op))
        if swap is not None:
            self._add(node, "swap operator", ast.AugAssign(node.target, swap(), node.value))
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        self._add(node, "delete statement", "pass")  # the message itself is not mutated

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            self._add(node, "return None", "return None")
            self.visit(value)

    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            for swap in COMPARE_SWAPS.get(type(op), ()):
                ops = list(node.ops)
                ops[i] = swap()
                self._add(node, "swap comparison", ast.Compare(node.left, ops, node.comparators))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._add(node, "swap and/or", ast.BoolOp(other, node.values))
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swap = BINOP_SWAPS.get(type(node.op))
        if swap is not None:
            self._add(node, "swap operator", ast.BinOp(node.left, swap(), node.right))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, (ast.Not, ast.USub)):
            self._add(node, "drop unary", node.operand)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self._add(node, "change constant", repr(not value))
        elif isinstance(value, int):
            self._add(node, "change constant", repr(1 if value == 0 else 0 if value == 1 else value + 1))


def _offset(lines: list[str], line: int, col: int) -> int:
    """Character offset of (1-based line, UTF-8 byte column) in the joined source."""
    before = sum(len(text) for text in lines[: line - 1])
    return before + len(lines[line - 1].encode()[:col].decode())


def make_mutants(module: str, source: str) -> list[Mutant]:
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    collector = _Collector(lines)
    collector.visit(tree)
    mutants: list[Mutant] = []
    seen: dict[str, int] = {}
    for node, where, kind, new in collector.points:
        start = (node.lineno, node.col_offset)
        end = (node.end_lineno, node.end_col_offset)
        a, b = _offset(lines, *start), _offset(lines, *end)
        old = source[a:b]
        if isinstance(node, ast.expr) and "\n" in new:
            continue
        if isinstance(node, ast.expr) and kind != "change constant":
            new = f"({new})"  # keep precedence wherever it is spliced
        mutated = source[:a] + new + source[b:]
        try:
            compile(mutated, module, "exec")
        except SyntaxError:
            continue
        first = old.splitlines()[0] if old else old
        m = Mutant(module, len(mutants), node.lineno, where, kind, " ".join(first.split()), new, start, end)
        base = m.key  # occurrence 1's key: the plain description
        m.occurrence = seen[base] = seen.get(base, 0) + 1
        mutants.append(m)
    return mutants


def mutated_source(source: str, m: Mutant) -> str:
    lines = source.splitlines(keepends=True)
    a, b = _offset(lines, *m.start), _offset(lines, *m.end)
    return source[:a] + m.after + source[b:]


def diff_of(source: str, m: Mutant) -> str:
    new = mutated_source(source, m)
    return "".join(
        difflib.unified_diff(
            source.splitlines(keepends=True), new.splitlines(keepends=True), m.module, m.module, n=1
        )
    )
