"""sims.core.ir_copy: copy.deepcopy of Numba IR on a fast path, the same copy (objects and sharing)."""

import copy

from numba.core import compiler, ir

from sims.core import ir_copy


def _sample(a, n):
    total = 0
    for i in range(n):
        v = a[i % a.shape[0]]
        if v > total:
            total += v * 2
        else:
            total -= (v, i)[0]
    return total, len(a)


def _same(a, b, seen) -> None:
    """``a`` (copy.deepcopy's) and ``b`` (ir_copy's) are the same graph: types, values and sharing."""
    if a is b:
        return
    if id(a) in seen:
        assert seen[id(a)] is b
        return
    seen[id(a)] = b
    assert type(a) is type(b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y, seen)
    elif isinstance(a, dict):
        assert len(a) == len(b)
        for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):
            _same(ka, kb, seen)
            _same(va, vb, seen)
    elif hasattr(a, "__dict__") and not isinstance(a, type):
        _same(vars(a), vars(b), seen)
    else:
        assert a == b


def test_the_copy_of_a_functions_blocks_is_copy_deepcopys():
    blocks = list(compiler.run_frontend(_sample).blocks.values())
    assert ir_copy.active()
    before = ir_copy.counts()
    theirs, ours = copy.deepcopy(blocks, {}), ir_copy.deepcopy(blocks, {})
    assert ir_copy.counts() > before + 100  # the fast path copied them
    _same(theirs, ours, {})
    assert [str(s) for blk in ours for s in blk.body] == [str(s) for blk in blocks for s in blk.body]
    scopes = {id(blk.scope) for blk in ours}
    assert len(scopes) == 1  # one memo: the scope copied once, shared by every block as in the original
    assert all(blk.scope is not blocks[0].scope for blk in ours)
    var = next(s.target for blk in ours for s in blk.body if isinstance(s, ir.Assign))
    assert var.scope is ours[0].scope


def test_other_objects_are_copied_by_copy_itself():
    class Slotted:
        __slots__ = ("x",)

        def __init__(self, x):
            self.x = x

    class Custom:
        def __init__(self):
            self.items = [1, 2]

        def __reduce_ex__(self, protocol):
            return (Custom, ())

    s, c = Slotted([3]), Custom()
    shared = [s, s, c, (1, "a"), {"k": [s]}, {4, 5}]
    out = ir_copy.deepcopy(shared)
    assert out[0] is out[1] is out[4]["k"][0]
    assert out[0] is not s
    assert out[0].x == [3]
    assert out[0].x is not s.x
    assert isinstance(out[2], Custom)
    assert out[3] is shared[3]  # a tuple of atoms is its own copy, as with copy.deepcopy
    assert out[5] == {4, 5}
    assert not ir_copy._is_plain(Slotted)
    assert not ir_copy._is_plain(Custom)
    assert ir_copy._is_plain(ir.Assign)
    assert ir_copy._is_plain(ir.Loc)


def test_on_an_unchecked_python_it_is_copy_deepcopy(monkeypatch):
    monkeypatch.setitem(ir_copy._state, "active", None)
    monkeypatch.setattr(ir_copy, "CHECKED", {})
    assert not ir_copy.active()
    before = ir_copy.counts()
    blocks = list(compiler.run_frontend(_sample).blocks.values())
    out = ir_copy.deepcopy(blocks, {})
    assert ir_copy.counts() == before
    _same(copy.deepcopy(blocks, {}), out, {})
    monkeypatch.setitem(ir_copy._state, "active", None)
    monkeypatch.undo()
    assert ir_copy.active()
