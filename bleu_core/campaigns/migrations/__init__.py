"""The campaign database's migrations (Alembic revisions), oldest first; :mod:`bleu_core.campaigns.migrate`
runs them.

``m0001_initial_schema``
    The five tables as the store created them before migrations existed (campaigns, items, judges,
    ratings, skips). A database made then has no ``alembic_version`` table; it is recognised by its tables
    and stamped with this revision before the next ones run.
``m0002_protocols_spans_qc``
    A protocol per campaign (``adequacy-fluency``, ``esa``, ``da``), error spans (``spans``), the kind of
    each item (``test``, ``tutorial``, ``attention``) with its quality-control answer, and the organiser's
    choice to keep a judge who failed the quality control.
"""
