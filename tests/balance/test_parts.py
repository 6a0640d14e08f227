"""Writing parts: Arrow arrays built from numpy buffers are those pa.array gives, and a chunk never imports pandas."""

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from balance.parts import arrow_array, columns_to_table, string_array

NUMPY = [
    np.array([1, -2, 3], np.int8),
    np.array([1, 2**40], np.int64),
    np.array([7, 0], np.uint16),
    np.array([2**63], np.uint64),
    np.array([True, False, True] * 5),
    np.array([1.5, -0.25], np.float32),
    np.zeros(0, np.int32),
    np.arange(10, dtype=np.int16)[::3],  # not contiguous
    np.arange(6, dtype=np.int32).reshape(2, 3)[:, 1],  # a column of a 2-D array
]


@pytest.mark.parametrize("values", NUMPY, ids=lambda v: f"{v.dtype}-{len(v)}")
def test_arrow_array_is_what_pa_array_gives(values):
    got, want = arrow_array(values), pa.array(values)
    assert got.type == want.type
    assert got.equals(want)


def test_arrow_array_mask_gives_nulls_like_pa_array():
    values, mask = np.array([4, -1, 6, -1], np.int32), np.array([False, True, False, True])
    got = arrow_array(values, mask=mask)
    assert got.equals(pa.array(values, mask=mask))
    assert got.null_count == 2
    assert arrow_array(values, mask=np.zeros(4, bool)).equals(pa.array(values))


def test_arrow_array_hands_other_kinds_to_pa_array():
    assert arrow_array(np.array(["a", "b"])).equals(pa.array(np.array(["a", "b"])))


@pytest.mark.parametrize("values", [["turn", "round", "turn"], ["a", None, "räder"], [], [None, None], [1, 2]])
def test_string_array_is_what_pa_array_gives(values):
    got, want = string_array(values), pa.array(values)
    assert got.type == want.type
    assert got.equals(want)


def test_columns_to_table_keeps_masked_and_label_columns():
    table = columns_to_table(
        {
            "grain": np.array(["turn", "round"], dtype=object),
            "good": np.ma.masked_equal(np.array([3, -1], np.int32), -1),
            "count": np.array([5, 6]),
        }
    )
    assert table.to_pydict() == {"grain": ["turn", "round"], "good": [3, None], "count": [5, 6]}


def test_a_chunk_written_in_a_fresh_process_does_not_import_pandas(tmp_path):
    code = (
        "import importlib, sys\n"
        "from pathlib import Path\n"
        "from balance.spec import RunSpec\n"
        "run = importlib.import_module('balance.run')\n"
        "spec = RunSpec(game='cardinger', n_games=40, seed=3, workers=1)\n"
        f"run.play_chunk_to_parts(spec, Path({str(tmp_path)!r}), 'r', 0, 0, 40)\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert (tmp_path / "games" / "part-00000.parquet").is_file()
