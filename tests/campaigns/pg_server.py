"""A throw-away PostgreSQL server for tests: ``initdb`` in a temporary directory, start it on a free port of
127.0.0.1, hand out fresh databases, stop it and delete everything.

Nothing here is specific to bleu-study; ``tests/campaigns/test_campaigns_postgres.py`` uses it through a session fixture.
:meth:`PostgresServer.start` raises :class:`PostgresUnavailable` with the reason when this machine cannot run a
server (no PostgreSQL binaries, ``initdb`` refused, the server does not come up); the fixture turns that into a
skip, so a missing PostgreSQL never fails the test suite.

``initdb`` refuses to run as root. When the tests run as root, the server runs as an unprivileged account
(``postgres`` if it exists, else ``nobody``) through ``runuser`` (or ``setpriv``); the cluster then lives in a
fresh directory under the system temporary directory that this account owns (pytest's ``tmp_path`` is private to
root). Otherwise the server runs as the current user.

The cluster is made for tests: ``trust`` authentication on loopback only, ``fsync=off`` (committed data still
survives the server being killed, only not the machine crashing), and the ICU collation ``en-US`` when available,
so that text sorts as in a typical deployment (``'bo' < 'Cy'``) rather than byte by byte as in SQLite.

>>> find_bin_dir() is None or (find_bin_dir() / "initdb").exists()
True
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: The database superuser created by ``initdb`` (no password: ``trust`` on loopback).
SUPERUSER = "bleu"
#: Accounts tried, in order, for running the server when the tests run as root.
SERVICE_ACCOUNTS = ("postgres", "nobody")


class PostgresUnavailable(RuntimeError):
    """This machine cannot run a throw-away PostgreSQL server; the message says why."""


def find_bin_dir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres`` (``$PATH`` first, then the newest
    ``/usr/lib/postgresql/<version>/bin``), or ``None``."""
    candidates: list[Path] = []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    versions.sort(key=lambda p: [int(x) for x in Path(p).parent.name.split(".") if x.isdigit()])
    candidates += [Path(p) for p in reversed(versions)]
    for directory in candidates:
        if all(os.access(directory / name, os.X_OK) for name in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


def _as_service_account() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that runs a program as an unprivileged account, and that account (root only)."""
    if os.geteuid() != 0:
        return [], None
    for name in SERVICE_ACCOUNTS:
        try:
            account = pwd.getpwnam(name)
        except KeyError:
            continue
        if shutil.which("runuser"):
            return ["runuser", "-u", name, "--"], account
        if shutil.which("setpriv"):
            prefix = ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}"]
            return [*prefix, "--clear-groups"], account
        raise PostgresUnavailable("running as root, and neither runuser nor setpriv is installed")
    raise PostgresUnavailable(
        "running as root (initdb refuses that) and no unprivileged account "
        f"({' or '.join(SERVICE_ACCOUNTS)}) exists to run the server"
    )


def free_port() -> int:
    """A TCP port of 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory. Use :meth:`start`, then :meth:`stop` (or ``with``)."""

    def __init__(self, bin_dir: Path, root: Path, prefix: list[str]) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data_dir = root / "data"
        self.log_file = root / "server.log"
        self.prefix = prefix
        self.port = 0
        self._n_databases = 0

    # -- life cycle -----------------------------------------------------------------------------------------------
    @classmethod
    def start(cls, *, timeout: float = 60.0) -> PostgresServer:
        """initdb a new cluster and start it; raise :class:`PostgresUnavailable` if this machine cannot."""
        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise PostgresUnavailable(
                "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH or in "
                "/usr/lib/postgresql/*/bin"
            )
        prefix, account = _as_service_account()
        root = Path(tempfile.mkdtemp(prefix="bleu-pg-"))
        server = cls(bin_dir, root, prefix)
        try:
            if account is not None:
                os.chown(root, account.pw_uid, account.pw_gid)
            server._initdb(timeout)
            for _attempt in range(3):  # the free port may be taken between probing and binding
                server.port = free_port()
                if server._pg_ctl_start(timeout):
                    break
            else:
                raise PostgresUnavailable(f"PostgreSQL did not start: {_tail(server._log())}")
        except BaseException:
            server._remove()
            raise
        return server

    def _run(self, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run(
                [*self.prefix, *args],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=self.root,
                env={**os.environ, "LC_ALL": "C.UTF-8"},
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PostgresUnavailable(f"{Path(args[0]).name} could not run: {exc}") from exc

    def _initdb(self, timeout: float) -> None:
        base = [
            str(self.bin_dir / "initdb"),
            "-D",
            str(self.data_dir),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        ]
        done = self._run([*base, "--locale-provider=icu", "--icu-locale=en-US"], timeout)
        if done.returncode != 0:  # a build without ICU: plain C collation
            shutil.rmtree(self.data_dir, ignore_errors=True)
            done = self._run(base, timeout)
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {_tail(done.stderr or done.stdout)}")

    def _pg_ctl_start(self, timeout: float) -> bool:
        options = " ".join(
            f"-c {shlex.quote(setting)}"
            for setting in (
                "listen_addresses=127.0.0.1",
                f"port={self.port}",
                f"unix_socket_directories={self.root}",
                "fsync=off",
                "full_page_writes=off",
                "max_connections=100",
                "timezone=UTC",
            )
        )
        done = self._run(
            [
                str(self.bin_dir / "pg_ctl"),
                "-D",
                str(self.data_dir),
                "-l",
                str(self.log_file),
                "-w",
                "-t",
                str(int(timeout)),
                "-o",
                options,
                "start",
            ],
            timeout + 10,
        )
        return done.returncode == 0

    def _log(self) -> str:
        try:
            return self.log_file.read_text(errors="replace")
        except OSError:
            return "(no server log)"

    def crash(self) -> None:
        """Stop the server the hard way (``pg_ctl stop -m immediate``: no checkpoint, crash recovery on the
        next start), as if it had been killed."""
        self._run([str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", "immediate",
                   "-w", "stop"], 60)  # fmt: skip

    def restart(self, timeout: float = 60.0) -> None:
        """Start the (stopped) server again on the same port."""
        if not self._pg_ctl_start(timeout):
            raise RuntimeError(f"PostgreSQL did not restart: {_tail(self._log())}")

    def stop(self) -> None:
        """Stop the server and delete the cluster."""
        done = self._run(
            [str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "-t",
             "30", "stop"], 60,
        )  # fmt: skip
        if done.returncode != 0:  # not running any more, or hung: make sure no postmaster is left
            self._kill_postmaster()
        self._remove()

    def _kill_postmaster(self) -> None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.data_dir / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGQUIT)
            time.sleep(0.5)

    def _remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- databases ------------------------------------------------------------------------------------------------
    def url(self, database: str = "postgres", driver: str = "psycopg") -> str:
        """The SQLAlchemy URL of *database* on this server."""
        return f"postgresql+{driver}://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, *, timezone: str | None = None, template: str | None = None) -> str:
        """A new empty database (``test_1``, ``test_2``, ...) and its SQLAlchemy URL. *timezone* sets the
        session time zone of every connection to it (the server's default is UTC). With *template* (the URL
        of a database of this server that nobody is connected to) the new database is a copy of it."""
        import psycopg  # the test module skips before calling this if psycopg is missing
        from psycopg import sql

        self._n_databases += 1
        name = sql.Identifier(f"test_{self._n_databases}")
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            if template is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(name))
            else:
                source = sql.Identifier(template.rsplit("/", 1)[1])
                conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(name, source))
            if timezone is not None:
                conn.execute(
                    sql.SQL("ALTER DATABASE {} SET timezone TO {}").format(
                        name, sql.Literal(timezone)
                    )
                )
        return self.url(f"test_{self._n_databases}")
