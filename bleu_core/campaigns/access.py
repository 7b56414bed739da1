"""Who may do what in a campaign: campaign codes, organiser keys, judge tokens, and how they are checked.

Creating a campaign returns an *organiser key* (:func:`new_organiser_key`); only its salted SHA-256 hash is stored
and keys are compared with :func:`hmac.compare_digest` (:func:`check_organiser_key`). Joining returns a *judge
token* ``"<judge id>-<secret>"`` (:func:`judge_token`), also stored only as a hash; :func:`parse_judge_token`
refuses anything malformed before the database is asked, and :func:`check_judge_secret` compares the secret.
Nothing here touches the database: :class:`~bleu_core.campaigns.storage.CampaignStore` fetches the rows.

>>> key, salt, key_hash = new_organiser_key()
>>> row = type("Row", (), {"key_salt": salt, "key_hash": key_hash})()
>>> check_organiser_key(row, key)
>>> check_organiser_key(row, "guess")
Traceback (most recent call last):
...
bleu_core.campaigns.model.AccessDenied: wrong organiser key for this campaign; use the key shown when the campaign was created
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from bleu_core.campaigns.model import AccessDenied, CampaignError

#: Campaign codes: 6 characters without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Largest judge id a token may name: the top of a 32-bit INTEGER column (PostgreSQL, MySQL).
MAX_JUDGE_ID = 2**31 - 1


def secret_hash(*parts: str) -> str:
    """The SHA-256 hex digest of *parts* joined by the unit separator (what is stored instead of a secret).

    >>> secret_hash("salt", "key") == secret_hash("salt", "key") != secret_hash("salt", "other")
    True
    """
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def normalise_code(code: object) -> str:
    """A campaign code as typed (spaces around, lower case) in its stored form.

    >>> normalise_code(" k7p2qx ")
    'K7P2QX'
    >>> normalise_code("  ")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: campaign code is empty; type the code the organiser gave you (e.g. K7P2QX)
    """
    if not isinstance(code, str) or not code.strip():
        raise CampaignError(
            "campaign code is empty; type the code the organiser gave you (e.g. K7P2QX)"
        )
    return code.strip().upper()


def new_campaign_code() -> str:
    """A random campaign code (the caller retries if it is taken).

    >>> code = new_campaign_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_organiser_key() -> tuple[str, str, str]:
    """A fresh organiser key with its salt and salted hash: ``(key, salt, hash)``; store only the last two."""
    key = secrets.token_urlsafe(18)
    salt = secrets.token_hex(16)
    return key, salt, secret_hash(salt, key)


def check_organiser_key(campaign_row: Any, key: object) -> None:
    """Raise :class:`AccessDenied` unless *key* is the organiser key of *campaign_row* (a ``campaigns`` row)."""
    given = key if isinstance(key, str) else ""
    if not hmac.compare_digest(
        secret_hash(campaign_row.key_salt, given.strip()), campaign_row.key_hash
    ):
        raise AccessDenied(
            "wrong organiser key for this campaign; use the key shown when the campaign was created"
        )


def viewer_token(campaign_row: Any) -> str:
    """The campaign's view-only token (a projector link): an HMAC of the stored key hash, which is never shown,
    so the token reveals nothing of the organiser key and cannot be turned into it.

    >>> row = type("Row", (), {"key_hash": "ab" * 32})()
    >>> len(viewer_token(row)), viewer_token(row) == viewer_token(row)
    (24, True)
    """
    digest = hmac.new(campaign_row.key_hash.encode("ascii"), b"projector view", hashlib.sha256)
    return digest.hexdigest()[:24]


def check_viewer_token(campaign_row: Any, token: object) -> None:
    """Raise :class:`AccessDenied` unless *token* is the view-only token of *campaign_row*.

    >>> row = type("Row", (), {"key_hash": "ab" * 32})()
    >>> check_viewer_token(row, viewer_token(row))
    >>> check_viewer_token(row, "guess")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.AccessDenied: this projector link is not valid for the campaign; open the link shown on the Campaigns page again
    """
    given = token.strip() if isinstance(token, str) else ""
    if not hmac.compare_digest(viewer_token(campaign_row).encode(), given.encode("utf-8")):
        raise AccessDenied(
            "this projector link is not valid for the campaign; open the link shown on the Campaigns "
            "page again"
        )


def new_judge_secret() -> str:
    """The secret part of a new judge token."""
    return secrets.token_urlsafe(12)


def judge_token_hash(judge_id: int, secret: str) -> str:
    """What the ``judges`` table stores for the token of judge *judge_id*."""
    return secret_hash(str(judge_id), secret)


def judge_token(judge_id: int, secret: str) -> str:
    """The token (resume code) a judge is given: ``"<judge id>-<secret>"``.

    >>> judge_token(7, "abc")
    '7-abc'
    """
    return f"{judge_id}-{secret}"


def _token_refused(code: str) -> AccessDenied:
    return AccessDenied(
        f"this resume code is not valid for campaign {code}; check it, or join with a new name"
    )


def parse_judge_token(code: str, token: object) -> tuple[int, str]:
    """``(judge id, secret)`` of *token*, or :class:`AccessDenied` if it cannot be a token of campaign *code*.

    >>> parse_judge_token("K7P2QX", " 12-s3cret ")
    (12, 's3cret')
    >>> parse_judge_token("K7P2QX", "99999999999-x")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.AccessDenied: this resume code is not valid for campaign K7P2QX; check it, or join with a new name
    """
    if not isinstance(token, str) or "-" not in token:
        raise _token_refused(code)
    id_text, secret = token.strip().split("-", 1)
    if not (id_text.isascii() and id_text.isdigit()) or len(id_text) > 12:
        raise _token_refused(code)
    if int(id_text) > MAX_JUDGE_ID:  # would overflow an INTEGER parameter on PostgreSQL
        raise _token_refused(code)
    if str(int(id_text)) != id_text:  # "007-…": tokens are issued without leading zeros
        raise _token_refused(code)
    return int(id_text), secret


def check_judge_secret(code: str, judge_row: Any | None, judge_id: int, secret: str) -> Any:
    """*judge_row* (the ``judges`` row of *judge_id* in campaign *code*, or ``None`` if there is none) if *secret*
    is its token's secret, else :class:`AccessDenied` (the same message whether the judge exists or not)."""
    if judge_row is None or not hmac.compare_digest(
        judge_token_hash(judge_id, secret), judge_row.token_hash
    ):
        raise _token_refused(code)
    return judge_row
