"""The API's OpenAPI description, checked from outside against the running demo.

1. `GET /api/openapi.json` is a valid OpenAPI 3.1 document (openapi-spec-validator, PyPI), and the
   same document `screenplay openapi` writes;
2. every path it lists answers as a route of its own (not the catch-all): a path with its
   methods gives no 404 for an existing thing, and a method it does not list gives a JSON 405;
3. schemathesis (PyPI) fuzzes every operation against the demo (Tests/OpenAPI/schemathesis.toml):
   no 500, every answer as declared, and what the description allows accepted;
4. the layout admin's JSON API the same way: its description (`screenplay openapi --site admin`)
   is valid and lists every path the API answers, and schemathesis fuzzes it with an admin API
   token (Tests/OpenAPI/schemathesis-admin.toml).

Run by scripts/test.sh after the build (it uses .build/debug/screenplay); EXAMPLES sets
schemathesis's examples per operation (default 25).
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Browser"))
from demo_server import BINARY, DemoServer  # noqa: E402

from openapi_spec_validator import validate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def fetch(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def schemathesis(schema, root, config, token, what):
    """Runs schemathesis on `schema` (a URL or a file) against `root` with `token`; the failures."""
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", os.path.join(HERE, config), "--no-color",
        "run", schema, "--url", root,
        "--max-examples", os.environ.get("EXAMPLES", "25"), "--seed", os.environ.get("SEED", "20261126"),
        "--checks", "all", "--header", f"Authorization: Bearer {token}",
    ]
    print(f"$ schemathesis ({what}) " + " ".join(command[3:]).replace(token, "TOKEN"), flush=True)
    # Each well-formed Idempotency-Key made unique, as a client makes its keys.
    environment = dict(os.environ, SCHEMATHESIS_HOOKS="idempotency_hooks", PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # In a folder of its own: schemathesis keeps a cache of what it found where it runs.
    with tempfile.TemporaryDirectory(prefix="screenplay-schemathesis-") as scratch:
        done = subprocess.run(command, text=True, capture_output=True, env=environment, cwd=scratch)
    print(done.stdout[-6000:])
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        return [f"schemathesis found failures in {what} (exit {done.returncode})"]
    return []


def main():
    # Commands run as one listener with a generous budget: the fuzzing reaches what they do, not
    # only the rate limiter's 429 (which the description declares, and the first requests meet).
    tokens = {}

    def prepare(run):
        run("admin", "create-user", "fuzz", input="a long enough password\n")
        tokens["admin"] = run("admin", "create-token", "fuzz").stdout.strip()

    server = DemoServer("--command-rate", "1000", prefix="screenplay-openapi-", prepare=prepare)
    failures = []
    try:
        status, headers, body = fetch(server.root + "/api/openapi.json")
        assert status == 200, f"GET /api/openapi.json: {status}"
        assert headers.get("Content-Type", "").startswith("application/json"), headers
        served = json.loads(body)
        validate(served)
        print(f"valid OpenAPI {served['openapi']}: {len(served['paths'])} paths, "
              f"{sum(len(item) for item in served['paths'].values())} operations, "
              f"{len(served['components']['schemas'])} schemas")

        with tempfile.NamedTemporaryFile(suffix=".json") as written:
            subprocess.run([BINARY, "openapi", "--output", written.name], check=True, capture_output=True)
            with open(written.name) as file:
                assert json.load(file) == served, "`screenplay openapi` writes what the server serves"
        print("`screenplay openapi` writes the served document")

        # A shared playlist's link, for the path that takes a token: a listener makes a playlist and
        # reads its Share.
        status, headers, body = fetch(
            server.root + "/api/v6/commands/playlists/create", method="POST", body=b'{"name":"Shared"}',
            headers={"Content-Type": "application/json"})
        owner = headers.get("Screenplay-Token")
        playlist = json.loads(body)["url"].rsplit("/", 1)[-1]
        status, _, body = fetch(server.root + f"/api/v6/screens/playlist/{playlist}", headers={"Authorization": "Bearer " + owner})
        share = json.loads(body)["toolbar"][0]["action"]["url"].rsplit("/", 1)[-1]

        # Each listed path is a route; a method it does not list is a JSON 405 naming the others.
        for path, item in sorted(served["paths"].items()):
            concrete = path.replace("{slug}", "bach").replace("{id}", "1").replace("{page}", "shop").replace("{token}", share)
            if "get" in item and "events" not in path:
                status, _, _ = fetch(server.root + concrete + ("?q=bach" if path.endswith("/search") else ""))
                if status != 200:
                    failures.append(f"GET {concrete}: {status}")
            if "delete" not in item and path != "/api/openapi.json":
                status, headers, body = fetch(server.root + concrete, method="DELETE")
                allowed = set(headers.get("Allow", "").replace(" ", "").split(","))
                if status != 405 or json.loads(body)["error"]["code"] != "methodNotAllowed":
                    failures.append(f"DELETE {concrete}: {status} {body[:120]!r}")
                elif allowed != {method.upper() for method in item}:
                    failures.append(f"DELETE {concrete}: Allow {sorted(allowed)}, the description lists {sorted(item)}")
        print(f"every path answers as listed ({len(served['paths'])} paths)")

        status, headers, _ = fetch(
            server.root + "/api/v5/commands/playlists/new", method="POST", body=b"{}", headers={"Content-Type": "application/json"})
        token = headers.get("Screenplay-Token")
        assert status == 200 and token, f"a first command hands out a token: {status} {headers}"

        failures += schemathesis(server.root + "/api/openapi.json", server.root, "schemathesis.toml", token, "the public API")

        # The admin API: its description, every path it lists answering with the token, then fuzzed.
        admin = tokens["admin"]
        with tempfile.NamedTemporaryFile(suffix=".json") as written:
            subprocess.run([BINARY, "openapi", "--site", "admin", "--output", written.name], check=True, capture_output=True)
            with open(written.name) as file:
                described = json.load(file)
            validate(described)
            print(f"valid OpenAPI {described['openapi']} for the admin API: {len(described['paths'])} paths, "
                  f"{sum(len(item) for item in described['paths'].values())} operations")
            bearer = {"Authorization": "Bearer " + admin}
            status, _, body = fetch(server.root + "/admin/api/openapi.json", headers=bearer)
            assert status == 200 and json.loads(body) == described, f"GET /admin/api/openapi.json: {status}"
            print("the admin API serves (to its token) what `screenplay openapi --site admin` writes")
            for path, item in sorted(described["paths"].items()):
                concrete = (path.replace("{route}", "shop").replace("{key}", "nothing-here").replace("{id}", "nobody"))
                status, headers, body = fetch(server.root + concrete, method="PATCH", headers=bearer)
                allowed = set(headers.get("Allow", "").replace(" ", "").split(","))
                if status != 405 or allowed != {method.upper() for method in item}:
                    failures.append(f"PATCH {concrete}: {status} Allow {sorted(allowed)}, the description lists {sorted(item)}")
                status, _, _ = fetch(server.root + concrete, method=next(iter(item)).upper())
                if status != 401:
                    failures.append(f"{concrete} without a token: {status}, not 401")
            print(f"every admin path answers as listed, and only with a token ({len(described['paths'])} paths)")
            failures += schemathesis(written.name, server.root, "schemathesis-admin.toml", admin, "the admin API")
    finally:
        server.stop()
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("openapi flow: passed")


if __name__ == "__main__":
    main()
