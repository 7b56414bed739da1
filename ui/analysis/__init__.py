"""The analysis pages: Corpus, BLEU vs human, Significance, Judges, Correlation, Metric ranking, Export.

``frames`` / ``charts``              corpus table, regression points, normalised (Figure 7) and density charts.
``relate``                           linear fits and segment-level pairs of BLEU and human scores.
``stats_frames`` / ``stats_charts``  intervals, blocks, verdict matrices, judges and subset charts.
``significance_data``                Significance: the metric menu, cached bootstrap / blocks / randomisation.
``ranking``                          Metric ranking: cached rankings with clusters, findings table, LaTeX.
``metric_pairs``                     two metrics' correlations compared (Williams, permutation).
``correlation_cache``                Correlation: cached system- and segment-level correlations.
``judges_cache``                     Judges: cached raters and same-judge comparisons (no BLEU setting).

May import: ``bleu_core`` and :mod:`ui.app`.
"""
