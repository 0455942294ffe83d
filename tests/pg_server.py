"""A throw-away PostgreSQL server for the tests and benchmarks: initdb + pg_ctl in a temporary folder.

It listens on a Unix socket in its own folder only (no TCP port), trusts local
connections (the roles still matter: row-level security is per role), and runs
as an unprivileged system user when the tests run as root, because initdb and
the server refuse to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

ADMIN = "callmark_admin"  # the server's superuser: owns the team store's tables
SERVICE_USER = "callmark-pg"  # the system user the server runs as when we are root


def pg_bin() -> Path:
    """The folder of Debian's PostgreSQL programs (the newest installed), or PATH's."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    if which:
        return Path(which).parent
    raise RuntimeError("PostgreSQL's initdb is not installed: run packaging/bootstrap.sh (Debian's postgresql)")


def _service_user() -> pwd.struct_passwd | None:
    """None when we are not root; otherwise a system user to run the server as (created if needed)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
                       check=True, capture_output=True)
        return pwd.getpwnam(SERVICE_USER)


class PgServer:
    """One server: start(), url(database, user), stop(). The folder is removed by cleanup()."""

    def __init__(self):
        self.bin = pg_bin()
        self.user = _service_user()
        self.folder = Path(tempfile.mkdtemp(prefix="callmark-pg-"))
        self.data = self.folder / "data"
        self.socket_dir = self.folder / "socket"
        self.socket_dir.mkdir()
        self.log = self.folder / "server.log"
        if self.user is not None:
            for path in (self.folder, self.socket_dir):
                os.chown(path, self.user.pw_uid, self.user.pw_gid)
        self._initdb()

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        kwargs = {}
        if self.user is not None:
            uid, gid = self.user.pw_uid, self.user.pw_gid

            def drop():  # in the child, before exec: the server must not run as root
                os.setgid(gid)
                os.setuid(uid)

            kwargs["preexec_fn"] = drop
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        result = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=self.folder, timeout=120,
                                **kwargs)
        if check and result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}\n{log}")
        return result

    def _initdb(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", ADMIN, "--auth=trust", "--encoding=UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nlisten_addresses = ''\nunix_socket_directories = '{self.socket_dir}'\n"
                       "fsync = off\nmax_connections = 100\nshared_buffers = 32MB\n")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def url(self, database: str = "postgres", user: str = ADMIN) -> str:
        return f"postgresql://{user}@/{database}?host={self.socket_dir}"

    def admin_sql(self, sql: str, database: str = "postgres") -> None:
        """Run statements as the superuser (autocommit: CREATE DATABASE can't run in a transaction)."""
        import psycopg

        with psycopg.connect(host=str(self.socket_dir), dbname=database, user=ADMIN, autocommit=True) as con:
            con.execute(sql)

    def cleanup(self) -> None:
        if self.data.exists() and self.running():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
