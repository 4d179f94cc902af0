#!/usr/bin/env python3
"""The measuring side of scripts/fanout.sh: many open screen event streams against one server.

Run by scripts/fanout.sh, which builds and starts the server; run alone against a server already
listening (`python3 scripts/fanout_client.py --help`). Python 3 standard library only.

What it measures, every figure against a baseline measured in the same run:

  (a) a user's write (favorites/remove or add of playlist 1) to the `screen` event on that user's
      own stream, with 1 stream open (baseline) and with 1 000 open; the other streams must hear
      nothing (stray events are counted and must be 0).
  (b) a publish of the composed page `shop` (the kill switch of its `deal-price` widget, one
      request) to the `shop` event on every stream, with 10 streams open (baseline) and 1 000.
  The server's resident memory (VmRSS) with the users created and their screens built, and with
  1 000 streams open: the difference per stream.

The baselines are measured before the 1 000 streams open and again after they close; both runs
count, so a machine that got busier or quieter in between does not decide the ratio alone.

Arrival times are the kernel's receive stamps (SO_TIMESTAMPNS), not the moment this process got
round to reading a socket: when a publish wakes 1 000 streams at once, a Python loop reads them one
after another over several milliseconds, and that lag would otherwise be counted as the server's.
The lag is still printed, as a check that the stamps matter.

With `--hold SECONDS` it measures nothing: it creates the users, opens a stream for each and keeps
them open that long, as the quiet clients of `scripts/load.sh --soak` (a stream the server ends as
idle, after 5 minutes without an event, is opened again, as an app would). Every minute one user
writes, and their stream must hear it. It prints what the streams heard and exits 1 when a stream
closed unexpectedly, failed to reopen, or missed its user's write.
"""

import argparse
import asyncio
import json
import math
import os
import socket
import struct
import sys
import time

# Not exported by every Python's socket module; 35 on Linux (SO_TIMESTAMPNS_OLD, a timespec of two
# longs in SCM_TIMESTAMPNS ancillary data).
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
SCREENS = "home,playlist/1,shop"
PLAYLIST = 1


def rss_kib(pid):
    """The process's resident memory in KiB, from /proc/PID/status."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def percentile(values, fraction):
    """Nearest-rank percentile: the smallest value with at least `fraction` of them at or below it."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class HTTPConnection:
    """A keep-alive HTTP/1.1 connection for commands, screens and the admin API.

    One request at a time. Opened again before a request when it sat idle for longer than the
    server is likely to keep it (its idle timeout is 30 s by default), so a phase never starts on a
    connection the server has just closed.
    """

    IDLE_REOPEN_SECONDS = 20

    def __init__(self, host, port, local_address=None):
        self.host = host
        self.port = port
        self.local_address = local_address
        self.reader = None
        self.writer = None
        self.last_used = 0.0

    async def open(self):
        await self.close()
        local = (self.local_address, 0) if self.local_address else None
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local)
        self.writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None

    async def request(self, method, path, body=None, token=None):
        """Sends one request; returns (status, headers with lower-case names, body, send time in ns).

        The send time is the wall clock (the kernel's receive stamps are wall-clock too), read just
        before the request's bytes are handed to the socket.
        """
        if self.writer is None or time.monotonic() - self.last_used > self.IDLE_REOPEN_SECONDS:
            await self.open()
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(payload)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Bearer {token}")
        data = ("\r\n".join(head) + "\r\n\r\n").encode() + payload
        sent = time.time_ns()
        self.writer.write(data)
        await self.writer.drain()
        raw_head = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw_head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        answer = await self.reader.readexactly(int(headers.get("content-length", "0")))
        self.last_used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, headers, answer, sent


class EventStream:
    """One open `GET /api/v5/events` stream on a raw non-blocking socket.

    Read with `recvmsg`, so each chunk comes with the kernel's receive stamp; the body is chunked
    (Hummingbird streams without a length) and holds server-sent events, handed to `on_event` as
    (stream, type, data, kernel stamp ns, read time ns).
    """

    def __init__(self, user, on_event):
        self.user = user
        self.on_event = on_event
        self.sock = None
        self.head = b""
        self.status = None
        self.chunked = False
        self.raw = b""  # chunked body bytes not decoded yet
        self.text = b""  # decoded event-stream bytes not parsed yet
        self.ready = None
        self.closed = False
        self.closing = False  # closed by this client: not counted as the server ending it
        self.close_reason = None

    async def open(self, loop, host, port):
        self.ready = loop.create_future()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        await loop.sock_connect(self.sock, (host, port))
        request = (
            f"GET /api/v5/events?screens={SCREENS} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Authorization: Bearer {self.user.token}\r\nAccept: text/event-stream\r\n\r\n"
        )
        await loop.sock_sendall(self.sock, request.encode())
        loop.add_reader(self.sock.fileno(), self.readable, loop)
        await self.ready

    def close(self, loop):
        if self.sock is not None and not self.closed:
            loop.remove_reader(self.sock.fileno())
            self.sock.close()
        self.closed = True

    def readable(self, loop):
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, 256)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self.ended(loop, f"read failed: {error}")
            return
        read = time.time_ns()
        stamp = read
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(value) >= 16:
                seconds, nanoseconds = struct.unpack("qq", value[:16])
                stamp = seconds * 1_000_000_000 + nanoseconds
        if not data:
            self.ended(loop, "closed by the server")
            return
        if self.status is None:
            self.head += data
            if b"\r\n\r\n" not in self.head:
                return
            head, self.raw = self.head.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            self.status = int(lines[0].split()[1])
            self.chunked = any(line.lower().replace(" ", "") == "transfer-encoding:chunked" for line in lines[1:])
            if self.status != 200:
                self.ended(loop, f"status {self.status}: {self.raw[:200]!r}")
                return
        else:
            self.raw += data
        self.decode()
        self.parse(stamp, read)

    def decode(self):
        """Moves whole chunks from `raw` to `text` (or everything, for a body without chunks)."""
        if not self.chunked:
            self.text += self.raw
            self.raw = b""
            return
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.text += self.raw[line_end + 2 : line_end + 2 + size]
            self.raw = self.raw[line_end + 2 + size + 2 :]
            if size == 0:
                return

    def parse(self, stamp, read):
        while b"\n\n" in self.text:
            block, self.text = self.text.split(b"\n\n", 1)
            kind, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    continue  # a heartbeat
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)
            if not data:
                continue  # an id-only message: nothing changed for this stream
            payload = json.loads("\n".join(data))
            if kind == "ready" and not self.ready.done():
                self.ready.set_result(payload)
            self.on_event(self, kind, payload, stamp, read)

    def ended(self, loop, reason):
        self.close(loop)
        self.close_reason = reason
        if self.ready is not None and not self.ready.done():
            self.ready.set_exception(RuntimeError(f"stream for user {self.user.index}: {reason}"))
        self.on_event(self, "closed", {"reason": reason}, time.time_ns(), time.time_ns())


class User:
    """One user of the run: their token, what the server holds for their favorite (so each write
    changes it), and what the current phase sent and heard for them."""

    def __init__(self, index, token):
        self.index = index
        self.token = token
        self.favorite = True  # created by favorites/add of the playlist
        self.writes = 0  # writes sent during the phase
        self.events = 0  # screen events on this user's streams during the phase


class Run:
    """The measurement: users, streams, phases, and the figures they produce."""

    def __init__(self, options):
        self.options = options
        self.host = "127.0.0.1"
        self.port = options.port
        self.loop = asyncio.get_running_loop()
        self.users = []
        self.streams = []
        self.phase = None
        self.waiting = {}  # what the phase waits for: user index -> future, or "publish" -> state
        self.lags = []  # read time - kernel stamp, ms, for every screen event
        self.unexpected_closes = []
        self.extra_events = 0  # screen events beyond the one expected: another screen, or a second for one change
        self.holding = False  # --hold: a stream ended as idle is opened again
        self.idle_reopens = 0
        self.screen_events = 0

    # MARK: Events

    def on_event(self, stream, kind, payload, stamp, read):
        if kind == "closed":
            if not stream.closing:
                self.unexpected_closes.append(f"user {stream.user.index}: {payload['reason']}")
            return
        if kind == "end":
            if self.holding and payload.get("reason") == "idle":
                stream.closing = True
                self.idle_reopens += 1
                self.loop.create_task(self.reopen(stream))
                return
            self.unexpected_closes.append(f"user {stream.user.index}: event end {payload}")
            return
        if kind != "screen":
            return
        self.screen_events += 1
        self.lags.append((read - stamp) / 1e6)
        user = stream.user
        if self.phase == "write":
            user.events += 1
            if payload.get("path") != f"playlist/{PLAYLIST}":
                self.extra_events += 1
            waiter = self.waiting.get(user.index)
            if waiter is not None and not waiter.done():
                waiter.set_result(stamp)
        elif self.phase == "publish":
            state = self.waiting.get("publish")
            if payload.get("path") != "shop" or state is None or stream in state["seen"]:
                self.extra_events += 1
                return
            state["seen"][stream] = stamp
            if len(state["seen"]) == state["expected"] and not state["done"].done():
                state["done"].set_result(None)

    # MARK: Setup

    async def create_users(self, count):
        """Creates `count` users by their first command, from many loopback addresses.

        The server lets one address create 20 identities at once and 1 a second after that, and
        the process 200 at once and 20 a second: spreading the requests over 100 source addresses
        (127.0.0.2 to 127.0.0.101, all loopback on Linux) leaves only the process limit, which
        a 429's Retry-After paces.
        """
        addresses = [f"127.0.0.{2 + n}" for n in range(min(100, count))]
        tokens = [None] * count
        refused = 0

        async def create_from(address_index):
            nonlocal refused
            connection = HTTPConnection(self.host, self.port, addresses[address_index])
            for index in range(address_index, count, len(addresses)):
                while tokens[index] is None:
                    status, headers, body, _ = await connection.request(
                        "POST", "/api/v5/commands/favorites/add", {"playlistId": PLAYLIST})
                    if status == 429:
                        refused += 1
                        await asyncio.sleep(float(headers.get("retry-after", "1")))
                        continue
                    if status != 200 or "screenplay-token" not in headers:
                        raise RuntimeError(f"creating a user: status {status}: {body[:200]!r}")
                    tokens[index] = headers["screenplay-token"]
            await connection.close()

        started = time.monotonic()
        await asyncio.gather(*(create_from(n) for n in range(len(addresses))))
        self.users = [User(index, token) for index, token in enumerate(tokens)]
        print(f"  {count} users in {time.monotonic() - started:.1f} s ({refused} requests paced by 429)", flush=True)

    async def warm_screens(self):
        """Builds every user's watched screens once, as opening their streams would, so the
        resident memory measured next to 1 000 open streams is the streams' own, not the cache's."""
        queue = list(self.users)

        async def warm():
            connection = HTTPConnection(self.host, self.port)
            while queue:
                user = queue.pop()
                for screen in SCREENS.split(","):
                    status, _, body, _ = await connection.request("GET", f"/api/v5/screens/{screen}", token=user.token)
                    if status != 200:
                        raise RuntimeError(f"GET screens/{screen}: status {status}: {body[:200]!r}")
            await connection.close()

        await asyncio.gather(*(warm() for _ in range(8)))

    async def open_streams(self, users):
        """Opens one stream per user, 50 connections at a time (the server's listen backlog is
        finite), and waits until each has said `ready`."""
        streams = [EventStream(user, self.on_event) for user in users]
        limit = asyncio.Semaphore(50)

        async def open_one(stream):
            async with limit:
                await stream.open(self.loop, self.host, self.port)

        await asyncio.gather(*(open_one(stream) for stream in streams))
        self.streams = streams

    async def reopen(self, ended):
        """Opens a new stream for the user whose stream the server ended as idle."""
        stream = EventStream(ended.user, self.on_event)
        try:
            await stream.open(self.loop, self.host, self.port)
        except Exception as error:  # noqa: BLE001 - reported, and the run fails
            self.unexpected_closes.append(f"user {ended.user.index}: reopening failed: {error}")
            return
        self.streams = [stream if s is ended else s for s in self.streams]

    async def hold(self, seconds):
        """Keeps every user's stream open for `seconds`; once a minute a user writes and must hear
        it on their stream. Returns the writes that were never heard."""
        self.holding = True
        self.phase = "write"
        connection = HTTPConnection(self.host, self.port)
        deadline = time.monotonic() + seconds
        missed, written = 0, 0
        while time.monotonic() + 60 < deadline:
            await asyncio.sleep(60)
            user = self.users[(written * 337) % len(self.users)]
            waiter = self.loop.create_future()
            self.waiting = {user.index: waiter}
            command = "remove" if user.favorite else "add"
            status, _, body, _ = await connection.request(
                "POST", f"/api/v5/commands/favorites/{command}", {"playlistId": PLAYLIST}, token=user.token)
            written += 1
            if status != 200:
                raise RuntimeError(f"hold: favorites/{command} answered {status}: {body[:200]!r}")
            user.favorite = not user.favorite
            try:
                await asyncio.wait_for(waiter, 10)
            except asyncio.TimeoutError:
                missed += 1
            print(f"  {written} min: {len(self.streams)} streams open, {self.screen_events} screen events heard, "
                  f"{self.idle_reopens} reopened after idle, {len(self.unexpected_closes)} closed unexpectedly", flush=True)
        await asyncio.sleep(max(0, deadline - time.monotonic()))
        await connection.close()
        return written, missed

    async def close_streams(self):
        for stream in self.streams:
            stream.closing = True
            stream.close(self.loop)
        self.streams = []
        # The server unregisters a stream when it sees the close; give it a moment, so the next
        # phase is not counted against streams still leaving.
        await asyncio.sleep(1.0)

    # MARK: Phases

    async def writes(self, writers, label):
        """Each writer in turn toggles the playlist's favorite and waits for the `screen` event on
        their own stream; returns the latencies in ms and the stray events (events on streams of
        users who did not write, or more events than writes)."""
        for user in self.users:
            user.writes = user.events = 0
        self.phase = "write"
        connection = HTTPConnection(self.host, self.port)
        latencies, missing = [], 0
        for user in writers:
            waiter = self.loop.create_future()
            self.waiting = {user.index: waiter}
            command = "remove" if user.favorite else "add"
            user.writes += 1
            status, _, body, sent = await connection.request(
                "POST", f"/api/v5/commands/favorites/{command}", {"playlistId": PLAYLIST}, token=user.token)
            if status != 200:
                raise RuntimeError(f"{label}: favorites/{command} answered {status}: {body[:200]!r}")
            user.favorite = not user.favorite
            try:
                stamp = await asyncio.wait_for(waiter, timeout=5)
                latencies.append((stamp - sent) / 1e6)
            except asyncio.TimeoutError:
                missing += 1
        await connection.close()
        # Late events would show up here: wait a little before counting.
        await asyncio.sleep(0.5)
        self.phase = None
        self.waiting = {}
        stray = sum(max(0, user.events - user.writes) for user in self.users)
        return latencies, stray, missing

    async def publishes(self, admin_token, count, label):
        """Switches the shop's `deal-price` widget off and on `count` times (each a publish) and
        waits for every open stream's `shop` event; returns every stream's latency in ms, the
        slowest stream's per publish, and how many events never came."""
        self.phase = "publish"
        connection = HTTPConnection(self.host, self.port)
        latencies, slowest, missing = [], [], 0
        self.publish_details = []  # (answer, first event, last event) in ms, per publish
        for number in range(count):
            # In place before sending: an event can arrive before the answer does.
            state = {"seen": {}, "expected": len(self.streams), "done": self.loop.create_future()}
            self.waiting = {"publish": state}
            enabled = number % 2 == 1  # off first: the seed has it on
            status, _, body, sent = await connection.request(
                "POST", "/admin/api/pages/shop/widgets/deal-price/enabled", {"enabled": enabled}, token=admin_token)
            answered = (time.time_ns() - sent) / 1e6
            if status != 200:
                raise RuntimeError(f"{label}: the kill switch answered {status}: {body[:200]!r}")
            try:
                await asyncio.wait_for(state["done"], timeout=15)
            except asyncio.TimeoutError:
                missing += state["expected"] - len(state["seen"])
            arrivals = [(stamp - sent) / 1e6 for stamp in state["seen"].values()]
            latencies += arrivals
            if arrivals:
                slowest.append(max(arrivals))
                self.publish_details.append((answered, min(arrivals), max(arrivals)))
            # Every stream also looked at its home and playlist again: let that settle.
            await asyncio.sleep(0.3)
        await connection.close()
        if count % 2 == 1:
            # Leave the widget on, as seeded, for the next phase (not measured).
            await HTTPConnection(self.host, self.port).request(
                "POST", "/admin/api/pages/shop/widgets/deal-price/enabled", {"enabled": True}, token=admin_token)
            await asyncio.sleep(0.5)
        self.phase = None
        self.waiting = {}
        return latencies, slowest, missing


def row(label, values, baseline, note=""):
    p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
    if baseline is None:
        ratio = "     1.00x      1.00x"
    else:
        ratio = f"{p50 / percentile(baseline, 0.5):9.2f}x {p99 / percentile(baseline, 0.99):9.2f}x"
    print(f"{label:<52} {p50:8.2f} {p99:8.2f} {ratio} {len(values):8d}  {note}")


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server-pid", type=int, required=True, help="the server's process, for its VmRSS")
    parser.add_argument("--admin-token", help="an admin API token (screenplay admin create-token); needed unless --hold")
    parser.add_argument("--streams", type=int, default=1_000)
    parser.add_argument("--writes", type=int, default=300, help="writes per (a) run")
    parser.add_argument("--publishes", type=int, default=20, help="publishes per (b) run")
    parser.add_argument("--hold", type=int, default=0, metavar="SECONDS",
                        help="measure nothing: hold a stream per user open this long (the soak's quiet clients)")
    options = parser.parse_args()
    run = Run(options)
    pid = options.server_pid

    if options.hold:
        print(f"==> creating {options.streams} users for the held streams", flush=True)
        await run.create_users(options.streams)
        await run.open_streams(run.users)
        print(f"==> holding {options.streams} streams open for {options.hold} s", flush=True)
        written, missed = await run.hold(options.hold)
        opened = sum(1 for stream in run.streams if not stream.closed)
        await run.close_streams()
        print(f"held streams: {opened} of {options.streams} open at the end, {run.screen_events} screen events heard, "
              f"{run.idle_reopens} reopened after the idle limit, {len(run.unexpected_closes)} closed unexpectedly, "
              f"{missed} of {written} writes not heard on their user's stream")
        for reason in run.unexpected_closes[:5]:
            print(f"  {reason}")
        if run.unexpected_closes or missed or opened != options.streams:
            sys.exit(1)
        return
    if not options.admin_token:
        parser.error("--admin-token is needed to measure publishes")

    print(f"==> creating {options.streams} users (20 a second: the server's limit on new identities)", flush=True)
    await run.create_users(options.streams)
    rss_users = rss_kib(pid)
    await run.warm_screens()
    rss_warm = rss_kib(pid)

    baseline_writes, baseline_publishes = [], []
    stray_total, missing_total = 0, 0

    async def baselines(when):
        nonlocal stray_total, missing_total
        print(f"==> baseline ({when}): writes with 1 stream open, publishes with 10", flush=True)
        await run.open_streams(run.users[:1])
        latencies, stray, missing = await run.writes([run.users[0]] * options.writes, "baseline writes")
        await run.close_streams()
        baseline_writes.append(latencies)
        stray_total += stray
        missing_total += missing
        await run.open_streams(run.users[:10])
        latencies, _, missing = await run.publishes(options.admin_token, options.publishes, "baseline publishes")
        await run.close_streams()
        baseline_publishes.append(latencies)
        missing_total += missing

    await baselines("before")

    print(f"==> opening {options.streams} streams", flush=True)
    started = time.monotonic()
    await run.open_streams(run.users)
    opened_in = time.monotonic() - started
    await asyncio.sleep(1.0)
    rss_streams = rss_kib(pid)
    print(f"  open in {opened_in:.1f} s", flush=True)

    print(f"==> (a) {options.writes} writes by as many users, {options.streams} streams open", flush=True)
    # A stride coprime with the user count: every writer a different user, spread over all of them.
    stride = next(s for s in range(337, 10_000) if math.gcd(s, options.streams) == 1)
    writers = [run.users[(k * stride) % options.streams] for k in range(min(options.writes, options.streams))]
    many_writes, stray, missing = await run.writes(writers, "writes")
    stray_total += stray
    missing_total += missing

    print(f"==> (b) {options.publishes} publishes, {options.streams} streams open", flush=True)
    many_publishes, slowest, missing = await run.publishes(options.admin_token, options.publishes, "publishes")
    publish_details = run.publish_details
    missing_total += missing
    lags = list(run.lags)

    await run.close_streams()
    await asyncio.sleep(1.0)
    rss_closed = rss_kib(pid)

    await baselines("after")

    before_writes, after_writes = baseline_writes
    before_publishes, after_publishes = baseline_publishes
    all_baseline_writes = before_writes + after_writes
    all_baseline_publishes = before_publishes + after_publishes
    n = options.streams
    print()
    print(f"{'figure (time from the request to the event)':<52} {'p50 ms':>8} {'p99 ms':>8} {'p50 ratio':>10} {'p99 ratio':>10} {'samples':>8}")
    row("(a) write -> own stream's event, 1 stream", all_baseline_writes, None,
        f"before {percentile(before_writes, 0.5):.2f} / after {percentile(after_writes, 0.5):.2f} ms p50")
    row(f"(a) write -> own stream's event, {n} streams", many_writes, all_baseline_writes)
    row("(b) publish -> each stream's shop event, 10 streams", all_baseline_publishes, None,
        f"before {percentile(before_publishes, 0.5):.2f} / after {percentile(after_publishes, 0.5):.2f} ms p50")
    row(f"(b) publish -> each stream's shop event, {n} streams", many_publishes, all_baseline_publishes)
    row(f"(b) publish -> the last of the {n} streams' events", slowest, all_baseline_publishes, "one sample per publish")
    print(f"(b) each publish with {n} streams, in order, as answer/first event/last event (ms):")
    print("    " + " ".join(f"{answer:.0f}/{first:.0f}/{last:.0f}" for answer, first, last in publish_details))
    print()
    print(f"stray events (on streams whose user did not write) during (a): {stray_total}   (must be 0)")
    print(f"events that never came: {missing_total}; streams closed unexpectedly: {len(run.unexpected_closes)}; "
          f"events beyond the one expected per change (another screen, or a repeat): {run.extra_events}")
    for reason in run.unexpected_closes[:5]:
        print(f"  {reason}")
    print(f"client read lag after the kernel's stamp (not counted above): p50 {percentile(lags, 0.5):.2f} ms, "
          f"p99 {percentile(lags, 0.99):.2f} ms, max {max(lags, default=0):.2f} ms")
    print(f"server resident memory: {rss_users // 1024} MiB with {n} users, {rss_warm // 1024} MiB with their screens built, "
          f"{rss_streams // 1024} MiB with {n} streams open, {rss_closed // 1024} MiB after they closed")
    print(f"per open stream: {(rss_streams - rss_warm) / n:.1f} KiB "
          f"({(rss_streams - rss_users) / n:.1f} KiB counting the screens the streams need built); streams opened in {opened_in:.1f} s")
    if stray_total or missing_total or run.unexpected_closes:
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
