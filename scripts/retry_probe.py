#!/usr/bin/env python3
"""Retried writes through a failure: does any answered write go missing, or any retry write twice?

Sends a burst of `playlists/create` commands, each with an `Idempotency-Key`, from several clients
at once, injects a fault in the middle of it, and retries every command that got no answer (a
refused or reset connection, a timeout, a 503, a 409 "in progress") with the same key and body
until it is answered. Then it counts, in the database itself:

    acked       commands answered 200
    present     of those, playlists in the database
    lost        answered but absent (must be 0)
    duplicates  playlists stored twice for one key (must be 0)
    unanswered  keys still without an answer at the deadline (must be 0)

Faults:
    restart-postgres  PostgreSQL stopped (fast) for 3 s and started again, under two replicas
    kill-replica      one of two replicas on PostgreSQL killed (-9) and started again a second later
    kill-9            the one SQLite server killed (-9) and started again on the same data
    sigterm           the one SQLite server stopped (SIGTERM) and started again on the same data

Run (after `swift build --traits postgres`: the PostgreSQL faults need the driver the default
build leaves out; the SQLite faults run on the default build too):
    python3 scripts/retry_probe.py --fault kill-9
    python3 scripts/retry_probe.py --fault restart-postgres      # starts a private PostgreSQL
Prints one line of figures (and `--json` prints them as JSON); exits 1 when anything was lost,
duplicated or left unanswered. The PostgreSQL faults use SCREENPLAY_TEST_DATABASE_URL and
SCREENPLAY_TEST_POSTGRES_DIR when set (scripts/test.sh's cluster), else start their own cluster
with scripts/postgres.sh and stop it afterwards.
"""
import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSTGRES = os.path.join(ROOT, "scripts", "postgres.sh")
API = "/api/v5"


def default_binary():
    return os.environ.get("SCREENPLAY_BINARY") or os.path.join(ROOT, ".build", "debug", "screenplay")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `screenplay serve` process; restarted on the same port and data after a fault."""

    def __init__(self, binary, name, data=None, database=None, extra=(), log_level="error"):
        self.binary, self.name, self.database, self.extra, self.log_level = binary, name, database, list(extra), log_level
        self.data = data or tempfile.mkdtemp(prefix=f"screenplay-probe-{name}-")
        self.port = free_port()
        self.process = None
        self.start()

    def start(self, extra=None):
        arguments = [self.binary, "serve", "--port", str(self.port), "--data", self.data, "--promotions", "off",
                     "--command-rate", "100000", "--log-level", self.log_level, "--replica-name", self.name,
                     *(self.extra if extra is None else extra)]
        if self.database:
            arguments += ["--database", self.database]
        self.log = tempfile.NamedTemporaryFile(prefix=f"screenplay-probe-{self.name}-", suffix=".log", delete=False)
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.time() + 90
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if "is running" in line:
                return
        self.stop()
        with open(self.log.name, errors="replace") as log:
            raise RuntimeError(f"{self.name} did not start: {log.read()[-2000:]}")

    def request(self, method, path, body=None, token=None, headers=None, timeout=10):
        """(status, headers, JSON or raw bytes); raises OSError when nothing was answered."""
        fields = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            fields["Authorization"] = f"Bearer {token}"
        fields.update(headers or {})
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method, headers=fields)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, head, raw = response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            status, head, raw = error.code, dict(error.headers), error.read()
        except urllib.error.URLError as error:
            raise OSError(str(error.reason)) from error
        try:
            return status, head, json.loads(raw) if raw else None
        except ValueError:
            return status, head, raw

    def create(self, name, token, key, timeout=10):
        headers = {"Idempotency-Key": key} if key else None
        return self.request("POST", f"{API}/commands/playlists/create", {"name": name}, token=token, headers=headers, timeout=timeout)

    def new_user(self):
        status, head, body = self.create("First", None, None)
        if status != 200:
            raise RuntimeError(f"{self.name}: a first command answered {status}: {body!r:.300}")
        return head["Screenplay-Token"]

    def signal(self, number):
        """Sends `number` and waits for the process to end."""
        self.process.send_signal(number)
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.log.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self.process.stdout.close()
        self.log.close()


class Cluster:
    """A PostgreSQL for the replicas: the test run's, or a private one started here."""

    def __init__(self):
        self.url = os.environ.get("SCREENPLAY_TEST_DATABASE_URL")
        self.folder = os.environ.get("SCREENPLAY_TEST_POSTGRES_DIR")
        self.owned = not (self.url and self.folder)
        if self.owned:
            self.folder = tempfile.mkdtemp(prefix="screenplay-probe-pg-")
            self.url = subprocess.run(["bash", POSTGRES, "start", self.folder, str(free_port())], check=True, capture_output=True,
                                      text=True).stdout.strip().splitlines()[-1]

    def schema_url(self, schema):
        return self.url + ("&" if "?" in self.url else "?") + "schema=" + schema

    def sql(self, schema, statement):
        environment = dict(os.environ, PGOPTIONS=f"-c search_path={schema}")
        output = subprocess.run(["psql", self.url, "-At", "-F", "\t", "-c", statement], check=True, capture_output=True, text=True,
                                env=environment).stdout
        return [line.split("\t") for line in output.splitlines() if line]

    def restart(self, down_seconds, while_down=None):
        """Stops PostgreSQL (fast: open connections are cut), runs `while_down` (if given), waits
        until `down_seconds` have passed since the stop, and starts it again on the same data."""
        bin_dir = sorted(os.listdir("/usr/lib/postgresql"))[-1]
        ctl = f"/usr/lib/postgresql/{bin_dir}/bin/pg_ctl"
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        data = os.path.join(self.folder, "data")
        with open(os.path.join(self.folder, "port")) as file:
            port = file.read().strip()
        subprocess.run(owner + [ctl, "-D", data, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
        stopped = time.time()
        try:
            if while_down:
                while_down()
        finally:
            time.sleep(max(0.0, stopped + down_seconds - time.time()))
            self.start_again(owner, ctl, data, port)

    def start_again(self, owner, ctl, data, port):
        subprocess.run(owner + [ctl, "-D", data, "-l", os.path.join(self.folder, "server.log"), "-w", "-t", "60", "-o",
                                f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off "
                                "-c max_connections=300", "start"], check=True, capture_output=True)

    def stop(self):
        if self.owned:
            subprocess.run(["bash", POSTGRES, "stop", self.folder], capture_output=True)


class Burst:
    """Keyed creates from `clients` threads, each retried with its key until answered."""

    def __init__(self, servers, tokens, keys, deadline_seconds=90):
        self.servers, self.tokens, self.keys = servers, tokens, keys
        self.deadline = time.time() + deadline_seconds
        self.lock = threading.Lock()
        self.acked = {}          # name -> first answer's body
        self.unanswered = []
        self.replayed = 0
        self.retries = 0
        self.refusals = []       # answers no retry should get (422 reused key, 5xx other than 503)
        self.sent = 0

    def client(self, index):
        token = self.tokens[index]
        turn = index
        for number in range(index, self.keys, len(self.tokens)):
            key = f"probe-{uuid.uuid4().hex}"
            name = f"probe {number} {key[-8:]}"
            first = True
            while True:
                if time.time() > self.deadline:
                    with self.lock:
                        self.unanswered.append(name)
                    break
                server = self.servers[turn % len(self.servers)]
                turn += 1
                if not first:
                    with self.lock:
                        self.retries += 1
                first = False
                try:
                    status, head, body = server.create(name, token, key, timeout=20)
                except (OSError, ConnectionError, TimeoutError):
                    time.sleep(0.05)
                    continue
                with self.lock:
                    self.sent += 1
                if status == 200:
                    with self.lock:
                        self.acked[name] = body
                        if head.get("Idempotent-Replayed") == "true":
                            self.replayed += 1
                    break
                if status in (409, 503):
                    time.sleep(0.1)
                    continue
                with self.lock:
                    self.refusals.append(f"{name}: {status} {body!r:.200}")
                break

    def run(self, fault_after_acked, fault):
        threads = [threading.Thread(target=self.client, args=(index,), daemon=True) for index in range(len(self.tokens))]
        for thread in threads:
            thread.start()
        while len(self.acked) < fault_after_acked and any(thread.is_alive() for thread in threads):
            time.sleep(0.01)
        fault()
        for thread in threads:
            thread.join(timeout=max(1, self.deadline - time.time() + 30))


def counts(burst, stored_names):
    """The figures, from the answers and the names the database holds."""
    probe_names = [name for name in stored_names if name.startswith("probe ")]
    stored = set(probe_names)
    present = [name for name in burst.acked if name in stored]
    seen, duplicates = set(), 0
    for name in probe_names:
        if name in seen:
            duplicates += 1
        seen.add(name)
    return {"keys": burst.keys, "acked": len(burst.acked), "present": len(present), "lost": len(burst.acked) - len(present),
            "duplicates": duplicates, "unanswered": len(burst.unanswered), "replayed": burst.replayed, "retries": burst.retries,
            "refused": len(burst.refusals), "refusals": burst.refusals[:5]}


def probe(fault, keys=300, clients=4, binary=None, cluster=None):
    """Runs one probe; returns its figures (a dict, see counts()). The PostgreSQL faults run on
    `cluster` when given (it stays up), else on one of their own."""
    binary = binary or default_binary()
    if fault in ("kill-9", "sigterm"):
        server = Server(binary, "sqlite")
        try:
            tokens = [server.new_user() for _ in range(clients)]
            burst = Burst([server], tokens, keys)

            def inject():
                server.signal(signal.SIGKILL if fault == "kill-9" else signal.SIGTERM)
                server.start()
            burst.run(keys // 3, inject)
            path = os.path.join(server.data, "screenplay-demo.sqlite")
            with sqlite3.connect(path) as database:
                names = [row[0] for row in database.execute("SELECT name FROM playlists")]
            return counts(burst, names)
        finally:
            server.stop()
    owned, cluster = cluster is None, cluster or Cluster()
    schema = "probe_" + uuid.uuid4().hex[:12]
    replicas = []
    try:
        url = cluster.schema_url(schema)
        replicas = [Server(binary, "a", database=url), Server(binary, "b", database=url)]
        tokens = [replicas[index % 2].new_user() for index in range(clients)]
        burst = Burst(replicas, tokens, keys)

        def inject():
            if fault == "restart-postgres":
                cluster.restart(3.0)
            elif fault == "kill-replica":
                replicas[0].signal(signal.SIGKILL)
                time.sleep(1.0)
                replicas[0].start()
            else:
                raise ValueError(f"unknown fault {fault}")
        burst.run(keys // 3, inject)
        names = [row[0] for row in cluster.sql(schema, "SELECT name FROM playlists")]
        return counts(burst, names)
    finally:
        for replica in replicas:
            replica.stop()
        try:
            cluster.sql(schema, f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            if owned:
                cluster.stop()


def line(fault, figures):
    return (f"retry probe ({fault}): {figures['keys']} keys, acked {figures['acked']}, present {figures['present']}, "
            f"lost {figures['lost']}, duplicates {figures['duplicates']}, unanswered {figures['unanswered']}, "
            f"replayed {figures['replayed']}, retries {figures['retries']}, refused {figures['refused']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fault", choices=["restart-postgres", "kill-replica", "kill-9", "sigterm"], default="kill-9")
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--binary", default=None, help="the screenplay binary (default: .build/debug/screenplay, or SCREENPLAY_BINARY)")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if arguments.keys > arguments.clients * 98:
        parser.error(f"at most {arguments.clients * 98} keys for {arguments.clients} clients (100 playlists per user)")
    figures = probe(arguments.fault, arguments.keys, arguments.clients, arguments.binary)
    print(json.dumps(figures) if arguments.json else line(arguments.fault, figures))
    for refusal in figures["refusals"]:
        print(f"  refused: {refusal}", file=sys.stderr)
    sys.exit(0 if figures["lost"] == figures["duplicates"] == figures["unanswered"] == figures["refused"] == 0 else 1)


if __name__ == "__main__":
    main()
