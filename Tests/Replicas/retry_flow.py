"""A retry changes nothing, whatever died: restarts (SIGTERM, kill -9) between a keyed write and
its retry on SQLite, a process killed after its commit and before its answer on SQLite and on a
PostgreSQL replica, a 503 while PostgreSQL is down that is never a key's answer, and bursts of
retried writes through a PostgreSQL restart, a replica's kill -9 and a SQLite kill -9, counted by
scripts/retry_probe.py (acked, present, lost 0, duplicates 0).

Uses the cluster `scripts/test.sh` started (SCREENPLAY_TEST_DATABASE_URL and
SCREENPLAY_TEST_POSTGRES_DIR), or starts its own. The debug build needs the PostgreSQL driver:
    swift build --traits postgres && python3 Tests/Replicas/retry_flow.py
"""
import faulthandler
import hashlib
import os
import signal
import sqlite3
import sys
import unittest
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import retry_probe  # noqa: E402
from retry_probe import Cluster, Server  # noqa: E402

HOOK = ["--test-killed-after-commit", "playlists/create"]


def user_id_sql(token):
    return f"(SELECT id FROM screenplay_users WHERE token_hash = '{hashlib.sha256(token.encode()).hexdigest()}')"


class SQLiteRetries(unittest.TestCase):
    """One server on an embedded SQLite file, restarted on the same data."""

    def setUp(self):
        self.server = Server(retry_probe.default_binary(), "sqlite")

    def tearDown(self):
        self.server.stop()

    def playlists(self, token):
        with sqlite3.connect(os.path.join(self.server.data, "screenplay-demo.sqlite")) as database:
            return [row[0] for row in database.execute(f"SELECT name FROM playlists WHERE user_id = {user_id_sql(token)} ORDER BY id")]

    def restarted_retry_replays(self, stop_signal):
        token = self.server.new_user()
        key = "k-" + uuid.uuid4().hex
        first = self.server.create("Kept once", token, key)
        self.assertEqual(first[0], 200, first)
        self.server.signal(stop_signal)
        self.server.start()
        again = self.server.create("Kept once", token, key)
        self.assertEqual(again[0], 200, again)
        self.assertEqual(again[1].get("Idempotent-Replayed"), "true", "the retry after the restart is a replay")
        self.assertEqual(again[2], first[2], "the same answer, playlist id included")
        self.assertEqual(self.playlists(token), ["First", "Kept once"])
        other = self.server.create("Another body", token, key)
        self.assertEqual(other[0], 422, "the key still names its first request after the restart")

    def test_sigterm_between_a_keyed_write_and_its_retry_replays_the_answer(self):
        self.restarted_retry_replays(signal.SIGTERM)

    def test_kill_9_between_a_keyed_write_and_its_retry_replays_the_answer(self):
        self.restarted_retry_replays(signal.SIGKILL)

    def test_killed_after_the_commit_before_the_answer_the_retry_replays_what_was_committed(self):
        token = self.server.new_user()
        self.server.stop()
        self.server.start(extra=HOOK)
        key = "k-" + uuid.uuid4().hex
        with self.assertRaises(OSError, msg="the process died before answering"):
            self.server.create("Committed, unanswered", token, key)
        self.server.process.wait(timeout=30)
        self.server.stop()
        self.server.start(extra=[])
        again = self.server.create("Committed, unanswered", token, key)
        self.assertEqual(again[0], 200, again)
        self.assertEqual(again[1].get("Idempotent-Replayed"), "true")
        self.assertEqual(self.playlists(token), ["First", "Committed, unanswered"])

    def test_a_burst_through_kill_9_loses_nothing_and_writes_nothing_twice(self):
        self.server.stop()
        figures = retry_probe.probe("kill-9", keys=200, clients=3)
        print("\n    " + retry_probe.line("kill-9", figures), file=sys.stderr)
        self.assert_clean(figures)

    def assert_clean(self, figures):
        self.assertEqual(figures["refusals"], [])
        self.assertEqual((figures["lost"], figures["duplicates"], figures["unanswered"]), (0, 0, 0), figures)
        self.assertEqual(figures["acked"], figures["keys"])


class PostgresRetries(unittest.TestCase):
    """Two replicas on one PostgreSQL, a fresh schema per test."""

    cluster = None

    def setUp(self):
        self.schema = "retry_" + uuid.uuid4().hex[:12]
        url = self.cluster.schema_url(self.schema)
        binary = retry_probe.default_binary()
        self.a = Server(binary, "a", database=url, extra=HOOK)
        self.b = Server(binary, "b", database=url)

    def tearDown(self):
        for server in (self.a, self.b):
            server.stop()
        self.cluster.sql(self.schema, f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")

    def playlists(self, token):
        return [row[0] for row in self.cluster.sql(self.schema, f"SELECT name FROM playlists WHERE user_id = {user_id_sql(token)} ORDER BY id")]

    def test_a_replica_killed_after_its_commit_before_its_answer_the_other_replays_it_at_once(self):
        token = self.b.new_user()
        key = "k-" + uuid.uuid4().hex
        with self.assertRaises(OSError, msg="replica A died before answering"):
            self.a.create("Committed on A", token, key)
        again = self.b.create("Committed on A", token, key)
        self.assertEqual(again[0], 200, f"no lease to wait out: {again}")
        self.assertEqual(again[1].get("Idempotent-Replayed"), "true")
        self.assertEqual(self.playlists(token), ["First", "Committed on A"])

    def test_sigterm_and_kill_9_between_a_keyed_write_and_its_retry_replay_the_answer(self):
        self.a.stop()
        self.a.start(extra=[])
        token = self.b.new_user()
        for stop_signal in (signal.SIGTERM, signal.SIGKILL):
            key = "k-" + uuid.uuid4().hex
            name = f"Kept once ({stop_signal.name})"
            first = self.a.create(name, token, key)
            self.assertEqual(first[0], 200, first)
            self.a.signal(stop_signal)
            self.a.start(extra=[])
            again = self.a.create(name, token, key)
            self.assertEqual((again[0], again[1].get("Idempotent-Replayed")), (200, "true"), again)
            self.assertEqual(again[2], first[2])
        self.assertEqual(self.playlists(token), ["First", "Kept once (SIGTERM)", "Kept once (SIGKILL)"])

    def test_a_503_while_postgres_is_down_is_never_the_keys_answer(self):
        token = self.b.new_user()
        key = "k-" + uuid.uuid4().hex
        outcome = {}

        def while_down():
            outcome["during"] = self.b.create("After the outage", token, key, timeout=30)
        self.cluster.restart(0.0, while_down)
        self.assertEqual(outcome["during"][0], 503, outcome["during"])
        for _ in range(100):
            again = self.b.create("After the outage", token, key, timeout=30)
            if again[0] != 503:
                break
        self.assertEqual(again[0], 200, again)
        self.assertNotEqual(again[1].get("Idempotent-Replayed"), "true", "the 503 was not recorded: the retry ran the command")
        self.assertEqual(self.playlists(token), ["First", "After the outage"])

    def test_bursts_through_a_postgres_restart_and_a_replica_kill_lose_nothing_and_write_nothing_twice(self):
        for server in (self.a, self.b):
            server.stop()
        for fault in ("restart-postgres", "kill-replica"):
            figures = retry_probe.probe(fault, keys=240, clients=4, cluster=self.cluster)
            print(f"\n    {retry_probe.line(fault, figures)}", file=sys.stderr)
            self.assertEqual(figures["refusals"], [], fault)
            self.assertEqual((figures["lost"], figures["duplicates"], figures["unanswered"]), (0, 0, 0), f"{fault}: {figures}")
            self.assertEqual(figures["acked"], figures["keys"], fault)


if __name__ == "__main__":
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    PostgresRetries.cluster = Cluster()
    try:
        unittest.main(verbosity=2)
    finally:
        PostgresRetries.cluster.stop()
