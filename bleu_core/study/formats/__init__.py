"""Study formats: one module per kind of file a study can be read from.

Every format reads its files through :mod:`bleu_core.io` (text, numbers in cells, "first seen" facts, folder
and zip members) and builds in short steps: read → collect → build. Adding a format means adding a module
here and one line in :mod:`bleu_core.study.loading`, which recognises it.

* :mod:`.plain_text` — one file per reference and per system (a folder, a zip, or files side by side), with
  optional source, segment list and ratings table;
* :mod:`.long_table` — one CSV/TSV table holding texts, references and ratings;
* :mod:`.mqm` — Google's MQM annotation TSV (error spans marked ``<v>…</v>``);
* :mod:`.wmt` — the WMT 2021-22 news-task release layout (``txt/sources/``, DA and MQM score files);
* :mod:`.wmt24` — the WMT24+ release layout (``txt/sources/PAIR.txt``, ``txt/references/PAIR.refA.txt``,
  ``txt/system-outputs/PAIR/SYSTEM.txt``, documents and domains, a canary line at the top of every file);
* :mod:`.genmt` (+ :mod:`.genmt_scores`, :mod:`.genmt_release`) — the WMT25/WMT26 JSON-lines layout
  (``wmt25-genmt.jsonl``, ``systems/SYS.jsonl``, paragraphs as segments, two human passes, automatic scores);
* :mod:`.esa` — ESA human scores with error spans, as Appraise exports them (WMT24 and WMT25's protocol).
* :mod:`.pearmut`, :mod:`.pearmut_study` — Pearmut's annotation log and download (WMT26's tool): UTF-16 span
  offsets, special tokens, resets, resubmissions, checks; a study of them, or their ratings added to a study.
* :mod:`.release_scores` — the organisers' automatic scores a release ships (``scores/automatic-scores.tsv``),
  attached to the study as metrics.

The layouts are described for users in ``docs/formats.md``.
"""
