#!/usr/bin/env python3
"""Fairness figures against a running demo server: one client's heavy use beside another's screens.

Each row times a screen request (`GET /api/v5/screens/cities`, a cached screen) from 127.0.0.2,
one request after another on a kept-alive connection, first alone and then beside a load from
127.0.0.1 (all of 127/8 is loopback on Linux, so these are two addresses), and prints both p99s
and their ratio. The baseline is measured again right before each load, in the same run: the
machine is shared and noisy, and only the ratio means anything.

  downloads   6 full downloads of the longest track at once, each started again when it ends
  sockets     2 200 slow sockets from one address (a head that never ends), every one the server
              closes opened again, for the whole measurement

Alone and beside are measured in turn, --rounds times (3), and the median ratio is the figure.
Loads run in processes of their own, so they do not share the measuring client's interpreter.
Target (issue 31): the screen's p99 beside each load within 2x of its p99 alone.
Usage: fairness_client.py --port PORT [--requests N] [--rounds N] [--sockets N] [--downloads N]
"""

import argparse
import multiprocessing
import os
import resource
import select
import socket
import sys
import time

SCREEN = "/api/v5/screens/cities"


def connect(port, source):
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def read_answer(sock, buffered, head_only=False):
    """Reads one HTTP answer; returns (status, headers, body, rest of the buffer)."""
    while b"\r\n\r\n" not in buffered:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before an answer")
        buffered += chunk
    head, _, rest = buffered.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = 0 if head_only else int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed mid-body")
        rest += chunk
    return status, headers, rest[:length], rest[length:]


def timed_gets(port, count, source="127.0.0.2"):
    """`count` GETs of the screen, one after another; returns each one's seconds."""
    sock, buffered, times = connect(port, source), b"", []
    request = f"GET {SCREEN} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
    for _ in range(count):
        started = time.perf_counter()
        try:
            sock.sendall(request)
            status, _, _, buffered = read_answer(sock, buffered)
        except (ConnectionError, OSError):
            # The server closed a kept-alive connection (its idle timeout): once more, anew.
            sock.close()
            sock, buffered = connect(port, source), b""
            sock.sendall(request)
            status, _, _, buffered = read_answer(sock, buffered)
        if status != 200:
            raise RuntimeError(f"the screen answered {status}")
        times.append(time.perf_counter() - started)
    sock.close()
    return times


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered) + 0.999999) - 1)]


def longest_track(port):
    sock, buffered, best = connect(port, "127.0.0.1"), b"", ("/media/audio/track/1.wav", 0)
    for track in range(1, 400):
        path = f"/media/audio/track/{track}.wav"
        sock.sendall(f"HEAD {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        status, headers, _, buffered = read_answer(sock, buffered, head_only=True)
        if status != 200:
            break
        size = int(headers.get("content-length", "0"))
        if size > best[1]:
            best = (path, size)
    sock.close()
    return best


# No load runs longer than this, whatever happens to the process that started it.
LOAD_SECONDS = 300


def download_forever(port, path, counter):
    """A download process: the track again and again, as fast as it can be read."""
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    deadline = time.monotonic() + LOAD_SECONDS
    while time.monotonic() < deadline:
        try:
            sock = connect(port, "127.0.0.1")
            sock.sendall(request)
            while True:
                chunk = sock.recv(262144)
                if not chunk:
                    break
                with counter.get_lock():
                    counter.value += len(chunk)
            sock.close()
        except OSError:
            time.sleep(0.05)


def flood_forever(port, count, refused, opened):
    """An attacker process: `count` sockets from 127.0.0.1, each sending a head that never ends;
    any socket the server closes (or refuses) is opened again at once."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))
    poller = select.epoll()
    sockets = {}

    def open_one():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind(("127.0.0.1", 0))
        try:
            sock.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            sock.close()
            return
        sockets[sock.fileno()] = [sock, False]
        poller.register(sock.fileno(), select.EPOLLOUT | select.EPOLLIN)
        with opened.get_lock():
            opened.value += 1

    for _ in range(count):
        open_one()
    deadline = time.monotonic() + LOAD_SECONDS
    while time.monotonic() < deadline:
        for fd, events in poller.poll(0.1):
            entry = sockets.get(fd)
            if entry is None:
                continue
            sock, sent = entry
            if events & select.EPOLLOUT and not sent:
                try:
                    sock.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                except OSError:
                    pass
                entry[1] = True
                poller.modify(fd, select.EPOLLIN)
                continue
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if data.startswith(b"HTTP/1.1 503"):
                with refused.get_lock():
                    refused.value += 1
            if not data or data.startswith(b"HTTP/"):
                poller.unregister(fd)
                del sockets[fd]
                sock.close()
                open_one()


def report(name, rounds, note):
    """Prints each round's p99s and ratio, and the median ratio: the load of a shared machine
    drifts, so alone and beside are measured in turn, several times."""
    ratios = []
    for index, (alone, beside) in enumerate(rounds):
        a, b = p99(alone) * 1000, p99(beside) * 1000
        ratios.append(b / a)
        print(f"  {name:<11} round {index + 1}: p99 alone {a:7.2f} ms   beside {b:8.2f} ms   {b / a:5.2f}x", flush=True)
    median = sorted(ratios)[len(ratios) // 2]
    verdict = "ok" if median <= 2 else "over 2x"
    print(f"  {name:<11} median ratio {median:.2f}x ({verdict}){note}", flush=True)
    return median


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--requests", type=int, default=400, help="timed screen requests per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alone/beside pairs per load")
    parser.add_argument("--sockets", type=int, default=2200)
    parser.add_argument("--downloads", type=int, default=6)
    args = parser.parse_args()
    port = args.port

    timed_gets(port, 50)  # warm the screen and the connection paths
    path, size = longest_track(port)
    print(f"==> screen {SCREEN} from 127.0.0.2, {args.requests} requests a measurement; loads from 127.0.0.1", flush=True)
    ratios = {}

    rounds, rates = [], []
    for _ in range(args.rounds):
        alone = timed_gets(port, args.requests)
        counter = multiprocessing.Value("q", 0)
        downloads = [multiprocessing.Process(target=download_forever, args=(port, path, counter), daemon=True) for _ in range(args.downloads)]
        for process in downloads:
            process.start()
        time.sleep(1)
        started, before = time.monotonic(), counter.value
        beside = timed_gets(port, args.requests)
        rates.append((counter.value - before) / (time.monotonic() - started) / 1e6)
        for process in downloads:
            process.terminate()
        for process in downloads:
            process.join()
        rounds.append((alone, beside))
        time.sleep(1)
    ratios["downloads"] = report(
        "downloads", rounds, f"  [{args.downloads} x {path} ({size / 1e6:.1f} MB); audio meanwhile {', '.join(f'{r:.1f}' for r in rates)} MB/s]")

    rounds, counts = [], []
    for _ in range(args.rounds):
        alone = timed_gets(port, args.requests)
        refused, opened = multiprocessing.Value("q", 0), multiprocessing.Value("q", 0)
        attacker = multiprocessing.Process(target=flood_forever, args=(port, args.sockets, refused, opened), daemon=True)
        attacker.start()
        time.sleep(3)
        beside = timed_gets(port, args.requests)
        attacker.terminate()
        attacker.join()
        rounds.append((alone, beside))
        counts.append((opened.value, refused.value))
        # The server closes what the attacker left open (its head's deadline) before the next round.
        time.sleep(6)
    ratios["sockets"] = report(
        "sockets", rounds,
        f"  [{args.sockets} slow sockets held open; opened, refused with 503 per round: {', '.join(f'{o}/{r}' for o, r in counts)}]")
    return 0 if all(ratio <= 2 for ratio in ratios.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
