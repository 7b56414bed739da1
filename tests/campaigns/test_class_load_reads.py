"""What a Rate page run reads under a class's load: a judge's ratings once per session (until the session
writes), and the shared store found without resolving the database path again."""

from __future__ import annotations

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.planning import plan_campaign


def toy_store(target: str = "sqlite://") -> tuple[CampaignStore, str]:
    store = CampaignStore(target)
    plan = plan_campaign(
        name="demo",
        study_name="toy",
        segment_ids=["s1", "s2"],
        translations={"A": ["a one", "a two"], "B": ["b one", "b two"]},
        sources=None,
        references=None,
        systems=["A", "B"],
        n_segments=2,
        seed=0,
    )
    return store, store.create_campaign(plan).campaign.code


class CountingStore:
    """A store that counts ``my_ratings`` calls and passes everything else on."""

    def __init__(self, store: CampaignStore) -> None:
        self.store, self.reads = store, 0

    def my_ratings(self, code, token):
        self.reads += 1
        return self.store.my_ratings(code, token)

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_a_session_reads_its_ratings_once_until_it_writes():
    store, code = toy_store()
    token = JudgeSession.join(store, code, "Ana", "monolingual").token
    counting = CountingStore(store)
    session = JudgeSession(counting, code, token)
    assert session.progress() == (0, 0, 4) and session.scores(0) == {} and session.scores(1) == {}
    assert counting.reads == 1
    session.submit(0, {"adequacy": 4, "fluency": 3})
    assert session.scores(0) == {"adequacy": 4, "fluency": 3}  # read again after the write
    assert session.progress() == (1, 0, 4)
    assert counting.reads == 2


def test_scores_are_a_copy_the_caller_may_change():
    store, code = toy_store()
    session = JudgeSession.join(store, code, "Bo", "monolingual")
    session.submit(0, {"adequacy": 2, "fluency": 5})
    again = JudgeSession(store, code, session.token)
    again.scores(0)["adequacy"] = 99
    assert again.scores(0) == {"adequacy": 2, "fluency": 5}


def test_another_session_of_the_same_judge_sees_the_write():
    store, code = toy_store()
    first = JudgeSession.join(store, code, "Cy", "monolingual")
    second = JudgeSession(store, code, first.token)
    assert second.scores(1) == {}
    first.submit(1, {"adequacy": 3, "fluency": 3})
    assert JudgeSession(store, code, first.token).scores(1) == {"adequacy": 3, "fluency": 3}


def test_the_shared_store_follows_the_database_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("BLEU_STUDY_DB", str(tmp_path / "a.sqlite"))
    a = CampaignStore.shared()
    assert CampaignStore.shared() is a and a.url.endswith("a.sqlite")
    monkeypatch.setenv("BLEU_STUDY_DB", str(tmp_path / "b.sqlite"))
    b = CampaignStore.shared()
    assert b is not a and b.url.endswith("b.sqlite")
    monkeypatch.chdir(tmp_path)
    assert CampaignStore.shared("c.sqlite").url == f"sqlite:///{tmp_path.resolve() / 'c.sqlite'}"
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # the same relative path from elsewhere is another file
    assert (
        CampaignStore.shared("c.sqlite").url
        == f"sqlite:///{(tmp_path / 'sub').resolve() / 'c.sqlite'}"
    )
