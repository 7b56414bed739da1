"""Same data, many BLEUs: the score as sacrebleu, NLTK, Hugging Face ``evaluate`` and the paper compute it.

"BLEU" is not one number. Popular implementations differ in tokenisation, in the reference length used by the
brevity penalty and in smoothing, and published scores silently inherit those choices (Post 2018). Each
implementation's definition is reproduced here as :class:`~bleu_core.engine.options.BleuOptions` of our engine, so the
differences can be shown side by side on the same study without installing the other libraries:

* **sacrebleu** ``BLEU().corpus_score`` (2.x): the reference point (13a tokens, case kept, closest reference
  length, ``exp`` smoothing).
* **NLTK** ``corpus_bleu(list_of_references, hypotheses)``: NLTK counts the tokens it is given, which in
  practice are ``str.split()`` tokens, so we use the ``none`` (whitespace) tokenizer; its default smoothing
  (``method0``) does none. (NLTK replaces a zero precision by the smallest float, so its score is then
  ~1e-80 instead of exactly 0.)
* **Hugging Face** ``evaluate.load("bleu")``: 13a tokens like sacrebleu, but the brevity penalty uses the
  *shortest* reference length and there is no smoothing (``smooth=False``). It reports 0-1, not 0-100.
* **Papineni et al. (2002)**: words case-folded with punctuation dropped (the ``paper`` tokenizer), the
  "best match length" (closest reference) and no smoothing.

>>> [v.key for v in VARIANTS]
['sacrebleu', 'nltk', 'hf-evaluate', 'paper']
>>> rows = many_bleus(["The cat sat on the mat."], [["The cat sat on the red mat."], ["A cat sat."]])
>>> [(r.variant.key, round(r.score, 2), round(r.bp, 4), r.ref_len) for r in rows]
[('sacrebleu', 61.3, 0.8669, 8.0), ('nltk', 67.32, 0.8465, 7.0), ('hf-evaluate', 70.71, 1.0, 4.0), ('paper', 67.32, 0.8465, 7.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleu_core.engine.bleu import corpus_score, statistics_for
from bleu_core.engine.options import BleuOptions
from bleu_core.errors import BleuOptionError


@dataclass(frozen=True)
class BleuVariant:
    """One implementation's definition of BLEU, as options of our engine."""

    key: str
    label: str
    options: BleuOptions
    explanation: str
    call: str


VARIANTS: tuple[BleuVariant, ...] = (
    BleuVariant(
        "sacrebleu",
        "sacrebleu",
        BleuOptions(),
        "The reference point: 13a tokens, case kept, brevity penalty against the closest reference length, "
        "and zero n-gram counts smoothed by halving (exp): sacrebleu's defaults.",
        "sacrebleu.metrics.BLEU().corpus_score(hyps, refs)",
    ),
    BleuVariant(
        "nltk",
        "NLTK corpus_bleu",
        BleuOptions(tokenize="none", smooth="none"),
        "NLTK scores the tokens it is given, usually str.split(), so punctuation stays glued to words "
        "('mat.' does not match 'mat') and, without smoothing, an order with no match makes the score 0.",
        "nltk.translate.bleu_score.corpus_bleu([[r.split() for r in refs_i] ...], [h.split() ...])",
    ),
    BleuVariant(
        "hf-evaluate",
        "Hugging Face evaluate 'bleu'",
        BleuOptions(ref_length="shortest", smooth="none"),
        "Hugging Face's bleu tokenizes like sacrebleu but compares the output length with the shortest "
        "reference (a milder brevity penalty when there are several references) and does not smooth.",
        "evaluate.load('bleu').compute(predictions=hyps, references=refs)",
    ),
    BleuVariant(
        "paper",
        "Papineni et al. 2002",
        BleuOptions(tokenize="paper", smooth="none"),
        "The paper counts case-folded words with punctuation dropped, uses the best-match (closest) "
        "reference length and does not smooth.",
        "BLEU paper §2 (worked examples)",
    ),
)


def variants_for(tokenize: str) -> tuple[BleuVariant, ...]:
    """:data:`VARIANTS` with the tokenizer of a study's settings: sacrebleu and Hugging Face tokenize with
    ``tokenize`` (both take a tokenizer argument: sacrebleu's ``tokenize=``, evaluate's ``tokenizer=``),
    as a researcher scoring a Chinese or Japanese target sets it; NLTK (the tokens it is given) and the
    paper (its own word rule) keep their definitions. With ``13a`` the variants are :data:`VARIANTS`.

    >>> [(v.key, v.options.tokenize) for v in variants_for("ja-mecab")]
    [('sacrebleu', 'ja-mecab'), ('nltk', 'none'), ('hf-evaluate', 'ja-mecab'), ('paper', 'paper')]
    >>> variants_for("zh")[0].label, variants_for("13a") == VARIANTS
    ('sacrebleu (tok zh)', True)
    """
    if tokenize == BleuOptions().tokenize:
        return VARIANTS
    BleuOptions(tokenize=tokenize)  # an unknown name: the options' own message
    out: list[BleuVariant] = []
    for v in VARIANTS:
        if v.options.tokenize != BleuOptions().tokenize:
            out.append(v)
            continue
        options = v.options.with_(tokenize=tokenize)
        explanation = v.explanation.replace("13a tokens", f"{tokenize} tokens").replace(
            "tokenizes like sacrebleu", f"tokenizes with {tokenize} like sacrebleu here"
        )
        call = v.call.replace("BLEU()", f"BLEU(tokenize='{tokenize}')").replace(
            "references=refs)", f"references=refs, tokenizer=<sacrebleu's {tokenize} tokenizer>)"
        )
        out.append(BleuVariant(v.key, f"{v.label} (tok {tokenize})", options, explanation, call))
    return tuple(out)


def get_variant(key: str) -> BleuVariant:
    """A variant by key.

    >>> get_variant("moses")
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: unknown BLEU variant 'moses'; choose one of: sacrebleu, nltk, hf-evaluate, paper
    """
    for variant in VARIANTS:
        if variant.key == key:
            return variant
    raise BleuOptionError(
        f"unknown BLEU variant {key!r}; choose one of: {', '.join(v.key for v in VARIANTS)}"
    )


@dataclass(frozen=True)
class VariantScore:
    """A variant's corpus BLEU on the data, and how far it is from sacrebleu's."""

    variant: BleuVariant
    score: float
    bleu: float
    precisions: tuple[float, ...]
    bp: float
    hyp_len: int
    ref_len: float
    signature: str
    difference: float


def many_bleus(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    variants: Sequence[BleuVariant] = VARIANTS,
) -> list[VariantScore]:
    """Corpus BLEU of the same data under every variant; ``difference`` is score minus sacrebleu's score
    (the ``sacrebleu`` variant of ``variants``, with its tokenizer: :func:`variants_for`).

    ``references`` are reference streams (``references[k][i]``). Statistics are computed once per
    tokenisation.
    """
    cache = {}
    results = []
    for variant in variants:
        opts = variant.options
        key = (opts.tokenize, opts.lowercase, opts.statistics_order)
        if key not in cache:
            cache[key] = statistics_for(hypotheses, references, opts)
        results.append(corpus_score(cache[key], opts))
    reference = next((v.options for v in variants if v.key == "sacrebleu"), BleuOptions())
    base_key = (reference.tokenize, reference.lowercase, reference.statistics_order)
    if base_key not in cache:
        cache[base_key] = statistics_for(hypotheses, references, reference)
    base = corpus_score(cache[base_key], reference).score
    return [
        VariantScore(
            variant=v,
            score=r.score,
            bleu=r.bleu,
            precisions=r.precisions,
            bp=r.bp,
            hyp_len=r.hyp_len,
            ref_len=r.ref_len,
            signature=r.signature,
            difference=r.score - base,
        )
        for v, r in zip(variants, results, strict=True)
    ]
