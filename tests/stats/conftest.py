"""Fixtures shared by the statistics tests: a synthetic corpus of systems that copy a reference with noise.

A module that asks for ``corpus`` declares its shape in a module-level ``CORPUS`` dict: the keyword
arguments of :func:`synthetic_corpus` (each module keeps its own size, noise and seed, so its expected
values stay those of its own corpus).
"""

from __future__ import annotations

import numpy as np
import pytest

from bleu_core.engine.statistics import compute_statistics


def synthetic_corpus(
    n_segments: int,
    noise: tuple[float, ...],
    seed: int,
    *,
    vocab_size: int = 200,
    lengths: tuple[int, int] = (4, 20),
    names: str = "sys{k}",
    first: int = 0,
) -> tuple[list[str], dict[str, list[str]]]:
    """Random reference sentences, and per noise level ``p`` a system that replaces each reference word
    with a random word with probability ``p``; ``names.format(k=first + k)`` names the ``k``-th (0-based).

    Words are ``w0 … w{vocab_size-1}``; a reference has ``lengths[0]`` to ``lengths[1] - 1`` words.

    >>> refs, systems = synthetic_corpus(3, (0.0, 1.0), seed=0, names="S{k}")
    >>> len(refs), sorted(systems), systems["S0"] == refs
    (3, ['S0', 'S1'], True)
    """
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(vocab_size)]
    refs = [
        " ".join(rng.choice(vocab, size=int(rng.integers(*lengths)))) for _ in range(n_segments)
    ]
    systems = {}
    for k, p in enumerate(noise):
        systems[names.format(k=first + k)] = [
            " ".join(t if rng.random() > p else str(rng.choice(vocab)) for t in r.split())
            for r in refs
        ]
    return refs, systems


@pytest.fixture(scope="module")
def corpus(request: pytest.FixtureRequest):
    """``(refs, systems, statistics per system)`` of the module's ``CORPUS``."""
    refs, systems = synthetic_corpus(**request.module.CORPUS)
    return refs, systems, {name: compute_statistics(h, [refs]) for name, h in systems.items()}
