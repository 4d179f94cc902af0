"""`screenplay serve` for the browser flows: the debug build, a free loopback port, a fresh data folder."""
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, ".build", "debug", "screenplay")


class DemoServer:
    """The demo on a free port with its own data folder; `prepare(run)` runs CLI commands on the
    folder first (`run("admin", "create-user", …)`), `arguments` go to `serve`. Without its
    promotions service unless `promotions` names one (a `PromotionsService().url`)."""

    def __init__(self, *arguments, prefix="screenplay-browser-", prepare=None, promotions="off"):
        self.data = tempfile.mkdtemp(prefix=prefix)
        if prepare:
            prepare(self.run)
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", "0", "--data", self.data, "--promotions", promotions, "--log-level", "error", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.root = None
        deadline = time.time() + 90
        while time.time() < deadline and self.root is None:
            line = self.process.stdout.readline()
            if not line:
                break
            for word in line.split():
                if word.startswith("http://127.0.0.1:") and word.endswith("/"):
                    self.root = word.rstrip("/")
        if self.root is None:
            self.stop()
            raise RuntimeError("the demo server did not start")

    def run(self, *arguments, **options):
        """A CLI command on this server's data folder; its completed process."""
        return subprocess.run([BINARY, *arguments, "--data", self.data], check=True, capture_output=True, text=True, **options)

    def stop(self):
        end(self.process)
        shutil.rmtree(self.data, ignore_errors=True)


class PromotionsService:
    """`screenplay promotions` on a free loopback port, answering at once and never failing: for
    the flows that need the shop's promotions on the page."""

    def __init__(self):
        self.process = subprocess.Popen(
            [BINARY, "promotions", "--port", "0", "--max-delay-ms", "0", "--failure-rate", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.url = next((word for word in line.split() if word.startswith("http://127.0.0.1:")), None)
        if self.url is None:
            self.stop()
            raise RuntimeError(f"the promotions service did not start: {line!r}")

    def stop(self):
        end(self.process)


def end(process):
    """Ends a child started with a piped stdout: asked first, killed after 10 s; its pipe closed."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()


def start_clean(browser):
    """Leaves the previous test's page for a blank one, then forgets every cookie.

    In that order: a page still open (an event stream that reconnects, a preview that refreshes)
    could otherwise be answered with a new cookie after the cookies were deleted, racing the next
    test's first page. A sign-in form whose token cookie was replaced that way is refused as
    expired, which is right for the product and a flake for the test.
    """
    browser.get("about:blank")
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
