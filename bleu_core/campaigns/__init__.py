"""Human rating campaigns: judges rate translations as in the BLEU paper's §4, ratings feed the analyses.

Build a :class:`~bleu_core.campaigns.planning.CampaignPlan` (from texts with
:func:`~bleu_core.campaigns.planning.plan_campaign`, or from a study with
:func:`~bleu_core.campaigns.integration.plan_from_study`), store it with
:class:`~bleu_core.campaigns.storage.CampaignStore`, let judges :meth:`~CampaignStore.join` and
:meth:`~CampaignStore.rate`, then measure agreement (:mod:`bleu_core.campaigns.agreement`, summed up per criterion by
:mod:`bleu_core.campaigns.report`) and turn the ratings into
study ratings (:mod:`bleu_core.campaigns.integration`).

A campaign's protocol (:mod:`~bleu_core.campaigns.protocols`) is the paper's adequacy + fluency, ESA (error spans
and a 0-100 score, as WMT since 2024) or DA; :mod:`~bleu_core.campaigns.qc_items` mixes in tutorial items and
attention checks and :mod:`~bleu_core.campaigns.quality` scores them; :mod:`~bleu_core.campaigns.exports` writes
Appraise's ESA CSV and JSONL; :mod:`~bleu_core.campaigns.migrate` keeps the database's schema current (Alembic).
"""

from bleu_core.campaigns.agreement import (
    AlphaResult,
    JudgeCalibration,
    PairwiseAgreement,
    judge_calibration,
    krippendorff_alpha,
    pairwise_correlation,
    reliability_data,
)
from bleu_core.campaigns.integration import (
    apply_to_study,
    plan_from_study,
    ratings_digest,
    ratings_to_csv,
    spreadsheet_safe,
    study_criterion_name,
    to_study_ratings,
)
from bleu_core.campaigns.model import (
    DISPLAY_MODES,
    PAPER_LABELS,
    AccessDenied,
    AlreadySaved,
    Campaign,
    CampaignError,
    Item,
    Judge,
    JudgeAccess,
    JudgeProgress,
    RatingCriterion,
    StoredRating,
)
from bleu_core.campaigns.planning import (
    DEFAULT_GROUPS,
    CampaignPlan,
    criteria_from_choices,
    default_criteria,
    plan_campaign,
    split_names,
    with_protocol,
)
from bleu_core.campaigns.protocols import (
    CLASS_PROTOCOLS,
    PROTOCOLS,
    MarkedSpan,
    StoredSpan,
    protocol_criteria,
)
from bleu_core.campaigns.qc_items import add_quality_control
from bleu_core.campaigns.quality import JudgeQuality
from bleu_core.campaigns.rate_limit import AttemptLimiter, TooManyAttempts
from bleu_core.campaigns.report import CriterionAgreement, agreement_report
from bleu_core.campaigns.sampling import dispersed_order, min_same_source_gap, sample_segments
from bleu_core.campaigns.session import JudgeSession
from bleu_core.campaigns.storage import (
    CampaignCreated,
    CampaignStore,
    display_database_url,
    resolve_database_url,
)

__all__ = [
    "CLASS_PROTOCOLS",
    "DEFAULT_GROUPS",
    "DISPLAY_MODES",
    "PAPER_LABELS",
    "PROTOCOLS",
    "AccessDenied",
    "AlphaResult",
    "AlreadySaved",
    "AttemptLimiter",
    "Campaign",
    "CampaignCreated",
    "CampaignError",
    "CampaignPlan",
    "CampaignStore",
    "CriterionAgreement",
    "Item",
    "Judge",
    "JudgeAccess",
    "JudgeCalibration",
    "JudgeQuality",
    "JudgeProgress",
    "JudgeSession",
    "MarkedSpan",
    "PairwiseAgreement",
    "RatingCriterion",
    "StoredRating",
    "StoredSpan",
    "TooManyAttempts",
    "add_quality_control",
    "agreement_report",
    "apply_to_study",
    "criteria_from_choices",
    "default_criteria",
    "dispersed_order",
    "display_database_url",
    "judge_calibration",
    "krippendorff_alpha",
    "min_same_source_gap",
    "pairwise_correlation",
    "plan_campaign",
    "plan_from_study",
    "protocol_criteria",
    "ratings_digest",
    "ratings_to_csv",
    "reliability_data",
    "resolve_database_url",
    "sample_segments",
    "split_names",
    "spreadsheet_safe",
    "study_criterion_name",
    "to_study_ratings",
    "with_protocol",
]
