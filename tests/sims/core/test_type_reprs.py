"""sims.core.type_reprs: a record type's repr built once per type, the same string."""

import warnings

import numba
import numpy as np
import pytest
from numba.core.types import npytypes

from sims.core import type_reprs

DTYPE = np.dtype([("a", np.int8), ("b", np.int16, (3,)), ("c", np.dtype([("x", np.int64), ("y", np.float32)]), (2,))])


def test_a_records_repr_is_numbas_and_built_once():
    import sims.core.jit  # noqa: F401

    rec = numba.from_dtype(DTYPE)
    nested = rec.fields["c"].type
    assert isinstance(nested, npytypes.NestedArray)
    original = type_reprs._state["original"]
    hits, built = type_reprs.counts()
    first = repr(rec)
    assert first == original[npytypes.Record](rec)
    assert repr(nested) == original[npytypes.NestedArray](nested)
    assert "offset" in first
    again = repr(rec)
    assert again is first  # the remembered string
    assert type_reprs.counts()[0] >= hits + 1
    assert type_reprs.counts()[1] > built
    arr = numba.typeof(np.zeros(2, DTYPE))
    assert str(arr) == arr.name  # names are not reprs: untouched


def test_a_collected_type_is_forgotten():
    import gc

    import sims.core.jit  # noqa: F401

    rec = npytypes.Record.make_c_struct([("p", numba.int32), ("q", numba.float64)])
    repr(rec)
    key = id(rec)
    assert key in type_reprs._reprs
    del rec
    gc.collect()
    found = type_reprs._reprs.get(key)
    assert found is None or found[0]() is not None  # never a dead entry handed out for a new object


def test_the_patch_is_active_in_every_game():
    import sims.core.jit  # noqa: F401

    assert numba.__version__ in type_reprs.CHECKED
    assert type_reprs.installed()
    assert type_reprs._source_hash() == type_reprs.CHECKED[numba.__version__]
    assert npytypes.Record.__repr__ is not type_reprs._state["original"][npytypes.Record]


def test_an_unchecked_numba_gets_a_warning_and_numbas_own_reprs(monkeypatch):
    import sims.core.jit  # noqa: F401

    numbas = type_reprs._state["original"][npytypes.Record]
    type_reprs.uninstall()
    try:
        assert npytypes.Record.__repr__ is numbas
        monkeypatch.setattr(type_reprs, "CHECKED", {})
        with pytest.warns(RuntimeWarning, match="not the ones this patch was checked against"):
            assert not type_reprs.install()
        assert not type_reprs.installed()
        assert npytypes.Record.__repr__ is numbas
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert type_reprs.install()
