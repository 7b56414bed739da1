"""One judge at work: the rating loop the Rate page runs (and the load test drives), without any UI.

A :class:`JudgeSession` is rebuilt from ``(store, code, token)`` on every page run; all state that matters (where
the judge is, what they rated) lives in the database, so closing the tab or restarting the server loses nothing.

>>> from bleu_core.campaigns.storage import CampaignStore
>>> from bleu_core.campaigns.planning import plan_campaign
>>> store = CampaignStore("sqlite://")
>>> plan = plan_campaign(name="demo", study_name="toy", segment_ids=["s1", "s2"],
...                      translations={"A": ["a one", "a two"], "B": ["b one", "b two"]},
...                      sources=None, references=None, systems=["A", "B"], n_segments=2, seed=0)
>>> code = store.create_campaign(plan).campaign.code
>>> session = JudgeSession.join(store, code, "Ana", "monolingual")
>>> session.position, session.n_items
(0, 4)
>>> session.submit(0, {"adequacy": 4, "fluency": 3})
1
>>> session.skip(1)
2
>>> session.back()
1
>>> session.progress()
(1, 1, 4)
>>> again = JudgeSession.from_resume_code(store, session.resume_code)   # e.g. in another browser
>>> again.judge.name, again.position
('Ana', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bleu_core.campaigns.model import AccessDenied, Campaign, Item, Judge
from bleu_core.campaigns.protocols import MarkedSpan
from bleu_core.campaigns.quality import CheckOutcome
from bleu_core.campaigns.storage import CampaignStore


class JudgeSession:
    """A judge's view of one campaign: the current item, submit / skip / back / jump, progress."""

    def __init__(self, store: CampaignStore, code: str, token: str) -> None:
        self.store = store
        self.token = token
        self.judge: Judge = store.resume(code, token)  # raises AccessDenied for a bad token
        self.code = self.judge.campaign_code
        self.campaign: Campaign = store.get_campaign(self.code)
        # this judge's ratings, read once until the session writes (see _my_ratings)
        self._mine: dict[int, dict[str, int]] | None = None

    @classmethod
    def join(cls, store: CampaignStore, code: str, name: str, group: str) -> JudgeSession:
        """Join *code* as a new judge and return their session (``session.token`` is the resume code)."""
        access = store.join(code, name, group)
        return cls(store, access.judge.campaign_code, access.token)

    @classmethod
    def from_resume_code(cls, store: CampaignStore, resume_code: str) -> JudgeSession:
        """The session of the judge whose resume code (``"<campaign code>-<token>"``) this is."""
        code, sep, token = (resume_code or "").strip().partition("-")
        if not sep or not code or not token:
            raise AccessDenied(
                "this resume code is not complete; it looks like K7P2QX-12-… (campaign code, then your token)"
            )
        return cls(store, code, token)

    @property
    def resume_code(self) -> str:
        """What the judge keeps to come back later: ``"<campaign code>-<token>"``."""
        return f"{self.code}-{self.token}"

    @property
    def n_items(self) -> int:
        return self.campaign.n_items

    @property
    def position(self) -> int:
        """Where the judge is (``n_items`` = past the last item), as stored."""
        return self.judge.cursor

    @property
    def finished(self) -> bool:
        return self.position >= self.n_items

    def item(self, position: int | None = None) -> Item | None:
        """The item at *position* (default: the current one) as this judge may see it; ``None`` past the end."""
        pos = self.position if position is None else position
        if pos >= self.n_items:
            return None
        return self.store.item(self.code, self.token, pos)

    def _my_ratings(self) -> dict[int, dict[str, int]]:
        """This judge's stored ratings, read from the database once until this session writes: a page run
        asks for them several times (progress, the item's scores, the navigation)."""
        if self._mine is None:
            self._mine = self.store.my_ratings(self.code, self.token)
        return self._mine

    def scores(self, position: int) -> dict[str, int]:
        """This judge's stored scores for *position* (empty if not rated)."""
        return dict(self._my_ratings().get(position, {}))

    def _moved(self, position: int) -> int:
        self._mine = None  # a write: read the ratings again when asked
        self.judge = Judge(
            self.judge.id,
            self.judge.campaign_code,
            self.judge.name,
            self.judge.group,
            self.judge.created_at,
            position,
        )
        return position

    def submit(
        self,
        position: int,
        scores: Mapping[str, int],
        spans: Sequence[MarkedSpan] | None = None,
        *,
        at_cursor: bool = False,
    ) -> int:
        """Save (or change) the scores (and, in an ESA campaign, the error *spans*) of item *position*; move
        to the next item and return its position. With *at_cursor*, only if *position* is the item the judge
        is on (:meth:`CampaignStore.rate`: a repeated save raises :class:`AlreadySaved`)."""
        nxt = self.store.rate(self.code, self.token, position, scores, spans, at_cursor=at_cursor)
        return self._moved(nxt)

    def spans(self, position: int) -> tuple[MarkedSpan, ...]:
        """This judge's stored error spans of *position* (empty if none)."""
        return self.store.my_spans(self.code, self.token).get(position, ())

    def feedback(self, position: int) -> CheckOutcome | None:
        """After a tutorial item: what the judge missed (``None`` for other items)."""
        return self.store.check_feedback(self.code, self.token, position)

    def skip(self, position: int) -> int:
        """Skip item *position* and move on."""
        return self._moved(self.store.skip(self.code, self.token, position))

    def back(self) -> int:
        """Go to the previous item (stays at 0)."""
        return self.go_to(max(self.position - 1, 0))

    def go_to(self, position: int) -> int:
        """Jump to *position* (0 .. n_items)."""
        return self._moved(self.store.move(self.code, self.token, position))

    def first_unrated(self) -> int | None:
        """The first item not fully rated (skipped items included), or ``None`` when all are rated."""
        return self.store.next_unrated(self.code, self.token)

    def progress(self) -> tuple[int, int, int]:
        """``(n_rated, n_skipped, n_items)`` for this judge."""
        mine = self._my_ratings()
        need = len(self.campaign.criteria)
        rated = sum(1 for scores in mine.values() if len(scores) >= need)
        return rated, len(self.store.my_skips(self.code, self.token)), self.n_items
