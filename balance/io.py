"""Run directories: their layout, the manifest and chunk log, and reading a run back (:class:`Run`).

Writing parts and the card dimension: :mod:`balance.parts`.

Layout of ``runs/<run_id>/`` (DESIGN.md: Results dataset)::

    manifest.json        spec, root seed, chunking, rules_version, versions, per-chunk status
    chunks.jsonl         while a run is going: one line per finished chunk (see read_manifest)
    params.json          the rule parameters by name
    cards.parquet        card dimension: card (id), name, the pool's columns (see card_dimension)
    bots.parquet         seat, bot, bot_id, weights (JSON)
    games/part-NNNNN.parquet   one part per chunk (likewise seats/ and, when recorded, cards/, turns/)
    agg_cards/part-NNNNN.parquet   the chunk's sufficient statistics (balance.aggregates), likewise
                         agg_hands/, agg_tempo/, agg_order/, agg_steps/, agg_levels/, per_game/

Parquet columns are the kernel record fields (``GameSpec.tables``) with these changes:
enum-coded columns (``GameSpec.enums``) become strings, ``seats.bot`` becomes the bot
name, fixed-size array fields (``seats.deck``) become lists without their -1 padding
(a run with sums keeps them for its first games only, and a 16-bit ``seats.deck_fp`` and
the ``agg_decks`` digests for every game: ``balance.fingerprints``), and ``games`` gains
``run_id``, ``variant`` and ``chunk``. ``games.seed`` is not stored when it is
``game_seed(root_seed, game)`` for every game (the manifest's ``derived`` says so): it
is recomputed on reading (:func:`seed_expr`). Parts are written to a temporary name and
renamed when complete, so a reader never sees a torn file.

``manifest["layout"]`` says what each table directory holds: ``raw`` (every row),
``raw sample`` (the rows of the first ``raw_sample`` games) or ``aggregate``. Runs made
before aggregates existed have only raw tables and read as before.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sims
from balance.parts import write_part
from sims.core import TABLES

if TYPE_CHECKING:  # polars is imported where a run is read, so that a run's pool workers never load it (~0.1 s)
    import polars as pl

MANIFEST = "manifest.json"
CHUNK_LOG = "chunks.jsonl"  # append-only: one JSON line per chunk finished since the manifest was written
MERGED = "merged.parquet"  # an aggregate's parts summed into one once the run is complete (Sums.compact)
COMPACT = ("games", "seats", "per_game")
DIGESTS = ("x0", "x1")  # aggregate columns merged by XOR (agg_decks: balance.fingerprints), not summed


class Sums:
    """A run's sufficient statistics (``balance.aggregates``), each table merged over its chunks on first use.

    ``frame(name)`` returns the merged table (sums over chunks per key), or None when the
    run does not have it; ``per_game`` scans the per-game table lazily.
    """

    def __init__(self, path: Path, layout: Mapping[str, Any]) -> None:
        """Open the aggregate tables listed in ``layout`` (name -> {"keys": [...]}) under ``path``."""
        self.path = path
        self.keys = {name: tuple(v.get("keys", ())) for name, v in layout.items()}
        self._merged: dict[str, pl.DataFrame | None] = {}

    def __contains__(self, name: str) -> bool:
        """Return whether the run has aggregate table ``name``."""
        return name in self.keys

    def _parts(self, name: str) -> list[Path]:
        merged = self.path / name / MERGED
        return [merged] if merged.is_file() else sorted((self.path / name).glob("part-*.parquet"))

    def compact(self) -> None:
        """Merge each summed table's chunk parts into one part (``merged.parquet``), then delete the parts.

        Done once every chunk is finished: the merged part is the very frame the parts give
        (:meth:`frame`), so the figures do not change, while the files no longer grow with
        the chunks (about 1.5 bytes a game at 50 000-game chunks) and the report opens one
        file per table. Crash-safe: the merged part is written atomically before any part
        is deleted, and once it exists the parts left are ignored.
        """
        for name in self.keys:
            frame = self.frame(name)
            if frame is None or (self.path / name / MERGED).is_file():
                continue
            parts = self._parts(name)
            write_part(frame.to_arrow(), self.path / name, 0, compact=True, name=MERGED)
            for part in parts:
                part.unlink()

    def frame(self, name: str) -> pl.DataFrame | None:
        """Return aggregate ``name`` summed over the run's chunks by its keys (sorted by them), or None.

        Digest columns (:data:`DIGESTS`) are merged by XOR instead.
        """
        import polars as pl

        if name not in self.keys or name == "per_game":
            return None
        if name not in self._merged:
            parts = self._parts(name)
            keys = list(self.keys[name])
            if not parts:
                self._merged[name] = None
            else:
                lf = pl.scan_parquet(parts)
                values = [c for c in lf.collect_schema().names() if c not in keys]
                sums = [pl.col(c).bitwise_xor() if c in DIGESTS else pl.col(c).sum() for c in values]
                merged = lf.group_by(keys).agg(sums).sort(keys) if keys else lf.select(sums)
                self._merged[name] = merged.collect()
        return self._merged[name]

    @property
    def per_game(self) -> pl.LazyFrame | None:
        """Return the per-game values (lead changes, lead for good, steps) as a lazy scan, or None."""
        import polars as pl

        parts = self._parts("per_game") if "per_game" in self.keys else []
        return pl.scan_parquet(parts) if parts else None


@dataclass(frozen=True)
class Run:
    """A results dataset on disk, opened lazily.

    ``games``/``seats``/``cards``/``turns`` are ``pl.LazyFrame`` scans over the parts
    (``None`` when the table was switched off); ``card_dim`` is the card dimension table.
    """

    path: Path
    manifest: dict[str, Any]
    games: pl.LazyFrame
    seats: pl.LazyFrame
    cards: pl.LazyFrame | None
    turns: pl.LazyFrame | None
    card_dim: pl.DataFrame
    sums: Sums | None = None  # sufficient statistics (None: a run made with --no-aggregates, or an old run)

    @property
    def raw_sample(self) -> int | None:
        """Return N when the cards/turns tables hold only the rows of the first N games (``--raw-sample``)."""
        layout = self.manifest.get("layout") or {}
        sample = self.manifest.get("raw_sample") or 0
        sampled = any(str(layout.get(t, "")).startswith("raw sample") for t in ("cards", "turns"))
        return int(sample) if sampled and sample else None

    @property
    def name(self) -> str:
        """Return the run id."""
        return str(self.manifest.get("run_id", self.path.name))

    @property
    def turn_unit(self) -> str:
        """Return what one row of ``turns`` is: ``turn`` or e.g. ``battle`` (``GameSpec.turn_unit``).

        Read from the manifest; runs made before it was recorded there ask the game's
        ``GameSpec`` when the game is still registered, else fall back to ``turn``.
        """
        unit = self.manifest.get("turn_unit")
        if isinstance(unit, str) and unit:
            return unit
        game = self.manifest.get("game")
        if game in sims.GAMES:
            try:
                return sims.load(game).turn_unit
            except (ImportError, AttributeError):  # a game module that no longer imports
                pass
        return "turn"

    @property
    def n_seats(self) -> int:
        """Return how many seats a game of this run has (1 for a solitaire game such as CardRPG).

        Read from the manifest (``seats``, recorded at run time); runs made before it was
        recorded count the distinct seats of the ``seats`` table, and an empty table asks
        the game's ``GameSpec`` when the game is still registered (else 2).
        """
        import polars as pl

        seats = self.manifest.get("seats")
        if isinstance(seats, int) and not isinstance(seats, bool) and seats > 0:
            return seats
        counted = int(self.seats.select(pl.col("seat").n_unique()).collect().item())
        if counted > 0:
            return counted
        game = self.manifest.get("game")
        if game in sims.GAMES:
            try:
                return int(sims.load(game).seats)
            except (ImportError, AttributeError):
                pass
        return 2

    @property
    def solitaire(self) -> bool:
        """Return whether the game has one seat: no opponent, no winner, outcomes in ``games``."""
        return self.n_seats == 1


class RunError(ValueError):
    """A run directory is missing, incomplete or not a run."""


def load_run(path: Path | str) -> Run:
    """Open the run at ``path``; raise ``RunError`` if it is not a complete run."""
    import polars as pl

    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise RunError(f"{path}: not a run directory (no {MANIFEST})")
    try:
        manifest = read_manifest(path)
    except json.JSONDecodeError as exc:
        raise RunError(f"{manifest_path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    pending = [c["index"] for c in manifest.get("chunks", []) if c.get("status") != "done"]
    if pending:
        raise RunError(f"{path}: run is incomplete ({len(pending)} chunks missing); finish it with --resume {path}")
    frames: dict[str, pl.LazyFrame | None] = {}
    for table in TABLES:
        parts = sorted((path / table).glob("part-*.parquet"))
        frames[table] = flag_sorted(pl.scan_parquet(parts)) if parts else None
    if frames["games"] is None or frames["seats"] is None:
        raise RunError(f"{path}: run has no games")
    games = frames["games"]
    if "seed" in (manifest.get("derived") or {}).get("games", []):
        root = int(manifest["root_seed"])
        games = games.with_columns(seed_expr(root).alias("seed")).select(_game_order(games, manifest))
    aggregates = manifest.get("aggregates")
    return Run(
        path=path,
        manifest=manifest,
        games=games,
        seats=frames["seats"],
        cards=frames["cards"],
        turns=frames["turns"],
        card_dim=pl.read_parquet(path / "cards.parquet"),
        sums=Sums(path, aggregates) if isinstance(aggregates, Mapping) and aggregates else None,
    )


def flag_sorted(lf: pl.LazyFrame, column: str = "game") -> pl.LazyFrame:
    """Return ``lf`` with ``column`` flagged sorted when its values never decrease (checked: one pass over it).

    A run's tables are in game order (chunk parts in order, rows in play order), so a join
    of two of them on ``game`` can merge the sorted keys instead of hashing: about half the
    time of the joins a report makes (seats to games, seat to seat). The flag is set only
    after reading the column and finding it ascending; the results are those without it.

    Examples
    --------
    >>> import polars as pl
    >>> flag_sorted(pl.LazyFrame({"game": [0, 0, 1]})).collect()["game"].flags["SORTED_ASC"]
    True
    >>> flag_sorted(pl.LazyFrame({"game": [1, 0]})).collect()["game"].flags["SORTED_ASC"]
    False
    """
    import polars as pl

    if column not in lf.collect_schema().names():
        return lf
    ascending = lf.select((pl.col(column).diff() >= 0).all()).collect().item()
    return lf.set_sorted(column) if ascending else lf


def _game_order(games: pl.LazyFrame, manifest: Mapping[str, Any]) -> list[str]:
    """Return the games columns with ``seed`` back in its place (after ``game``) when it was derived."""
    names = [c for c in games.collect_schema().names() if c != "seed"]
    at = names.index("game") + 1 if "game" in names else 0
    return [*names[:at], "seed", *names[at:]]


_GOLDEN, _M1, _M2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _mix64(z: pl.Expr) -> pl.Expr:
    """Return the splitmix64 finaliser of a UInt64 expression (polars multiplies UInt64 modulo 2**64)."""
    import polars as pl

    z = (z ^ (z // (1 << 30))) * pl.lit(_M1, pl.UInt64)
    z = (z ^ (z // (1 << 27))) * pl.lit(_M2, pl.UInt64)
    return z ^ (z // (1 << 31))


def seed_expr(root_seed: int, game: str = "game") -> pl.Expr:
    """Return ``sims.core.rng.game_seed(root_seed, game)`` as a polars expression over the ``game`` column.

    The same splitmix64 hash the kernels seed each game with, so a derived seed column
    equals the one the kernel would have written (tested against the kernel).

    Examples
    --------
    >>> import polars as pl
    >>> pl.DataFrame({"game": [0, 1]}).select(seed_expr(1).alias("seed"))["seed"].to_list()
    [11385487063155714807, 658006869215568080]
    """
    import polars as pl

    g = pl.col(game).cast(pl.UInt64)
    inner = _mix64(g * pl.lit(_GOLDEN, pl.UInt64) + pl.lit(_GOLDEN, pl.UInt64))
    return _mix64(pl.lit(root_seed, pl.UInt64) ^ inner)


def read_manifest(run_dir: Path | str) -> dict[str, Any]:
    """Return the run's manifest with the chunks its log says are finished marked so.

    A run writes ``manifest.json`` once at the start (every chunk pending) and once at the
    end; in between, each finished chunk appends one line to ``chunks.jsonl`` after its
    parts are in place (O(1) per chunk instead of rewriting the manifest: O(chunks²)). A
    line cut short by a crash (no newline, or not JSON) is ignored: its chunk is played
    again on resume. Raises ``json.JSONDecodeError`` for a broken manifest.
    """
    run_dir = Path(run_dir)
    manifest = json.loads((run_dir / MANIFEST).read_text())
    log = run_dir / CHUNK_LOG
    if not log.is_file() or not isinstance(manifest.get("chunks"), list):
        return manifest
    chunks = {c.get("index"): c for c in manifest["chunks"] if isinstance(c, dict)}
    for line in log.read_bytes().split(b"\n")[:-1]:  # the last piece has no newline: torn or empty
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("index") in chunks:
            chunks[entry["index"]].update(entry)
    return manifest


def log_chunk(run_dir: Path, entry: Mapping[str, Any]) -> None:
    """Append one finished chunk's entry to the run's chunk log in one write (see :func:`read_manifest`)."""
    line = (json.dumps(entry, default=str, separators=(",", ":")) + "\n").encode()
    fd = os.open(run_dir / CHUNK_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def settle_manifest(run_dir: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest`` (the log merged into it) and drop the chunk log: the manifest alone says it all.

    Written first, then the log removed, so a crash between the two leaves a log whose
    lines only repeat what the manifest says.
    """
    write_json(run_dir / MANIFEST, manifest)
    (run_dir / CHUNK_LOG).unlink(missing_ok=True)


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` as JSON atomically (temporary file, then rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False, default=str) + "\n")
    os.replace(tmp, path)
