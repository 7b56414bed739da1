"""Every session-state key of the app, in one place, grouped by page.

Streamlit keeps per-browser-session values in ``st.session_state``. Pages never spell a key as a string
literal: they import the constant from here, so a key has one owner, one meaning and one default.

Keys that are widget keys (``key=`` of a widget) are listed in :data:`PERSISTENT_WIDGET_KEYS`: Streamlit
deletes a widget's state when a run does not draw the widget (for example after switching to another
page); :func:`keep_widget_state` re-assigns those keys at the top of every run so they survive page changes.

The keys come in sections: first **shared** (the session, the open study, the sidebar's settings, what
several pages read), then **one section per page**, in the navigation's order (Study, Explore, Learn BLEU,
BLEU vs error spans, Corpus, BLEU vs human, Significance, Judges, Correlation, Metrics, Published tables,
Metric ranking, Export, Campaigns, Rate translations, Projector). Each section declares its keys, then
right below them adds their defaults to :data:`DEFAULTS` and its widget keys that must survive page
changes to :data:`PERSISTENT_WIDGET_KEYS`. A new key goes into the section of the page that owns it; a key
that several pages read goes under shared; a new page gets a section of its own.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Final

DEFAULTS: Final[dict[str, Any]] = {}
"""Default of every key that has one (keys absent here start unset); each section adds its own."""

PERSISTENT_WIDGET_KEYS: list[str] = []
"""Widget keys whose values must survive page switches; each section adds its own."""


def init_state(state: MutableMapping[str, Any]) -> None:
    """Set every key of :data:`DEFAULTS` that is not set yet (lists are copied, never shared).

    >>> s = {"opt_max_order": 2}
    >>> init_state(s)
    >>> s["opt_max_order"], s["opt_tokenize"], s["study"] is None
    (2, '13a', True)
    """
    for key, value in DEFAULTS.items():
        if key not in state:
            state[key] = list(value) if isinstance(value, list) else value


def keep_widget_state(state: MutableMapping[str, Any]) -> None:
    """Re-assign the persistent widget keys so Streamlit does not drop them when a page is left.

    >>> s = {"opt_smooth": "floor"}
    >>> keep_widget_state(s)
    >>> s
    {'opt_smooth': 'floor'}
    """
    for key in PERSISTENT_WIDGET_KEYS:
        if key in state:
            state[key] = state[key]


# ================================================================================================
# Shared by every page
# ================================================================================================

# --- the session --------------------------------------------------------------------------------
READY: Final = "app_ready"
"""Set by ``app.py`` on every run: pages use it to notice they were started without the entry point."""
BOUNDARY_RETRY: Final = "app_boundary_retry"
"""Widget: the "Try again" button of the error boundary (ui/app/boundary.py)."""
PRESENT: Final = "app_present"
"""Widget: presentation mode of Learn BLEU and the projector (large type for a lecture hall; bool), kept in
the address as ``?present=1`` so a reload keeps it (ui/app/presentation.py)."""
DEFAULTS.update({READY: True})

# --- the open study (opened on the Study page or by app.py, read by every page) ------------------
STUDY: Final = "study"
"""The open :class:`bleu_core.study.Study`."""
STUDY_KEY: Final = "study_key"
"""Hashable identity of the open study for caches: ``"demo:<name>"`` or ``"upload:<sha256>"``."""
STUDY_LABEL: Final = "study_label"
"""Human-readable origin of the open study (demo name or uploaded file names)."""
STUDY_WARNINGS: Final = "study_warnings"
"""Warnings (list of str) returned by the loader for the open study."""
STUDY_INPUTS: Final = "study_inputs"
"""Input files of the open study: list of dicts ``{"name", "bytes", "sha256"}`` (for the export)."""
STUDY_ERROR: Final = "study_error"
"""Message of the last failed load (str) or None: shown on the Study page."""
STUDY_OPENED: Final = "study_opened"
"""The open study as loaded, its load warnings and the reference views built so far
(:class:`ui.app.references.OpenedStudy`); ``STUDY`` is the view for the sidebar's reference choice."""
DEFAULT_STUDY_TRIED: Final = "default_study_tried"
"""True once app.py tried to open the default demo in this session."""
DEFAULTS.update(
    {
        STUDY: None,
        STUDY_KEY: None,
        STUDY_LABEL: "",
        STUDY_WARNINGS: [],
        STUDY_INPUTS: [],
        STUDY_ERROR: None,
    }
)

# --- BLEU settings (sidebar widgets; persist across pages) ---------------------------------------
OPT_TOKENIZE: Final = "opt_tokenize"
OPT_LOWERCASE: Final = "opt_lowercase"
OPT_MAX_ORDER: Final = "opt_max_order"
OPT_WEIGHTS: Final = "opt_weights"
"""Weights as text: ``""`` for uniform, else comma-separated numbers (one per order)."""
OPT_REF_LENGTH: Final = "opt_ref_length"
OPT_SMOOTH: Final = "opt_smooth"
OPT_SMOOTH_VALUE: Final = "opt_smooth_value"
"""Smoothing value as text: ``""`` for the method's default."""
OPT_EFFECTIVE_ORDER: Final = "opt_effective_order"
OPT_REFERENCES: Final = "opt_references"
"""Widget: the human translations used as reference streams (list of names; the others are human
systems, see :mod:`ui.app.references`); empty means the loader's choice."""
OPT_TOKENIZE_LANGUAGE: Final = "opt_tokenize_language"
"""The target language whose default tokenizer (sacrebleu's choice: ja-mecab, ko-mecab, zh, else 13a) the
sidebar last applied; a study of another target language sets it again
(:func:`ui.app.settings.follow_target_language`)."""
OPTION_KEYS: Final = (
    OPT_TOKENIZE,
    OPT_LOWERCASE,
    OPT_MAX_ORDER,
    OPT_WEIGHTS,
    OPT_REF_LENGTH,
    OPT_SMOOTH,
    OPT_SMOOTH_VALUE,
    OPT_EFFECTIVE_ORDER,
)
"""The sidebar's BLEU-setting keys (reset together by "Reset to defaults")."""
DEFAULTS.update(
    {
        OPT_TOKENIZE: "13a",
        OPT_LOWERCASE: False,
        OPT_MAX_ORDER: 4,
        OPT_WEIGHTS: "",
        OPT_REF_LENGTH: "closest",
        OPT_SMOOTH: "exp",
        OPT_SMOOTH_VALUE: "",
        OPT_EFFECTIVE_ORDER: False,
        OPT_REFERENCES: [],
    }
)
PERSISTENT_WIDGET_KEYS += [*OPTION_KEYS, OPT_REFERENCES]

# --- reproducibility (every resampling page and the Export page) ---------------------------------
SEED: Final = "seed"
"""Seed of every resampling procedure (int)."""
N_RESAMPLES: Final = "n_resamples"
"""Number of bootstrap resamples (int)."""
EXPORT_REGISTRY: Final = "export_registry"
"""Tables and charts drawn in this session, ``{(kind, name): value}``, offered in the export zip."""
DEFAULTS.update({SEED: 12345, N_RESAMPLES: 1000})
PERSISTENT_WIDGET_KEYS += [SEED, N_RESAMPLES]

# --- system-level analyses (Corpus, BLEU vs human, Significance, Judges, Correlation, Metrics…) ---
INCLUDE_HUMANS: Final = "include_humans"
"""Whether human translations (``study.human_systems``) are included in system-level analyses: out by
default, as the command line (``--include-human``) and WMT's meta-evaluation leave them out."""
DEFAULTS.update({INCLUDE_HUMANS: False})
PERSISTENT_WIDGET_KEYS += [INCLUDE_HUMANS]
CRITERION: Final = "criterion"
"""The human criterion chosen last on any page (Explore, BLEU vs human, Judges, Correlation, Metrics):
each page's criterion select box starts on it (:mod:`ui.app.criterion`). Unset, a page opens on the
first of :func:`bleu_core.study.criterion_order.criteria_order` (the standardised criterion where the
study has it); opening another study and "Reset to defaults" unset it."""

# --- the sidebar's domain choice (every analysis page; ui/app/domains.py) --------------------------
OPT_DOMAIN: Final = "opt_domain"
"""Widget: the domain every analysis page is restricted to (``""`` = all domains); offered only for a
study whose segments name at least two domains."""
DOMAIN_RECORD: Final = "domain_record"
"""The open study's domains and the domain views built so far (:class:`ui.app.domains.DomainRecord`)."""
DEFAULTS.update({OPT_DOMAIN: ""})
PERSISTENT_WIDGET_KEYS += [OPT_DOMAIN]

# --- "Reset to defaults" (the sidebar's button) ---------------------------------------------------
RESET_KEYS: Final = (
    *OPTION_KEYS,
    OPT_REFERENCES,
    OPT_TOKENIZE_LANGUAGE,
    OPT_DOMAIN,
    SEED,
    N_RESAMPLES,
    INCLUDE_HUMANS,
    CRITERION,
)
"""Every setting that changes a number on more than one page: the sidebar's BLEU settings, the
references, the domain, the seed and resamples, human translations in or out, the criterion.
"Reset to defaults" sets each back to :data:`DEFAULTS` (or unsets it when it has no default)."""


# ================================================================================================
# One section per page
# ================================================================================================

# --- Study page (pages/study.py, ui/study/) -----------------------------------------------------
STUDY_UPLOAD_NONCE: Final = "study_upload_nonce"
"""Counter bumped after each load so the file uploader starts empty again."""
STUDY_UPLOAD_PREFIX: Final = "study_upload_"
"""Prefix of the file uploader's key (followed by the nonce)."""
STUDY_UPLOAD_ROLE_PREFIX: Final = "study_upload_role_"
"""Prefix of the upload form's role select boxes: ``f"{prefix}{nonce}_{file name}"``."""
STUDY_DEMO_CHOICE: Final = "study_demo_choice"
STUDY_PAIR: Final = "study_pair"
"""Language pair chosen for an upload of several pairs (select box of the release's pairs)."""
METRIC_UPLOAD_PREFIX: Final = "metric_upload_"
"""Prefix of the Study page's metric-score uploader: ``f"{prefix}{nonce}"`` (a new nonce empties it)."""
METRIC_UPLOAD_NONCE: Final = "metric_upload_nonce"
"""The metric-score uploader's nonce (int): raised after the scores are attached."""
METRIC_UPLOAD_LOWER: Final = "metric_upload_lower"
"""Widget: names of uploaded metrics that are better when lower, beyond TER, WER... (comma-separated)."""
METRIC_UPLOAD_ERROR: Final = "metric_upload_error"
"""The last metric-score upload's error (str, naming the file and line) or None."""
METRIC_UPLOAD_NOTICE: Final = "metric_upload_notice"
"""What the last metric-score upload attached (str) or None."""
DEFAULTS.update(
    {
        STUDY_UPLOAD_NONCE: 0,
        METRIC_UPLOAD_NONCE: 0,
        METRIC_UPLOAD_LOWER: "",
        METRIC_UPLOAD_ERROR: None,
        METRIC_UPLOAD_NOTICE: None,
    }
)
PERSISTENT_WIDGET_KEYS += [METRIC_UPLOAD_LOWER]

# --- Explore page (pages/explore.py, ui/explore/) -----------------------------------------------
EXPLORE_SYSTEMS: Final = "explore_systems"
EXPLORE_DOCS: Final = "explore_docs"
EXPLORE_SORT: Final = "explore_sort"
EXPLORE_DESCENDING: Final = "explore_descending"
EXPLORE_CRITERION: Final = "explore_criterion"
EXPLORE_SEARCH: Final = "explore_search"
EXPLORE_BLEU_RANGE: Final = "explore_bleu_range"
EXPLORE_PAGE: Final = "explore_page"
EXPLORE_SEGMENT: Final = "explore_segment"
"""Id of the segment shown in detail (str) or None."""
EXPLORE_ORDER: Final = "explore_order"
"""N-gram order highlighted in the detail view (int)."""
EXPLORE_FOCUS_SYSTEM: Final = "explore_focus_system"
"""System of the row last selected in the browser (its n-grams are listed)."""
EXPLORE_TABLE: Final = "explore_table"
"""Selection state of the segment browser table."""
EXPLORE_PICKED: Final = "explore_picked"
"""The browser table's selection last acted on (tuple of row positions): a selection that stays the same
while the rows move (sort, filter, settings) is not read again, so the detail view keeps its segment id."""
EXPLORE_NGRAM_SYSTEM: Final = "explore_ngram_system"
EXPLORE_NGRAM_TABLE: Final = "explore_ngrams"
"""Selection state of the n-gram table."""
EXPLORE_SPAN_RATERS: Final = "explore_span_raters"
"""Widget: the raters whose MQM error spans Explore draws and counts (list; empty = every rater)."""
EXPLORE_RATED_ONLY: Final = "explore_rated_only"
"""Widget: Explore lists only the translations with a rating of the chosen criterion (bool)."""
DEFAULTS.update(
    {
        EXPLORE_RATED_ONLY: False,
        EXPLORE_SORT: "disagreement",
        EXPLORE_DESCENDING: True,
        EXPLORE_SEARCH: "",
        EXPLORE_PAGE: 1,
        EXPLORE_SEGMENT: None,
        EXPLORE_ORDER: 1,
        EXPLORE_BLEU_RANGE: (0.0, 100.0),
    }
)
PERSISTENT_WIDGET_KEYS += [
    EXPLORE_SYSTEMS,
    EXPLORE_DOCS,
    EXPLORE_SORT,
    EXPLORE_DESCENDING,
    EXPLORE_CRITERION,
    EXPLORE_SEARCH,
    EXPLORE_BLEU_RANGE,
    EXPLORE_PAGE,
    EXPLORE_ORDER,
    EXPLORE_SPAN_RATERS,
    EXPLORE_RATED_ONLY,
]

# --- Learn BLEU page (pages/learn.py) -----------------------------------------------------------
LEARN_EXAMPLE: Final = "learn_example"
LEARN_CANDIDATE: Final = "learn_candidate"
LEARN_REFERENCES: Final = "learn_references"
LEARN_USE_SIDEBAR: Final = "learn_use_sidebar"
"""Widget: Learn BLEU uses the sidebar's settings (off: the paper's, no smoothing) (bool)."""
LEARN_QUIZ: Final = "learn_quiz"
"""Widget: quiz mode, p_n, BP and BLEU hidden until revealed (bool)."""
LEARN_REVEALED: Final = "learn_revealed"
"""The example (a digest of candidate and references) whose numbers the quiz has revealed, or None."""
LEARN_GUESS: Final = "learn_guess"
"""Widget: the class's prediction of BLEU (0-1) during the quiz, or None."""
LEARN_GUESS_PN_PREFIX: Final = "learn_guess_p"
"""Widget: the class's prediction of the modified precision p_n (0-1) during the quiz,
``f"{LEARN_GUESS_PN_PREFIX}{n}"``, or None."""
LEARN_GUESS_BP: Final = "learn_guess_bp"
"""Widget: the class's prediction of the brevity penalty (0-1) during the quiz, or None."""
DEFAULTS.update({LEARN_EXAMPLE: 0, LEARN_USE_SIDEBAR: False, LEARN_QUIZ: False})
PERSISTENT_WIDGET_KEYS += [LEARN_EXAMPLE, LEARN_CANDIDATE, LEARN_REFERENCES, LEARN_USE_SIDEBAR]

# --- BLEU vs error spans page (pages/error_spans.py) --------------------------------------------
SPANS_SEVERITY: Final = "spans_severity"
"""Widget: which spans count as errors on the "BLEU vs error spans" page ("" = any severity)."""
SPANS_ORDER: Final = "spans_order"
"""Widget: the max order at which a token counts as matched on that page (1-4)."""
SPANS_SYSTEM: Final = "spans_system"
"""Widget: the system whose tables by severity and category are shown ("" = all systems)."""
SPANS_REWARDED_TABLE: Final = "spans_rewarded_table"
"""Selection state of that page's "most rewarded errors" table (a selected row opens Explore)."""
SPANS_PENALISED_TABLE: Final = "spans_penalised_table"
"""Selection state of that page's "most penalised correct words" table."""
SPANS_WEIGHTED: Final = "spans_weighted"
"""Widget: span-level scores of BLEU's unmatched words weighted by severity (True) or not."""
DEFAULTS.update({SPANS_SEVERITY: "", SPANS_ORDER: 1, SPANS_SYSTEM: "", SPANS_WEIGHTED: False})
PERSISTENT_WIDGET_KEYS += [SPANS_SEVERITY, SPANS_ORDER, SPANS_SYSTEM, SPANS_WEIGHTED]
SPANS_WMT25_SEVERITY: Final = "spans_wmt25_severity"
"""Widget: the severity BLEU's unmatched words claim in WMT25's span scores (minor, major, by-order)."""
SPANS_WMT25_UPLOAD: Final = "spans_wmt25_upload"
"""Widget: a WMT25 span TSV of predictions uploaded on that page, scored against the study's spans."""
DEFAULTS.update({SPANS_WMT25_SEVERITY: "minor"})
PERSISTENT_WIDGET_KEYS += [SPANS_WMT25_SEVERITY]

# --- Corpus page (pages/corpus.py): INCLUDE_HUMANS only (shared, above) ---------------------------

# --- BLEU vs human page (pages/bleu_vs_human.py) ------------------------------------------------
BVH_CRITERION: Final = "bvh_criterion"
BVH_GROUPS: Final = "bvh_groups"
BVH_LABELS: Final = "bvh_labels"
"""Widget: write every system's name in the scatters (None until the page sets it from the system count)."""
BVH_METRIC: Final = "bvh_metric"
"""Widget: the metric the BLEU vs human page sets against the human scores (default BLEU)."""
DEFAULTS.update({BVH_METRIC: "BLEU"})
PERSISTENT_WIDGET_KEYS += [BVH_CRITERION, BVH_GROUPS, BVH_LABELS, BVH_METRIC]
BVH_GRANULARITY: Final = "bvh_granularity"
"""Widget: the granularity of the page's "sentence, document, corpus" chart (``document`` first: the
segment level has a section of its own; a study without documents falls back to ``sentence``)."""
DEFAULTS.update({BVH_GRANULARITY: "document"})
PERSISTENT_WIDGET_KEYS += [BVH_GRANULARITY]

# --- Significance page (pages/significance.py) --------------------------------------------------
SIG_BLOCKS: Final = "sig_blocks"
"""Widget: number of blocks on the Significance page (paper: 20)."""
SIG_BLOCK_SIZE: Final = "sig_block_size"
"""Widget: segments per block (default 0 = every segment, in blocks differing by at most one; paper: 25)."""
SIG_TRIALS: Final = "sig_trials"
"""Widget: approximate-randomisation trials."""
SIG_ALPHA: Final = "sig_alpha"
"""Widget: significance level of the paired tests."""
SIG_PAIR: Final = "sig_pair"
"""Widget: the pair of systems whose bootstrap differences are drawn (list of two names)."""
SIG_AR_ON: Final = "sig_ar_on"
"""Widget: run the Significance page's approximate randomisation on a large study (on demand there)."""
SIG_METRIC: Final = "sig_metric"
"""Widget: the metric the Significance page resamples (BLEU, chrF..., or an attached one with segment scores)."""
DEFAULTS.update(
    {
        SIG_BLOCKS: 20,
        SIG_BLOCK_SIZE: 0,
        SIG_TRIALS: 10000,
        SIG_ALPHA: 0.05,
        SIG_AR_ON: False,
        SIG_METRIC: "BLEU",
    }
)
PERSISTENT_WIDGET_KEYS += [
    SIG_BLOCKS,
    SIG_BLOCK_SIZE,
    SIG_TRIALS,
    SIG_ALPHA,
    SIG_PAIR,
    SIG_AR_ON,
    SIG_METRIC,
]

# --- Judges page (pages/judges.py) --------------------------------------------------------------
JUDGE_CRITERION: Final = "judge_criterion"
"""Widget: human criterion on the Judges page (starts on the shared :data:`CRITERION`)."""
JUDGE_GROUPS: Final = "judge_groups"
"""Widget: rater groups on the Judges page (empty = all)."""
PERSISTENT_WIDGET_KEYS += [JUDGE_CRITERION, JUDGE_GROUPS]

# --- Correlation page (pages/correlation.py) ----------------------------------------------------
CORR_CRITERION: Final = "corr_criterion"
"""Widget: human criterion on the Correlation page (starts on the shared :data:`CRITERION`)."""
CORR_FIRST_METRIC: Final = "corr_first_metric"
"""Widget: the first metric of the Correlation page's Williams test (default BLEU)."""
CORR_OTHER_METRIC: Final = "corr_other_metric"
"""Widget: the metric BLEU is compared with by the Williams / permutation tests."""
CORR_DRAWS: Final = "corr_draws"
"""Widget: number of random single-reference draws on the Correlation page."""
DEFAULTS.update({CORR_FIRST_METRIC: "BLEU", CORR_DRAWS: 100})
PERSISTENT_WIDGET_KEYS += [CORR_CRITERION, CORR_FIRST_METRIC, CORR_OTHER_METRIC, CORR_DRAWS]

# --- Metrics page (pages/metrics.py, ui/metrics/) -----------------------------------------------
MET_METRICS: Final = "met_metrics"
"""Widget: metrics compared on the Metrics page (list of registry names)."""
MET_CRITERION: Final = "met_criterion"
"""Widget: human criterion shown in the Metrics page's chart and Williams test (starts on the shared
:data:`CRITERION`)."""
MET_WILLIAMS: Final = "met_williams"
"""Widget: the two metrics compared by the Williams test (list of two names)."""
MET_EXPLORER_SYSTEM: Final = "met_explorer_system"
"""Widget: system scored by the parameter explorer."""
MET_EXPLORER_CHOICES: Final = "met_explorer_choices"
"""Prefix of the explorer's option widgets: ``f"{MET_EXPLORER_CHOICES}_{option}"``."""
MET_BABYCH_ON: Final = "met_babych_on"
"""Widget: compute Babych & Hartley's Tables 1-3 on the Metrics page (several seconds on the TED demo)."""
PERSISTENT_WIDGET_KEYS += [MET_METRICS, MET_CRITERION, MET_WILLIAMS, MET_EXPLORER_SYSTEM]

# --- Published tables page (pages/published.py) -------------------------------------------------
# Not kept across pages: a table chosen there starts afresh on the next visit.
PUB_SOURCE: Final = "pub_source"
"""Widget: bundled example or uploaded file."""
PUB_EXAMPLE: Final = "pub_example"
"""Widget: the bundled example table (file name under ``data/examples``)."""
PUB_UPLOAD: Final = "pub_upload"
"""Widget: the uploaded system table."""
PUB_METHODS: Final = "pub_methods"
"""Widget: the correlation methods shown."""
PUB_CRITERIA_PREFIX: Final = "pub_criteria"
"""Prefix of the criteria widget's key, followed by ``-`` and a digest of the table: each table starts
from the default rule."""
PUB_PAIRS: Final = "pub_pairs"
"""Widget: the (metric, criterion) pairs drawn."""
PUB_LANGUAGE_PAIR: Final = "pub_language_pair"
"""Widget: the language pair read from a WMT scores table of several pairs (``automatic-scores.tsv``)."""

# --- Metric ranking page (pages/metric_ranking.py) ----------------------------------------------
RANK_METRICS: Final = "rank_metrics"
"""Widget: the metrics computed here that the Metric ranking page ranks (attached ones always are)."""
RANK_STATISTICS: Final = "rank_statistics"
"""Widget: the statistics of the Metric ranking page (names of ``bleu_core.evaluation.clusters.STATISTICS``)."""
RANK_CRITERIA: Final = "rank_criteria"
"""Widget: the human criteria the Metric ranking page ranks against (empty = every criterion)."""
RANK_ALPHA: Final = "rank_alpha"
"""Widget: the significance level of the ranking's clusters."""
RANK_EPSILON: Final = "rank_epsilon"
"""Widget: the tie threshold ε of the Metric ranking page's acc*_eq explainer (BLEU points)."""
RANK_CEILING_OTHER: Final = "rank_ceiling_other"
"""Widget: the second criterion the Metric ranking page's human ceiling compares with ("" = none)."""
RANK_RELEASE: Final = "rank_release"
"""Widget: compute the two-pair (TED demos) release view on the Metric ranking page."""
RANK_ERROR_FREE_GROUP: Final = "rank_error_free_group"
"""Widget: the translations of the error-free detection section ("all" or "domain NAME")."""
DEFAULTS.update({RANK_ALPHA: 0.05, RANK_RELEASE: False})
PERSISTENT_WIDGET_KEYS += [RANK_METRICS, RANK_STATISTICS, RANK_CRITERIA, RANK_ALPHA, RANK_RELEASE]

# --- Export page (pages/export.py) --------------------------------------------------------------
EXPORT_INCLUDE_VIEWED: Final = "export_include_viewed"

# --- Campaigns page (organisers; pages/campaigns.py, ui/campaigns/) -----------------------------
CAMP_CODE: Final = "camp_code"
"""Code of the campaign the organiser has open (str) or None."""
CAMP_KEY: Final = "camp_key"
"""Organiser key of that campaign (str) or None; kept only in this browser session."""
CAMP_NEW_KEY: Final = "camp_new_key"
"""``(code, key)`` of a campaign just created, shown once with a warning to note the key down."""
CAMP_FORM_CODE: Final = "camp_form_code"
"""Widget: campaign code typed to open a campaign."""
CAMP_FORM_KEY: Final = "camp_form_key"
"""Widget: organiser key typed to open a campaign."""
CAMP_AGREEMENT_GROUP: Final = "camp_agreement_group"
"""Widget: rater group the agreement section is computed on ('all judges' or a group name)."""
CAMP_NOTICE: Final = "camp_notice"
"""One-shot message for the organiser (str) shown on the next run, or None."""
CAMP_TAB: Final = "camp_tab"
"""Widget: the open tab of the Campaigns page ("New campaign" or "Manage a campaign")."""
CAMP_TAB_NEXT: Final = "camp_tab_next"
"""Tab to open on the next run (set after creating or opening a campaign), or absent."""
CLASS_SYSTEMS: Final = "class_systems"
"""Widget: number of systems of a lesson campaign (paper: 5)."""
CLASS_SEGMENTS: Final = "class_segments"
"""Widget: number of segments of a lesson campaign."""
CLASS_GROUPS: Final = "class_groups"
"""Widget: split the class into the paper's monolingual and bilingual groups (bool)."""
CAMP_PROTOCOL: Final = "camp_protocol"
"""Widget: the protocol of a new campaign (``adequacy-fluency``, ``esa`` or ``da``)."""
CAMP_CLASS_PROTOCOL: Final = "camp_class_protocol"
"""Widget: the protocol of a new lesson (class mode: ``esa`` or ``adequacy-fluency``)."""
CLASS_READS: Final = "class_reads"
"""Widget: what the class reads ("target", "source" or "both"; bleu_core.campaigns.lesson.READS)."""
CLASS_STUDENTS: Final = "class_students"
"""Widget: how many students the class has (sizes the lesson so that r settles)."""
COOKIE_WRITES: Final = "cookie_writes"
"""Cookie name → (value being written, runs left) of class mode's memory (ui/campaigns/browser_memory.py):
a changed cookie is written in a few runs, not in every run of the session."""
CAMP_KEY_SHOWN: Final = "camp_key_shown"
"""Widget: the teacher's "for your eyes only" switch that shows a lesson's organiser key (class mode); off on
every new session, so the key is never on a page until the teacher asks for it."""
CAMP_LESSONS: Final = "camp_lessons"
"""The lessons this browser remembers (``"CODE:key"`` entries, latest first; ui/campaigns/browser_memory.py),
read from its cookie on first use, or None before that."""
CAMP_PEARMUT_FILES: Final = "camp_pearmut_files"
"""Widget: Pearmut files uploaded to import as a campaign (ui/campaigns/pearmut_import.py)."""
CAMP_PEARMUT_IMPORT: Final = "camp_pearmut_import"
"""Widget: the button that imports the uploaded Pearmut files."""
DEFAULTS.update(
    {
        CAMP_CODE: None,
        CAMP_KEY: None,
        CAMP_NEW_KEY: None,
        CAMP_NOTICE: None,
        CLASS_SYSTEMS: 5,
        CLASS_SEGMENTS: 10,
        CLASS_GROUPS: False,
        CLASS_READS: "target",
        CLASS_STUDENTS: 20,
    }
)

# --- Rate translations page (judges; pages/rate.py) ---------------------------------------------
# The judge's progress lives in the campaign database, not here: these keys only say who the judge is in
# this browser session.
RATE_CODE: Final = "rate_code"
"""Campaign code the judge is rating in (str) or None."""
RATE_TOKEN: Final = "rate_token"
"""The judge's resume code (``"<id>-<secret>"``) or None; also put in the URL so a reload resumes."""
RATE_JOIN_CODE: Final = "rate_join_code"
"""Widget: campaign code typed on the join form."""
RATE_JOIN_NAME: Final = "rate_join_name"
"""Widget: judge name typed on the join form."""
RATE_JOIN_GROUP: Final = "rate_join_group"
"""Widget: rater group chosen on the join form."""
RATE_ANONYMOUS: Final = "rate_anonymous"
"""Widget: join a campaign without giving a name (a class's students)."""
RATE_RESUME_CODE: Final = "rate_resume_code"
"""Widget: resume code typed on the resume form."""
RATE_SCORE_PREFIX: Final = "rate_score_"
"""Prefix of the per-item score widgets: ``f"{RATE_SCORE_PREFIX}{position}_{criterion index}"``."""
RATE_NOTICE: Final = "rate_notice"
"""One-shot message for the judge (str) shown on the next run, or None."""
RATE_CLIENT_ID: Final = "rate_client_id"
"""A random id of this browser session: who counts as one client for the join / resume attempt limit when
the server sees no IP address (str, made on first use)."""
RATE_FAILED_LOOKUP: Final = "rate_failed_lookup"
"""The last campaign code typed that was not found, and its (escaped) message: shown again on re-runs
without another look-up or another counted attempt (``(code, message)`` or None)."""
RATE_REMEMBERED: Final = "rate_remembered"
"""The resume codes this browser remembers (latest first; ui/campaigns/browser_memory.py), read from its
cookie on first use, or None before that."""
RATE_SCROLL_TO_ITEM: Final = "rate_scroll_to_item"
"""The item changed (saved, skipped, moved): bring its top into view on the next run (bool)."""
RATE_MARKS_PREFIX: Final = "rate_marks_"
"""ESA: the spans a judge has marked on an item and not saved yet, ``f"{RATE_MARKS_PREFIX}{position}"``
(a list of ``MarkedSpan.to_dict()``; ui/campaigns/esa_marking.py)."""
RATE_WORDS_PREFIX: Final = "rate_words_"
"""ESA: widget, the words chosen for the next span, ``f"{RATE_WORDS_PREFIX}{position}_{version}"``."""
RATE_SLIDER_PREFIX: Final = "rate_slider_"
"""ESA / DA: widget, the 0-100 slider of an item, ``f"{RATE_SLIDER_PREFIX}{position}"``."""
RATE_FEEDBACK: Final = "rate_feedback"
"""What the judge missed on the tutorial item just saved (a ``CheckOutcome``), shown once, or None."""
RATE_TOUCHED_PREFIX: Final = "rate_touched_"
"""ESA / DA: the judge gave a score on item *position* (moved the slider or chose "No errors: score 100"),
``f"{RATE_TOUCHED_PREFIX}{position}"`` (bool; ui/campaigns/esa_marking.py). No score is saved without it."""
RATE_SAVE_FOR: Final = "rate_save_for"
"""ESA / DA: the position of the item whose "Save and next" was tapped (set by the button's callback), or
absent: a late second tap names the item it was meant for."""
RATE_NOTICE_SAVED: Final = "rate_notice_saved"
"""1-5: the message of a second Save that found its item already saved, shown once on the next item."""
RATE_DRAFT: Final = "rate_draft"
"""ESA and cESA: this browser's unsaved marks (and scores) of the screen (its item, or a contrastive
sentence's translations), as its cookie holds them (ui/campaigns/browser_memory.py), ``""`` for none, or None
before the cookie is read."""
RATE_CESA_SCORE_PREFIX: Final = "rate_cesa_score_"
"""Contrastive ESA: widget, the 0-100 score of one translation of the screen (``"?"`` until chosen),
``f"{RATE_CESA_SCORE_PREFIX}{position}"`` (ui/campaigns/contrastive_rating.py)."""
DEFAULTS.update({RATE_CODE: None, RATE_TOKEN: None, RATE_NOTICE: None, RATE_FEEDBACK: None})

# --- Projector page (class mode; pages/projector.py) --------------------------------------------
PROJ_CODE: Final = "proj_code"
"""Code of the campaign the projector dashboard shows (str) or None."""
PROJ_KEY: Final = "proj_key"
"""Organiser key of that campaign (str) or None; taken out of the address once read."""
PROJ_FROZEN: Final = "proj_frozen"
"""The dashboard is frozen for discussion: no automatic refresh (bool)."""
PROJ_FORM_CODE: Final = "proj_form_code"
"""Widget: campaign code typed on the projector's sign-in form."""
PROJ_FORM_KEY: Final = "proj_form_key"
"""Widget: organiser key typed on the projector's sign-in form."""
PROJ_VIEW: Final = "proj_view"
"""View-only token of the campaign the projector shows (str) or None: its link keeps it in the address."""
PROJ_RESULTS: Final = "proj_results"
"""Widget: the projector shows the results view (r and the line in large type, no QR code) (bool)."""
LESSON_STUDY_FOLLOWED: Final = "lesson_study_followed"
"""The lesson codes whose study this session has reopened (a set; ui/campaigns/lesson_study.py): once per
lesson, so a study the teacher opens afterwards is left alone."""
LESSON_STUDY_OPENED: Final = "lesson_study_opened"
"""The source of the lesson study just reopened (ui/campaigns/lesson_study.py), said in a toast on the next run."""
PROJ_ESA_ITEM: Final = "proj_esa_item"
"""Widget: in an ESA lesson, the position of the segment whose marks the projector shows (int)."""
PROJ_TIMER_MINUTES: Final = "proj_timer_minutes"
"""Widget: minutes of the rating timer the teacher sets on the projector."""
PROJ_TIMER_SECONDS: Final = "proj_timer_seconds"
"""Widget: seconds added to the minutes of the rating timer (0-59)."""
PROJ_CESA_SEGMENT: Final = "proj_cesa_segment"
"""Widget: in a contrastive ESA lesson, the sentence whose pairwise preferences the projector shows."""
DEFAULTS.update({PROJ_CODE: None, PROJ_KEY: None, PROJ_FROZEN: False})
