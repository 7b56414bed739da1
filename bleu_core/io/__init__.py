"""The input boundary: every byte bleu-study reads from a file comes in here.

One module per job, each the only place that does it:

=====================  ==========================================================================================
:mod:`.text`           bytes → text → lines: UTF-8 with located errors, the byte-order mark, the ``\\r`` rule,
                       the size cap (MiB, one message), NUL and line-length checks; ``read_text``/``read_lines``
:mod:`.cells`          ``number(cell, file=, line=, column=)``: a number in a table cell, one message;
                       ``json_cell``: JSON in a cell or a JSON-lines line (too deep: a message, no traceback)
:mod:`.csv_rows`       ``read_csv_rows``: CSV/TSV rows with the line each starts on, quoting read strictly
:mod:`.first_seen`     ``FirstSeen``: "one key, one value" — a different value than on line N is an error
:mod:`.members`        ``FileTree`` and ``open_tree``: the files of a folder, a zip (no links, no ``..``, no
                       bombs) or an upload, read through ``.text``
=====================  ==========================================================================================

It sits in the engine layer and imports only :mod:`bleu_core.errors` and :mod:`bleu_core.limits`, so the
``score`` command, every study format and the statistics tables can all read through it.

>>> from bleu_core.io import MemoryTree, number
>>> tree = MemoryTree({"scores.tsv": b"A\\t0.5\\r\\nB\\t0.25\\r\\n"})
>>> [number(row.split("\\t")[1], file="scores.tsv", line=i) for i, row in enumerate(tree.read_lines("scores.tsv"), 1)]
[0.5, 0.25]
"""

from bleu_core.io.cells import is_plain_number, json_cell, number
from bleu_core.io.csv_rows import read_csv_rows
from bleu_core.io.first_seen import FirstSeen
from bleu_core.io.members import (
    FileTree,
    FolderTree,
    MemoryTree,
    SubTree,
    ZipTree,
    is_symlink,
    iter_suffix,
    open_tree,
    single_top_folder,
)
from bleu_core.io.text import (
    BOM_MESSAGE,
    DEFAULT_MAX_BYTES,
    check_blank_lines,
    check_size,
    decode_text,
    has_bom,
    mebibytes,
    read_file_bytes,
    read_lines,
    read_text,
    split_lines,
    text_from_bytes,
)

__all__ = [
    "BOM_MESSAGE",
    "DEFAULT_MAX_BYTES",
    "FileTree",
    "FirstSeen",
    "FolderTree",
    "MemoryTree",
    "SubTree",
    "ZipTree",
    "check_blank_lines",
    "check_size",
    "decode_text",
    "has_bom",
    "is_plain_number",
    "json_cell",
    "is_symlink",
    "iter_suffix",
    "mebibytes",
    "number",
    "open_tree",
    "read_csv_rows",
    "read_file_bytes",
    "read_lines",
    "read_text",
    "single_top_folder",
    "split_lines",
    "text_from_bytes",
]
