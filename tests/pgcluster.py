"""A throwaway PostgreSQL cluster for tests and benchmarks: ``initdb`` + ``pg_ctl`` on a free loopback
port in a temporary folder, removed at the end.

PostgreSQL refuses to run as root, so as root the cluster is run as the unprivileged ``postgres`` system
user (created if missing) through ``runuser``; as any other user it runs as that user. No PostgreSQL
binaries is an error, not a skip: ``.ci/run`` installs them from the distribution's packages.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SYSTEM_USER = "postgres"


def binaries() -> Path:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    raise RuntimeError("PostgreSQL is not installed (no initdb/pg_ctl); apt-get install -y postgresql")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user() -> list[str]:
    """The prefix running a command as the cluster's owner (root may not own a cluster)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", SYSTEM_USER], check=True)
    return ["runuser", "-u", SYSTEM_USER, "--"]


@dataclass
class Cluster:
    folder: Path
    port: int
    prefix: list[str]
    bin: Path
    # False: a server someone else started (CONDUCTOR_TEST_PG, see ``running``), left running by ``stop``.
    owned: bool = True

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def run(self, *args: str) -> None:
        result = subprocess.run([*self.prefix, *args], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{result.stdout}\n{result.stderr}")

    def _admin(self, statement: str) -> None:
        """One statement on the maintenance database, from a thread of its own: callers may be inside a
        running event loop (an async fixture asking for a sync one)."""

        async def run() -> None:
            import asyncpg

            connection = await asyncpg.connect(self.url)
            try:
                await connection.execute(statement)
            finally:
                await connection.close()

        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, run()).result()

    def create_database(self, name: str) -> None:
        self._admin(f'CREATE DATABASE "{name}"')

    def drop_database(self, name: str) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if not self.owned:
            return
        subprocess.run(
            [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start(durable: bool = False) -> Cluster:
    """Start a cluster. ``durable=False`` (tests) turns fsync off; benchmarks keep fsync on and only
    relax synchronous_commit, the durability SQLite's WAL with synchronous=NORMAL has."""
    bin_folder = binaries()
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="conductor-pg-"))
    if prefix:
        shutil.chown(folder, SYSTEM_USER)
    cluster = Cluster(folder, _free_port(), prefix, bin_folder)
    data = folder / "data"
    cluster.run(
        str(bin_folder / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
    )
    options = [
        f"-p {cluster.port}",
        "-c listen_addresses=127.0.0.1",
        f"-c unix_socket_directories={folder}",
        "-c max_connections=200",
        "-c synchronous_commit=off",
    ]
    if not durable:
        options += ["-c fsync=off", "-c full_page_writes=off"]
    try:
        cluster.run(
            str(bin_folder / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-o",
            " ".join(options),
            "-w",
            "start",
        )
    except RuntimeError:
        log = (folder / "server.log").read_text() if (folder / "server.log").exists() else ""
        cluster.stop()
        raise RuntimeError(f"PostgreSQL did not start:\n{log}") from None
    return cluster


def running(spec: str) -> Cluster:
    """A cluster ``start`` started in another process, named ``"<port>:<folder>"`` (what ``python -m
    tests.pgcluster`` prints): mutation runs start one per module and point every mutant's test run at
    it (``CONDUCTOR_TEST_PG``) instead of starting a cluster per mutant."""
    port, folder = spec.split(":", 1)
    return Cluster(Path(folder), int(port), _as_server_user(), binaries(), owned=False)


if __name__ == "__main__":  # python -m tests.pgcluster [stop <port>:<folder>]
    import sys

    if sys.argv[1:2] == ["stop"]:
        cluster = running(sys.argv[2])
        cluster.owned = True
        cluster.stop()
    else:
        cluster = start()
        print(f"{cluster.port}:{cluster.folder}")
