"""Fixtures shared by the campaign tests: a fresh SQLite campaign store.

``test_campaigns_postgres.py`` overrides ``store`` with a store on PostgreSQL and runs the SQLite tests that
use it unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CampaignStore]:
    """A campaign store on a new SQLite file, closed after the test."""
    s = CampaignStore(tmp_path / "campaigns.sqlite")
    yield s
    s.close()
