#!/usr/bin/env python3
"""Resident memory of a running switchboard process before, with and after N idle WebSocket
connections (to 127.0.0.1 only).

    python3 scripts/connection-churn-rss.py --pid PID --port PORT [--count 5000] [--login]
        [--rounds 2] [--settle 5]

Each round opens `count` connections (upgraded with lc.protobuf2.3; with --login each also
opens a session as m<round>-<n>), holds them, closes them all (close frame, then the socket),
and prints VmRSS of the server before, at the peak and `settle` seconds after the last socket
is gone.
"""
import argparse
import asyncio
import base64
import os
import resource
import struct
import time


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, data):
    return varint((number << 3) | 2) + varint(len(data)) + data


def session_open(peer):
    # GenericCommand { cmd: session (0), op: open (1), appId, peerId, i: 1, sessionMessage: {} }
    return (field_varint(1, 0) + field_varint(2, 1) + field_bytes(3, b"switchboard-dev")
            + field_bytes(4, peer.encode()) + field_varint(5, 1) + field_bytes(102, b""))


def ws_frame(opcode, payload):
    mask = os.urandom(4)
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


async def read_frame(reader):
    head = await reader.readexactly(2)
    n = head[1] & 0x7F
    if n == 126:
        n = struct.unpack("!H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", await reader.readexactly(8))[0]
    payload = await reader.readexactly(n)
    return head[0] & 0x0F, payload


async def connect(port, peer):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: lc.protobuf2.3\r\n\r\n").encode())
    response = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in response.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"upgrade refused: {response[:80]!r}")
    if peer is not None:
        writer.write(ws_frame(2, session_open(peer)))
        while True:
            opcode, payload = await read_frame(reader)
            if opcode == 2:
                # session (cmd field 1 = 0, absent in proto2 when default, so look for op=opened)
                if b"\x10\x05" in payload[:8]:
                    break
            elif opcode == 8:
                raise RuntimeError("closed during login")
    return reader, writer


async def close(reader, writer):
    try:
        writer.write(ws_frame(8, struct.pack("!H", 1000)))
        await writer.drain()
        # The server answers with its own close frame and then closes the socket.
        await asyncio.wait_for(reader.read(), timeout=10)
    except Exception:
        pass
    writer.close()
    try:
        await writer.wait_closed()
    except Exception:
        pass


async def round_(args, number):
    before = rss_kb(args.pid)
    sem = asyncio.Semaphore(200)

    async def one(n):
        async with sem:
            return await connect(args.port, f"m{number}-{n}" if args.login else None)

    started = time.monotonic()
    connections = await asyncio.gather(*(one(n) for n in range(args.count)))
    opened = time.monotonic() - started
    await asyncio.sleep(1)
    peak = rss_kb(args.pid)
    await asyncio.gather(*(close(r, w) for r, w in connections))
    await asyncio.sleep(args.settle)
    after = rss_kb(args.pid)
    print(f"round {number}: {args.count} {'logged-in' if args.login else 'upgraded'} connections in {opened:.1f} s; "
          f"VmRSS before {before / 1024:.1f} MB, peak {peak / 1024:.1f} MB, after {after / 1024:.1f} MB "
          f"(after - before {(after - before) / 1024:+.1f} MB)", flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--login", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.count + 1000)), hard))
    for number in range(1, args.rounds + 1):
        await round_(args, number)


asyncio.run(main())
