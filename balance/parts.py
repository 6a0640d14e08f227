"""Kernel record arrays -> Arrow tables -> Parquet parts, and the card dimension table.

The writing side of a run directory (:mod:`balance.io` holds its layout and the reading
side): :func:`records_to_table` turns a kernel record array into the Parquet columns the
module docstring of :mod:`balance.io` describes, :func:`write_part` writes one chunk's part
atomically, :func:`card_dimension` builds ``cards.parquet``.
"""

from __future__ import annotations

import enum
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sims.core import CardPool

if TYPE_CHECKING:  # polars is imported by card_dimension only: a run's pool workers never load it
    import polars as pl

PART = "part-{:05d}.parquet"
# Raw cards/turns parts: lz4, measured on a 50 000-game chunk (2 M card rows) it writes 2x
# and reads 3x faster than zstd level 1, for files about 2x larger (~0.9 GB per million
# games, all tables). The small tables kept for every game (games, seats, per_game) and the
# aggregates are written compact instead: zstd, dictionary-encoded small integers, the
# ascending game id delta-encoded (see write_part).
COMPRESSION = "lz4"


def arrow_array(values: np.ndarray, mask: np.ndarray | None = None) -> pa.Array:
    """Return a 1-D numpy array of numbers or booleans as an Arrow array (``mask``: True where null).

    The same array ``pa.array(values, mask=mask)`` gives, built from the array's buffers:
    ``pa.array`` on a numpy array imports pandas (about 0.25 s), which every pool worker
    of a run would pay once for nothing. Other kinds (objects, strings) go to ``pa.array``.

    Examples
    --------
    >>> arrow_array(np.array([3, -1], np.int16)).to_pylist(), arrow_array(np.array([True, False])).type
    ([3, -1], DataType(bool))
    >>> arrow_array(np.array([1.5, 2.0]), mask=np.array([False, True])).to_pylist()
    [1.5, None]
    """
    values = np.asarray(values)
    if values.ndim != 1 or values.dtype.kind not in "iufb" or not values.dtype.isnative:
        return pa.array(values, mask=mask)
    n = len(values)
    if values.dtype.kind == "b":
        data = pa.py_buffer(np.packbits(values, bitorder="little"))
        kind = pa.bool_()
    else:
        data, kind = pa.py_buffer(np.ascontiguousarray(values)), pa.from_numpy_dtype(values.dtype)
    validity, nulls = None, 0
    if mask is not None and (nulls := int(np.count_nonzero(mask))):
        validity = pa.py_buffer(np.packbits(~np.asarray(mask, bool), bitorder="little"))
    return pa.Array.from_buffers(kind, n, [validity, data], null_count=nulls)


def string_array(values: Sequence[Any]) -> pa.Array:
    """Return ``pa.array(values)`` for a list of str (None: null), built from buffers (see :func:`arrow_array`).

    Anything else (or no str at all: ``pa.array`` types an empty or all-None list as null) goes to ``pa.array``.

    Examples
    --------
    >>> string_array(["turn", None, "räder"]).to_pylist()
    ['turn', None, 'räder']
    """
    if not all(v is None or isinstance(v, str) for v in values) or all(v is None for v in values):
        return pa.array(values)
    encoded = [b"" if v is None else v.encode() for v in values]
    offsets = np.zeros(len(encoded) + 1, np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    if offsets[-1] >= 2**31:
        return pa.array(values)
    data = pa.py_buffer(b"".join(encoded))
    validity = arrow_array(np.array([v is not None for v in values], bool)).buffers()[1]
    nulls = sum(v is None for v in values)
    return pa.Array.from_buffers(
        pa.string(), len(values), [validity if nulls else None, pa.py_buffer(offsets.astype(np.int32)), data], nulls
    )


def _column(records: np.ndarray, field: str) -> pa.Array:
    values = records[field]
    if values.ndim == 2:  # fixed-size array field -> list without -1 padding
        flat = values.ravel()
        keep = flat >= 0
        lengths = keep.reshape(values.shape).sum(axis=1)
        offsets = np.zeros(len(values) + 1, dtype=np.int32)
        np.cumsum(lengths, out=offsets[1:])
        return pa.ListArray.from_arrays(arrow_array(offsets), arrow_array(flat[keep]))
    return arrow_array(values)


def records_to_table(
    records: np.ndarray,
    *,
    enums: Mapping[str, Any] | None = None,
    names: Mapping[str, Sequence[str]] | None = None,
    constants: Mapping[str, Any] | None = None,
    drop: Sequence[str] = (),
) -> pa.Table:
    """Convert a kernel record array to an Arrow table (see module docstring).

    ``enums`` maps a column to its IntEnum (codes -> lower-case names); ``names`` maps a
    column to a sequence of labels indexed by its codes; ``constants`` adds columns with
    one value for every row (or, given an array, a column of its own); ``drop`` names fields
    left out.
    """
    columns: dict[str, pa.Array] = {}
    for field in records.dtype.names or ():
        if field in drop:
            continue
        if enums and field in enums:
            labels = [m.name.lower() for m in sorted(enums[field], key=int)]
            columns[field] = _labelled(records[field], labels)
        elif names and field in names:
            columns[field] = _labelled(records[field], list(names[field]))
        else:
            columns[field] = _column(records, field)
    for key, value in (constants or {}).items():
        if isinstance(value, np.ndarray):  # a computed column, one value per row
            columns[key] = arrow_array(value)
        elif isinstance(value, int):
            columns[key] = arrow_array(np.full(len(records), value, dtype=np.int32))
        else:
            columns[key] = _labelled(np.zeros(len(records), dtype=np.int32), [value])
    return pa.table(columns)


def columns_to_table(columns: Mapping[str, np.ndarray]) -> pa.Table:
    """Return an Arrow table of named numpy columns (object arrays hold labels and become strings).

    Examples
    --------
    >>> columns_to_table({"how": np.array(["a", "b"], dtype=object), "rows": np.array([3, 4])}).column_names
    ['how', 'rows']
    """
    out = {}
    for k, v in columns.items():
        if isinstance(v, np.ma.MaskedArray):  # masked: null (a game without a lead for good)
            out[k] = arrow_array(v.data, mask=np.ma.getmaskarray(v))
        else:
            out[k] = string_array(v.tolist()) if v.dtype == object else arrow_array(v)
    return pa.table(out)


def card_dimension(pool: CardPool, enums: Mapping[str, type[enum.Enum]] | None = None) -> pl.DataFrame:
    """Return the card dimension of ``pool``: ``card`` (id), ``name``, then its columns.

    Each numeric field of ``pool.table`` (those in ``pool.shown`` when it is set) becomes a
    column named after it (a trailing ``_`` dropped: ``def_`` -> ``def``), followed by the
    text columns of ``pool.text``.

    ``enums`` is the game's ``GameSpec.enums["card_dim"]``. Declaring it (even empty)
    asks for the labelled layout: fields it lists hold lower-case member names instead of
    codes, and a text column that shares its name with a numeric field (the field being
    the code parsed from that text, e.g. ``rank`` "jack" -> 11) keeps the name, the code
    moving to ``<name>_code`` right after it (an enum field is already a name, so a text
    column of its name is left out). Without it (``None``) the original layout stays: the
    numeric field keeps the name and the colliding text column is left out, so runs of
    games that declare nothing (Cardinger) keep the dimension they always had.

    Examples
    --------
    >>> import numpy as np
    >>> class Suit(enum.IntEnum):
    ...     HEART = 0
    ...     SPADE = 1
    >>> table = np.array([(0, 11), (1, 7)], dtype=[("suit", "i1"), ("rank", "i1")])
    >>> pool = CardPool(table, ("heart:jack", "spade:7"), {"rank": ("jack", "7")})
    >>> card_dimension(pool, {"suit": Suit}).rows()
    [(0, 'heart:jack', 'heart', 'jack', 11), (1, 'spade:7', 'spade', '7', 7)]
    >>> card_dimension(pool).columns
    ['card', 'name', 'suit', 'rank']
    """
    import polars as pl

    labelled = enums is not None
    enums = enums or {}
    text = dict(pool.text)
    columns: dict[str, Any] = {"card": pl.Series(range(len(pool)), dtype=pl.Int16), "name": list(pool.names)}
    for field in pool.table.dtype.names or ():
        if pool.shown is not None and field not in pool.shown:
            continue  # kernel encoding (e.g. Card Wars' ability fields), not a card attribute
        key, codes = field.rstrip("_"), pool.table[field]
        if field in enums:  # already names: a text column of the same name adds nothing
            labels = {int(m.value): m.name.lower() for m in enums[field]}
            columns[key] = [labels.get(int(c), str(int(c))) for c in codes]
            text.pop(key, None)
        elif labelled and key in text:
            columns[key], columns[f"{key}_code"] = list(text.pop(key)), codes
        else:
            columns[key] = codes
    for key, values in text.items():
        columns.setdefault(key, list(values))
    return pl.DataFrame(columns)


def _labelled(codes: np.ndarray, labels: Sequence[Any]) -> pa.Array:
    """Return ``labels[codes]`` as a plain Arrow array (Parquet dictionary-encodes it)."""
    dictionary = pa.DictionaryArray.from_arrays(arrow_array(codes.astype(np.int32)), string_array(list(labels)))
    return dictionary.dictionary_decode()


def _wide_integer(t: pa.DataType) -> bool:
    return pa.types.is_integer(t) and t.bit_width >= 16


def write_part(table: pa.Table, directory: Path, index: int, *, compact: bool = False, name: str = "") -> Path:
    """Write one chunk's part (or the file ``name``) atomically; rewriting the same chunk gives the same bytes.

    ``compact`` (the games, seats and per-game tables and the aggregates, kept for every
    game of a run): zstd; integer columns of 16 bits or more byte-stream-split (their
    bytes stored plane by plane, so zstd finds the mostly-zero high bytes: 8 % smaller
    than dictionaries for Cardinger's seats, and a 16-bit deck print costs 2 bytes), the
    other columns dictionary-encoded (an 8-bit flag becomes a bit or two), ``game``
    delta-encoded (an ascending id costs almost nothing). Otherwise (raw cards and turns
    rows): lz4, only strings dictionary-encoded, for write speed.
    """
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / (name or PART.format(index))
    tmp = directory / (f".{final.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    strings = [f.name for f in table.schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    if compact:
        wide = [f.name for f in table.schema if _wide_integer(f.type) and f.name != "game"]
        flat = [f.name for f in table.schema if not pa.types.is_list(f.type) and f.name not in wide]
        encoding = dict.fromkeys(wide, "BYTE_STREAM_SPLIT")
        if "game" in table.column_names:
            encoding["game"] = "DELTA_BINARY_PACKED"
            flat.remove("game")
        pq.write_table(table, tmp, compression="zstd", use_dictionary=flat, column_encoding=encoding or None)
    else:
        # Dictionary-encode only the string columns: on the integer columns it costs ~30 % of
        # the write time and zstd already shrinks them well.
        pq.write_table(table, tmp, compression=COMPRESSION, use_dictionary=strings)
    os.replace(tmp, final)
    return final
