"""The campaign store's error spans and quality control: mixed into
:class:`~bleu_core.campaigns.storage.CampaignStore`, whose transactions and access checks it uses.

Judges read their own spans and, after a tutorial item, what they missed; the organiser reads every span,
each judge's quality control (:mod:`bleu_core.campaigns.quality`) and keeps a failing judge in the analyses.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from bleu_core.campaigns import queries, span_queries
from bleu_core.campaigns.access import check_viewer_token, normalise_code
from bleu_core.campaigns.model import Campaign, CampaignError, Item
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.campaigns.quality import (
    DEFAULT_PASS_RATE,
    CheckOutcome,
    JudgeQuality,
    check_outcome,
    judge_quality,
)
from bleu_core.campaigns.schema import item_from_row


class SpanQualityMixin:
    """Spans and quality control of :class:`~bleu_core.campaigns.storage.CampaignStore`."""

    if TYPE_CHECKING:  # CampaignStore's, which this mixin uses

        def _read(self) -> AbstractContextManager[Connection]: ...
        def _write(self) -> AbstractContextManager[Connection]: ...
        def _judge_row(
            self, conn: Connection, code: str, token: object, *, lock: bool = False
        ) -> Any: ...
        def _check_key(self, conn: Connection, code: str, key: object) -> Any: ...
        def _to_campaign(self, row: Any) -> Campaign: ...
        @staticmethod
        def _check_position(campaign: Campaign, position: object) -> int: ...

    # -- error spans and quality control --------------------------------------------------------------------------
    def my_spans(self, code: str, token: str) -> dict[int, tuple[MarkedSpan, ...]]:
        """This judge's own error spans: ``{position: spans}``."""
        code = normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            return span_queries.judge_spans(conn, judge.id)

    def spans(self, code: str, key: str) -> list[StoredSpan]:
        """Every error span of the campaign with judge, group, segment and system (organiser only)."""
        code = normalise_code(code)
        with self._read() as conn:
            self._check_key(conn, code, key)
            return span_queries.campaign_spans(conn, code)

    def check_feedback(self, code: str, token: str, position: int) -> CheckOutcome | None:
        """After a judge answered tutorial item *position*: what they got right and missed (``None`` for
        any other item, whose checks stay hidden)."""
        code = normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            campaign = self._to_campaign(queries.campaign_row(conn, code))
            self._check_position(campaign, position)
            item = item_from_row(queries.item_row(conn, code, position))
            if item.kind != "tutorial":
                return None
            scores = queries.judge_ratings(conn, judge.id).get(position, {})
            spans = span_queries.judge_spans(conn, judge.id).get(position, ())
        return check_outcome(item, campaign.criteria, scores, spans, {})

    def keep_judge(self, code: str, key: str, judge: str, keep: bool = True) -> None:
        """Keep judge *judge* in the analyses although they failed the quality control, or stop keeping
        them (organiser only)."""
        code = normalise_code(code)
        with self._write() as conn:
            self._check_key(conn, code, key)
            if not span_queries.set_keep(conn, code, judge, keep):
                raise CampaignError(f"campaign {code} has no judge called {judge!r}")

    def quality(self, code: str, key: str) -> list[JudgeQuality]:
        """Every judge's quality control (pass rate, flagged, kept), in joining order (organiser only)."""
        code = normalise_code(code)
        with self._read() as conn:
            campaign = self._to_campaign(self._check_key(conn, code, key))
            items = [item_from_row(r) for r in queries.item_rows(conn, code)]
            checks = [it for it in items if it.kind != "test"]
            pass_rate = float(campaign.quality_control.get("pass_rate", DEFAULT_PASS_RATE))
            result = []
            for row in span_queries.judges_with_flags(conn, code):
                scores = queries.judge_ratings(conn, row.id) if checks else {}
                spans = span_queries.judge_spans(conn, row.id) if checks else {}
                result.append(
                    judge_quality(
                        row.name, row.group_name, checks, campaign.criteria, scores, spans,
                        kept=bool(row.qc_keep), pass_rate=pass_rate,
                    )
                )  # fmt: skip
        return result

    def class_spans(
        self, code: str, *, key: str | None = None, view: str | None = None
    ) -> tuple[list[Item], list[StoredSpan]]:
        """Every item (with its reference, for BLEU's matches) and every span of the campaign, for the
        organiser (*key*) or a view-only projector link (*view*)."""
        code = normalise_code(code)
        with self._read() as conn:
            if key is not None:
                self._check_key(conn, code, key)
            else:
                check_viewer_token(queries.campaign_row(conn, code), view)
            items = [item_from_row(r) for r in queries.item_rows(conn, code)]
            return items, span_queries.campaign_spans(conn, code)
