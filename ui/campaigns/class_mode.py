"""Class mode: a lesson campaign in one click, its join QR code and link, and the projector dashboard's parts.

The numbers come from :mod:`bleu_core.campaigns.lesson` (:func:`lesson_plan`, :func:`class_snapshot`); the charts
are the analysis pages' own (the paper's Figures 5-7, :mod:`ui.analysis.charts`). The QR code is drawn here, on the
server, by ``segno`` (no web service sees the link). Every name that goes into HTML is escaped.
"""

from __future__ import annotations

import html
import math
from datetime import datetime
from urllib.parse import urlencode, urlsplit, urlunsplit

import pandas as pd
import streamlit as st

from bleu_core.campaigns import CampaignStore
from bleu_core.campaigns.class_spans import esa_lesson
from bleu_core.campaigns.lesson import (
    ClassSnapshot,
    lesson_plan,
)
from bleu_core.campaigns.model import Campaign
from bleu_core.campaigns.protocols import PROTOCOL_TITLES
from ui.analysis.charts import normalised_chart, regression_scatter
from ui.analysis.frames import normalised_frame
from ui.app import state as K
from ui.app.context import Scores
from ui.app.limits import session_resampling
from ui.campaigns.class_results import scale_text
from ui.campaigns.contrastive_projector import MAX_PER_SCREEN, cesa_lesson
from ui.campaigns.esa_manage import lesson_protocol_choice
from ui.campaigns.lesson_form import (
    audience_inputs,
    english_offer,
    measured_pace,
    size_caption,
    systems_preview,
)
from ui.campaigns.lesson_study import open_study_source
from ui.campaigns.network import network_address, reachable_join_base
from ui.campaigns.rating_widgets import connection_notice  # noqa: F401 (the projector's, re-exported)

RATE_PATH = "rate"

#: Large type for the projector; the sidebar and the navigation are hidden there.
PROJECTOR_STYLE = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"] {display: none;}
.block-container {padding-top: 1.2rem;}
h1 {font-size: 2rem !important; padding: 0.2rem 0 !important;}
[data-testid="stMetricValue"] {font-size: 2.2rem;}
[data-testid="stMetricLabel"] p {font-size: 1.1rem;}
.bs-proj-r {font-size: 4.5rem; font-weight: 800; line-height: 1.05; color: #0b2545;}
.bs-proj-r-label {font-size: 1.3rem;}
.bs-proj-timer {font-size: 2.6rem; font-weight: 700; color: #8a3b00;}
.bs-proj-code {font-size: 2.6rem; font-weight: 700; letter-spacing: 0.3rem;}
.bs-proj-link {font-size: 1.4rem; word-break: break-all;}
</style>
"""


def app_base_url() -> str:
    """The address students type: the app's own URL as the browser reached it, without path or query.

    At ``http://localhost:8501`` phones cannot reach it: :func:`join_panel` puts the machine's network address
    in the join link instead.
    """
    url = getattr(st.context, "url", None) or ""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return "http://localhost:8501"
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def join_url(base: str, code: str) -> str:
    """The link a student opens to join the campaign.

    >>> join_url("http://192.168.1.20:8501", "K7P2QX")
    'http://192.168.1.20:8501/rate?campaign=K7P2QX'
    """
    return f"{base.rstrip('/')}/{RATE_PATH}?{urlencode({'campaign': code})}"


def qr_png(text: str, *, scale: int = 10) -> bytes:
    """A PNG QR code of *text* (error correction M, drawn locally by segno, no web service).

    >>> qr_png("http://h:1/rate?campaign=K7")[:4]
    b'\\x89PNG'
    """
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=2)
    return buffer.getvalue()


def join_panel(code: str, base: str, *, qr_width: int = 360, warn: bool = True) -> None:
    """The join QR code, the code in large letters and the short link (for the projector). An app opened at
    localhost gets this machine's network address in the link instead, and (with *warn*: the teacher's
    Campaigns page, not the projector the class reads) a word on what phones can reach
    (:func:`ui.campaigns.network.reachable_join_base`)."""
    reach = reachable_join_base(
        base, listen_address=st.get_option("server.address"), detected=network_address()
    )
    if warn:
        network_warning(base)
    link = join_url(reach.base, code)
    left, right = st.columns([1, 1])
    left.image(
        qr_png(link), width=qr_width, caption="Scan to join", alt=f"QR code of the join link {link}"
    )
    right.markdown(
        f'<div>Join with your phone: scan, or open</div><div class="bs-proj-link">{html.escape(link)}'
        f'</div><div style="margin-top:1rem">Campaign code</div><div class="bs-proj-code">'
        f"{html.escape(code)}</div>",
        unsafe_allow_html=True,
    )


def network_warning(base: str) -> None:
    """What phones cannot reach when the app was opened at localhost (the teacher's eyes only)."""
    reach = reachable_join_base(
        base, listen_address=st.get_option("server.address"), detected=network_address()
    )
    if reach.warning:
        st.warning(reach.warning, icon=":material/wifi_off:")


def system_bleu_of(scores: Scores) -> dict[str, float]:
    """Corpus BLEU (0-100) of every system of the open study under the sidebar's settings."""
    return {s: float(scores.corpus.score[i]) for i, s in enumerate(scores.systems)}


def class_mode_form(scores: Scores) -> tuple[int, int, bool, int, str] | None:
    """The class-mode choices (systems, segments, paper's two groups, seed, what the class reads) once the
    button is pressed."""
    study = scores.study
    st.write(
        "One click makes a short campaign sized for a lesson from the open study: a few systems spread over "
        "the BLEU range (a human translation among them when the study has one), short segments, adequacy "
        "and fluency on the paper's 1-5 scale. Students join on their phones; the projector shows their "
        "judgment against BLEU as the ratings arrive."
    )
    english_offer(study)
    reads = audience_inputs(study)
    c1, c2, c3 = st.columns(3)
    n_systems = c1.number_input(
        "Systems", min_value=2, max_value=max(2, min(8, len(study.systems))), key=K.CLASS_SYSTEMS
    )
    n_segments = c2.number_input("Segments", min_value=2, max_value=30, key=K.CLASS_SEGMENTS)
    groups = c3.toggle(
        "Monolingual and bilingual groups",
        key=K.CLASS_GROUPS,
        help="The paper's two groups of judges (§4); off: one group called 'class'.",
    )
    systems_preview(study, system_bleu_of(scores), int(n_systems))
    protocol = lesson_protocol_choice()  # ESA or adequacy + fluency; create_lesson reads it
    students = int(st.session_state.get(K.CLASS_STUDENTS) or 1)
    pace = measured_pace(protocol)  # the teacher's last lesson of this protocol, when it timed one
    st.caption(size_caption(students, int(n_systems), int(n_segments), protocol, pace))
    if not st.button("Start a class", type="primary", icon=":material/school:"):
        return None
    seed, _ = session_resampling()
    return int(n_systems), int(n_segments), bool(groups), seed, reads


def lesson_name(study_name: str, protocol: str, when: datetime | None = None) -> str:
    """The lesson's name on the phones: the study, what the class does and the time it started, so that two
    lessons of one class have two names.

    >>> lesson_name("TED zh-en", "esa", datetime(2026, 11, 29, 9, 14))
    'Lesson: TED zh-en · ESA · 09:14'
    """
    what = PROTOCOL_TITLES.get(protocol, protocol).split(":")[0].split(" (")[0]
    return f"Lesson: {study_name} · {what} · {(when or datetime.now()).strftime('%H:%M')}"


def create_lesson(store: CampaignStore, scores: Scores, choices: tuple[int, int, bool, int, str]):
    """Create the lesson campaign of the open study (BLEU under the sidebar's settings travels along)."""
    n_systems, n_segments, groups, seed, reads = choices
    protocol = st.session_state.get(K.CAMP_CLASS_PROTOCOL)
    if protocol == "cesa":  # a phone shows 2-3 translations of a sentence together
        n_systems = min(n_systems, MAX_PER_SCREEN)
    system_bleu = system_bleu_of(scores)
    plan = lesson_plan(
        scores.study,
        system_bleu,
        seed=seed,
        n_systems=n_systems,
        n_segments=n_segments,
        groups=("monolingual", "bilingual") if groups else ("class",),
        bleu_signature=scores.signature,
        reads=reads,
        name=lesson_name(scores.study.name, str(protocol or "adequacy-fluency")),
        study_source=open_study_source(),  # a reload opens this study again (lesson_study)
    )
    if protocol == "esa":  # the class marks spans, scores 0-100
        plan = esa_lesson(plan, scores.study)  # with the experts' spans, for the projector
    elif protocol == "cesa":  # contrastive ESA: the sentence's translations side by side
        plan = cesa_lesson(plan, scores)  # with each item's sentence BLEU, for the projector
    return store.create_campaign(plan)


# --- projector dashboard -------------------------------------------------------------------------


def fit_points(campaign: Campaign, snap: ClassSnapshot, criterion: str) -> pd.DataFrame:
    """System points of BLEU against the class's mean *criterion* score (human translations marked)."""
    fit = snap.fits[criterion]
    humans = set(campaign.metadata.get("human_systems", []))
    points = pd.DataFrame(
        {
            "system": list(fit.systems),
            "BLEU": list(fit.bleu),
            "class": list(fit.human),
            "human": [s in humans for s in fit.systems],
        }
    )
    return points


def fit_caption(snap: ClassSnapshot, criterion: str) -> str:
    fit = snap.fits[criterion]
    r = "r not yet defined" if not math.isfinite(fit.statistic) else f"r = {fit.statistic:.2f}"
    return f"{r} · {fit.n} system{'s' if fit.n != 1 else ''}"


def r_html(snap: ClassSnapshot, criterion: str) -> str:
    """r of BLEU against the class's *criterion* in large type, for the back of the room."""
    fit = snap.fits[criterion]
    r = f"r = {fit.statistic:.2f}" if math.isfinite(fit.statistic) else "r = …"
    systems = f"{fit.n} system{'s' if fit.n != 1 else ''}"
    return (
        f'<div class="bs-proj-r-label">BLEU vs {html.escape(criterion)} · {systems}</div>'
        f'<div class="bs-proj-r">{r}</div>'
    )


def fit_chart(campaign: Campaign, snap: ClassSnapshot, criterion: str):
    return regression_scatter(
        fit_points(campaign, snap, criterion),
        x="BLEU",
        y="class",
        title=f"BLEU vs the class's {criterion}",
        subtitle=fit_caption(snap, criterion),
        x_title="BLEU (whole test set)",
        y_title=f"class {criterion} (mean, {scale_text(campaign, criterion)})",
    )


def normalised_class_chart(campaign: Campaign, snap: ClassSnapshot):
    """BLEU and the class's criteria normalised by their range across systems (Figure 7)."""
    bleu = {s: float(v) for s, v in campaign.metadata.get("bleu", {}).items()}
    series = {"BLEU": bleu} | {f"class {c}": m for c, m in snap.system_means.items()}
    order = sorted(campaign.systems, key=lambda s: bleu.get(s, math.nan))
    return normalised_chart(
        normalised_frame(series, order),
        title="Range-normalised scores (paper, Figure 7)",
        subtitle="systems ordered by BLEU",
    )


def alpha_frame(snap: ClassSnapshot) -> pd.DataFrame:
    return pd.DataFrame(snap.alpha_history, columns=["ratings", "criterion", "alpha"])


def alpha_lines(snap: ClassSnapshot) -> list[str]:
    """One line per criterion: alpha with its interval, or why it is not there yet."""
    lines = []
    for criterion, result in snap.alpha.items():
        if result is None or not math.isfinite(result.statistic):
            lines.append(f"{criterion}: needs two students on the same item")
            continue
        low, high = result.confidence_interval
        ci = "" if not math.isfinite(low) else f" (95% CI {low:.2f} to {high:.2f})"
        lines.append(f"{criterion}: α = {result.statistic:.2f}{ci}")
    return lines
