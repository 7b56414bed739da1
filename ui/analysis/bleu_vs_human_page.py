"""The BLEU vs human page's one door into ``ui.analysis``: everything ``pages/bleu_vs_human.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis.charts import normalised_chart, regression_scatter, segment_density
from ui.analysis.cluster_view import reference_scatter, render_ranks
from ui.analysis.correlation_cache import bleu_system_correlations
from ui.analysis.domains import render_bvh_domains
from ui.analysis.frames import binned_counts, fit_line, fit_row, normalised_frame, system_points
from ui.analysis.relate import describe_fit, linear_fit, segment_correlation, segment_pairs
from ui.app.context import analysis_caption

__all__ = [
    "analysis_caption",
    "binned_counts",
    "bleu_system_correlations",
    "describe_fit",
    "fit_line",
    "fit_row",
    "linear_fit",
    "normalised_chart",
    "normalised_frame",
    "reference_scatter",
    "regression_scatter",
    "render_bvh_domains",
    "render_ranks",
    "segment_correlation",
    "segment_density",
    "segment_pairs",
    "system_points",
]
