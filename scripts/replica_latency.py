"""The time from a write on replica A to the change visible on replica B, over N writes.

Starts a private PostgreSQL (scripts/postgres.sh) and two replicas (the debug build, built with
the PostgreSQL driver: `swift build --traits postgres`), then for each
write: A creates a playlist for one user; B's home for that user is polled until it names the new
playlist. Prints p50/p99 of that delay against a same-run baseline: the same write read back from
A itself (no bus involved).

    python3 scripts/replica_latency.py [N]     # default 1000

SCREENPLAY_BINARY runs another build (scripts/load.sh --database postgres passes its release
build); SCREENPLAY_TEST_DATABASE_URL with SCREENPLAY_TEST_POSTGRES_DIR uses a running cluster.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Replicas"))
import replica_flow as flow  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(writer, reader, token, count, label):
    delays = []
    token = writer.request("POST", f"{flow.API}/commands/playlists/create", {"name": "fresh"})[1]["Screenplay-Token"]
    for index in range(count):
        name = f"{label}-{index}"
        status, _, _ = writer.request("POST", f"{flow.API}/commands/playlists/create", {"name": name}, token=token)
        assert status == 200, status
        written = time.perf_counter()
        while name not in flow.text_of(reader.request("GET", f"{flow.API}/screens/library", token=token)[2]):
            pass
        delays.append(time.perf_counter() - written)
        # Keep the user under the 100-playlist limit.
        if index % 90 == 89:
            token = writer.request("POST", f"{flow.API}/commands/playlists/create", {"name": "fresh"})[1]["Screenplay-Token"]
    return delays, token


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    cluster = flow.Cluster()
    schema = "lat_" + os.urandom(6).hex()
    database = cluster.schema_url(schema)
    a, b = flow.Replica(database, "a"), flow.Replica(database, "b")
    try:
        token = a.request("POST", f"{flow.API}/commands/playlists/create", {"name": "first"})[1]["Screenplay-Token"]
        measure(a, b, token, 50, "warm")
        baseline, token = measure(a, a, token, count, "same")
        across, token = measure(a, b, token, count, "across")
        for label, values in (("read on A (baseline)", baseline), ("read on B", across)):
            print(f"{label:24} p50 {percentile(values, 0.5) * 1000:7.2f} ms  p99 {percentile(values, 0.99) * 1000:7.2f} ms  "
                  f"mean {statistics.mean(values) * 1000:6.2f} ms")
        print(f"ratio B/A                 p50 {percentile(across, 0.5) / percentile(baseline, 0.5):.2f}×  "
              f"p99 {percentile(across, 0.99) / percentile(baseline, 0.99):.2f}×   ({count} writes each)")
    finally:
        a.stop()
        b.stop()
        cluster.stop()


if __name__ == "__main__":
    main()
