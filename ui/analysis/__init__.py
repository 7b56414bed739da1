"""The analysis pages: Corpus, BLEU vs human, Significance, Judges, Correlation, Export.

``frames`` / ``charts``              corpus table, regression points, normalised (Figure 7) and density charts.
``relate``                           linear fits and segment-level pairs of BLEU and human scores.
``stats_frames`` / ``stats_charts``  intervals, blocks, verdict matrices, judges and subset charts.

May import: ``bleu_core`` and :mod:`ui.app`.
"""
