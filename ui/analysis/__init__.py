"""The analysis pages: Corpus, BLEU vs human, Significance, Judges, Correlation, Metric ranking, Export.

``frames`` / ``charts``              corpus table, regression points, normalised (Figure 7) and density charts.
``relate``                           the core's linear fit and correlations worded for captions; rated pairs.
``stats_frames`` / ``stats_charts``  intervals, blocks, verdict matrices, judges and subset charts.
``significance_data``                Significance: the metric menu, cached bootstrap / blocks / randomisation.
``randomisation_view``               Significance: approximate randomisation of every pair of systems.
``ranking``                          Metric ranking: cached rankings with clusters, findings table, LaTeX.
``ranking_extras``                   Metric ranking: chance lines, human ceiling, explainers, a release.
``release_ceiling``                  Metric ranking, release view: each column's human ceiling.
``error_free_view``                  Metric ranking: every metric as an error-free detector (WMT26), PR chart.
``human_passes``                     Correlation, Export: two raters of an item: ceiling of every statistic, disagreements.
``metric_pairs``                     two metrics' correlations compared (Williams, permutation).
``correlation_cache``                Correlation: cached system- and segment-level correlations.
``correlation_table``                Correlation: the table of BLEU against a criterion, its chart, its notes.
``correlation_lines``                each correlation's chance line (random, constant metric): Correlation, Metrics.
``reference_subsets``                Correlation: BLEU with every subset of the references (paper §3).
``judges_cache``                     Judges: cached raters and same-judge comparisons (no BLEU setting).
``domains``                          per-domain tables and fits; BLEU vs human by sentence, document, corpus.
``reference_scores``                 Corpus: the reference's own human score (rated like a system, WMT24+).
``export_zip``                       Export: the study's reproducible zip (also class mode's end-of-class zip).

May import: ``bleu_core`` and :mod:`ui.app`.
"""
