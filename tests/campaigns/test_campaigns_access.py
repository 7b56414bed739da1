"""Access control and SQL safety of campaign storage.

* organiser actions need the organiser key; only a salted hash of it is stored;
* a judge token opens only that judge's own ratings, in its own campaign; only its hash is stored;
* every statement uses bound parameters: hostile names reach the database verbatim as *parameters*, never as SQL.
"""

from __future__ import annotations

import pytest
from sqlalchemy import event, inspect, select

from bleu_core.campaigns import AccessDenied, plan_campaign
from bleu_core.campaigns.storage import campaigns_table, judges_table

HOSTILE = [
    "Robert'); DROP TABLE ratings;--",
    "' OR '1'='1",
    '" OR ""="',
    "<script>alert('x')</script>",
    "1; DELETE FROM judges WHERE 1=1",
    "名前 \\ % _ ' \"",
]


def make_plan(groups=("monolingual", "bilingual"), name="access test"):
    return plan_campaign(
        name=name,
        study_name="toy",
        segment_ids=["s1", "s2", "s3"],
        translations={"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]},
        sources=["x1", "x2", "x3"],
        references=None,
        systems=["A", "B"],
        n_segments=3,
        seed=5,
        groups=groups,
    )


def test_organiser_actions_need_the_key(store):
    created = store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    for wrong in [
        "",
        "nope",
        key[:-1],
        key + "x",
        key.upper() if key.upper() != key else key.lower(),
        None,
        123,
        "' OR '1'='1",
    ]:
        for action in (
            lambda k: store.ratings(code, k),
            lambda k: store.progress(code, k),
            lambda k: store.items(code, k),
            lambda k: store.check_organiser(code, k),
            lambda k: store.set_open(code, k, False),
            lambda k: store.delete_campaign(code, k),
        ):
            with pytest.raises(
                AccessDenied, match=r"wrong organiser key for this campaign; use the key shown"
            ):
                action(wrong)
    assert store.check_organiser(code, key).code == code
    assert store.get_campaign(code).is_open  # nothing changed by the refused calls


def test_one_campaigns_key_does_not_open_another(store):
    first = store.create_campaign(make_plan())
    second = store.create_campaign(make_plan())
    with pytest.raises(AccessDenied):
        store.ratings(second.campaign.code, first.organiser_key)


def test_secrets_are_stored_only_as_hashes(store):
    created = store.create_campaign(make_plan())
    access = store.join(created.campaign.code, "Ana", "monolingual")
    secret = access.token.split("-", 1)[1]
    with store.engine.connect() as conn:
        rows = [tuple(map(str, r)) for r in conn.execute(select(campaigns_table)).all()]
        rows += [tuple(map(str, r)) for r in conn.execute(select(judges_table)).all()]
    dump = "\n".join("\t".join(r) for r in rows)
    assert created.organiser_key not in dump
    assert secret not in dump


def test_a_judge_sees_and_changes_only_their_own_ratings(store):
    created = store.create_campaign(make_plan())
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    bo = store.join(code, "Bo", "bilingual")
    store.rate(code, ana.token, 0, {"adequacy": 5, "fluency": 5})
    store.rate(code, bo.token, 0, {"adequacy": 1, "fluency": 1})
    assert store.my_ratings(code, ana.token) == {0: {"adequacy": 5, "fluency": 5}}
    assert store.my_ratings(code, bo.token) == {0: {"adequacy": 1, "fluency": 1}}
    # Bo changing "his" item 0 leaves Ana's rating alone
    store.rate(code, bo.token, 0, {"adequacy": 2, "fluency": 2})
    assert store.my_ratings(code, ana.token) == {0: {"adequacy": 5, "fluency": 5}}


def test_forged_or_foreign_tokens_are_refused(store):
    created = store.create_campaign(make_plan())
    other = store.create_campaign(make_plan())
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    bo = store.join(code, "Bo", "bilingual")
    ana_id, ana_secret = ana.token.split("-", 1)
    bo_id, _ = bo.token.split("-", 1)
    forged = [
        f"{bo_id}-{ana_secret}",  # Ana's secret with Bo's id
        f"{ana_id}-{ana_secret}x",
        f"{ana_id}-",
        ana_secret,
        "",
        None,
        "1-' OR '1'='1",
        "99999999999999999999-x",
        "-1-abc",
    ]
    for token in forged:
        for action in (
            lambda t: store.my_ratings(code, t),
            lambda t: store.rate(code, t, 0, {"adequacy": 3, "fluency": 3}),
            lambda t: store.skip(code, t, 0),
            lambda t: store.move(code, t, 0),
            lambda t: store.item(code, t, 0),
            lambda t: store.resume(code, t),
        ):
            with pytest.raises(
                AccessDenied, match=r"this resume code is not valid for campaign \w+; check it"
            ):
                action(token)
    # a valid token used with another campaign's code
    with pytest.raises(AccessDenied):
        store.rate(other.campaign.code, ana.token, 0, {"adequacy": 3, "fluency": 3})
    assert store.ratings(code, created.organiser_key) == []


def test_hostile_strings_are_stored_verbatim_via_bound_parameters(store):
    statements: list[str] = []

    def capture(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(store.engine, "before_cursor_execute", capture)
    try:
        created = store.create_campaign(make_plan(groups=HOSTILE[:2], name=HOSTILE[3]))
        code, key = created.campaign.code, created.organiser_key
        tokens = {}
        for i, name in enumerate(HOSTILE):
            tokens[name] = store.join(code, name, HOSTILE[i % 2]).token
            store.rate(code, tokens[name], i % 6, {"adequacy": 1 + i % 5, "fluency": 2})
        assert store.get_campaign(code).name == HOSTILE[3]
        stored = {(r.judge, r.group) for r in store.ratings(code, key)}
        assert stored == {(name, HOSTILE[i % 2]) for i, name in enumerate(HOSTILE)}
        for name in HOSTILE:
            assert store.resume(code, tokens[name]).name == name
    finally:
        event.remove(store.engine, "before_cursor_execute", capture)
    # every table is still there and no hostile text ever appeared in SQL text
    assert set(inspect(store.engine).get_table_names()) >= {
        "campaigns",
        "items",
        "judges",
        "ratings",
        "skips",
    }
    assert statements
    for statement in statements:
        for text in HOSTILE:
            assert text not in statement
        assert code not in statement and key not in statement


def test_a_projector_view_token_reads_the_class_and_grants_nothing_else(store):
    created = store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    view = store.viewer_token(code, key)
    assert view != key and key not in view
    store.join(code, "ana", "monolingual")
    campaign, ratings, progress = store.class_view(code, view)
    assert campaign.code == code and ratings == [] and [p.judge for p in progress] == ["ana"]
    with pytest.raises(AccessDenied, match="organiser key"):
        store.ratings(code, view)  # the view token is no organiser key
    with pytest.raises(AccessDenied, match="organiser key"):
        store.set_open(code, view, False)
    with pytest.raises(AccessDenied, match="projector link is not valid"):
        store.class_view(code, key)
    with pytest.raises(AccessDenied, match="organiser key"):
        store.viewer_token(code, "guess")
