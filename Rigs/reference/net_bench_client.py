#!/usr/bin/env python3
"""A plain RemoteTouch bench client for the network transports: Python 3, the standard library only.

`hil bench --reference --transport tcp,udp` runs it in the phone's network namespace (`ip netns exec`) next to its
own sender, to show what that sender adds. Written from docs/protocol.md alone, it speaks to the computer that
`hil bench` started:

  tcp  frames (a 4-byte big-endian length, then JSON) on the tcp port (51423): pairingRequest and pair with the code
       the computer shows, then one mouseMove message per command, at most one frame per 8 ms (the protocol's
       120 Hz; commands due sooner wait for the next frame, as a batch)
  udp  the same pairing on the control connection (8889), bindUDP with its own UDP socket's port, then one 5-byte
       AA movement packet per command to the movement port (8888)

The code is read from the computer's pairing code file (`hil peripheral --pairing-code-file`), which the computer
writes before it answers the pairingRequest. A phone already paired from this address is answered `paired`.

It writes one line per command to --sends: the CLOCK_MONOTONIC time just before the command was handed to the
socket (or queued for the next frame), in ns, a space, the command as the computer's receipts show it
(`{"cursorMove":{"delta":[5,0]}}`, `udp aa00050000`), and prints one JSON object on standard output:
{"sent": N, "achievedHz": R, "blocked": B, "refused": E} (B: times the socket was full; E: error messages the
computer sent during the stream). It judges nothing: hil bench does. Exit status 2 for bad arguments, 1 when the
computer cannot be reached, refuses the pairing or the binding, or closes the connection (the reason on standard
error).
"""
import argparse
import errno
import json
import queue
import select
import socket
import struct
import sys
import threading
import time

FRAME_INTERVAL_NS = 8_000_000
MAX_BATCH = 64


class ClientError(Exception):
    """A failure the computer caused or reported: the message says what happened."""


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def tcp_delta(index):
    """Command `index` of a tcp stream, as hil bench sends it: 1 + index % 997 to the right."""
    return 1 + index % 997, 0


def udp_delta(index):
    """Command `index` of a udp stream, as hil bench sends it: int8 deltas, so one command is one packet."""
    return 1 + index % 127, index // 127 % 127


def receipt_text(transport, dx, dy):
    """The command as the computer's receipts show it."""
    if transport == "udp":
        return "udp " + udp_packet(dx, dy).hex()
    return '{"cursorMove":{"delta":[%d,%d]}}' % (dx, dy)


def udp_packet(dx, dy):
    """A 5-byte movement packet: AA, no buttons, dx, dy, no wheel."""
    return struct.pack("BBbbb", 0xAA, 0, dx, dy, 0)


def frame(messages):
    """One frame: a single message, or a batch (a JSON array) of several."""
    body = json.dumps(messages[0] if len(messages) == 1 else messages, separators=(",", ":")).encode()
    return struct.pack(">I", len(body)) + body


def send_all(sock, data, destination=None):
    """Sends `data` (a datagram to `destination`, or bytes on the stream); waits for room (at most 5 s). Returns
    the times the socket was full."""
    full = 0
    while data:
        try:
            if destination is None:
                data = data[sock.send(data, socket.MSG_DONTWAIT):]
            else:
                sock.sendto(data, socket.MSG_DONTWAIT, destination)
                data = b""
            continue
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise
        full += 1
        _, writable, _ = select.select([], [sock], [], 5.0)
        if not writable:
            raise ClientError("the socket stayed full for 5 s")
    return full


class Connection:
    """The TCP connection to the computer and a thread that reads its frames into a queue."""

    def __init__(self, address, port, timeout):
        try:
            self.sock = socket.create_connection((address, port), timeout=timeout)
        except OSError as error:
            raise ClientError("cannot connect to the computer at %s:%d: %s" % (address, port, error)) from error
        self.sock.settimeout(None)
        # As any latency-sensitive client (and hil's own sender): no Nagle delay on small frames.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.messages = queue.Queue()
        self.last_stamp = 0.0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while len(buffer) >= 4:
                    (length,) = struct.unpack(">I", buffer[:4])
                    if len(buffer) < 4 + length:
                        break
                    self.messages.put(json.loads(buffer[4:4 + length]))
                    buffer = buffer[4 + length:]
        except (OSError, ValueError) as error:
            self.messages.put({"type": "closed", "reason": str(error)})
            return
        self.messages.put({"type": "closed", "reason": "the computer closed the connection"})

    def stamp(self, at_ns):
        """The phone's clock in ms (CLOCK_MONOTONIC), never going back on this connection."""
        self.last_stamp = max(self.last_stamp, at_ns / 1e6)
        return self.last_stamp

    def send(self, messages):
        return send_all(self.sock, frame(messages))

    def request(self, message, answer, timeout):
        """Sends one message and returns the computer's next `answer` message and the errors it sent before it."""
        message["timestamp"] = self.stamp(now_ns())
        self.send([message])
        errors = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                reply = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise ClientError("no %s from the computer within %g s after %s (errors: %s)"
                                  % (answer, timeout, message["type"], errors or "none")) from None
            if reply.get("type") == "closed":
                raise ClientError("%s while waiting for %s (errors: %s)" % (reply["reason"], answer, errors or "none"))
            if reply.get("type") == "error":
                errors.append("%s: %s" % (reply.get("code"), reply.get("message")))
            elif reply.get("type") == answer:
                return reply, errors

    def refusals(self):
        """Error messages the computer sent since the last look (statuses and pongs are dropped)."""
        errors = []
        while not self.messages.empty():
            reply = self.messages.get()
            if reply.get("type") in ("error", "closed"):
                errors.append(reply)
        return errors


def pair(connection, code_file, timeout):
    """pairingRequest, then pair with the code the computer shows (read from its code file)."""
    reply, errors = connection.request({"type": "pairingRequest"}, "pairing", timeout)
    state = reply["status"]["state"]
    if state == "paired":
        return
    if state != "awaitingCode":
        raise ClientError("the computer answered pairingRequest with %s %s" % (state, errors))
    try:
        with open(code_file) as file:
            code = file.read().strip()
    except OSError as error:
        raise ClientError("cannot read the pairing code file %s: %s" % (code_file, error)) from error
    reply, errors = connection.request({"type": "pair", "code": code}, "pairing", timeout)
    if reply["status"]["state"] != "paired":
        raise ClientError("the computer refused the code from %s: %s, state %s"
                          % (code_file, "; ".join(errors) or "no error", reply["status"]["state"]))


def stream(connection, transport, target, rate, count, sends):
    """Sends `count` commands paced from the first (command i at origin + i / rate); the summary."""
    interval_ns = int(1e9 / rate)
    movement = None
    if transport == "udp":
        movement, destination = target
    blocked = 0
    lines = []
    pending = []
    last_frame = None
    origin = now_ns()

    def sleep_until(due):
        wait = due - now_ns()
        if wait > 0:
            time.sleep(wait / 1e9)

    def flush():
        nonlocal pending, last_frame, blocked
        for start in range(0, len(pending), MAX_BATCH):
            blocked += connection.send(pending[start:start + MAX_BATCH])
        pending = []
        last_frame = now_ns()

    try:
        for index in range(count):
            due = origin + index * interval_ns
            # A frame held back by the 8 ms rule leaves on time, even when the next command is due later.
            if pending and last_frame + FRAME_INTERVAL_NS <= due:
                sleep_until(last_frame + FRAME_INTERVAL_NS)
                flush()
            sleep_until(due)
            dx, dy = udp_delta(index) if movement else tcp_delta(index)
            at = now_ns()
            if movement:
                blocked += send_all(movement, udp_packet(dx, dy), destination)
            else:
                pending.append({"type": "mouseMove", "timestamp": connection.stamp(at), "dx": dx, "dy": dy})
                if last_frame is None or at - last_frame >= FRAME_INTERVAL_NS:
                    flush()
            lines.append("%d %s\n" % (at, receipt_text(transport, dx, dy)))
        if pending:
            sleep_until(last_frame + FRAME_INTERVAL_NS)
            flush()
    finally:
        span = (now_ns() - origin) / 1e9
        with open(sends, "w") as out:
            out.writelines(lines)
    return {"sent": len(lines), "achievedHz": len(lines) / span if span > 0 else 0, "blocked": blocked}


def run(arguments):
    connection = Connection(arguments.address, arguments.port, arguments.timeout)
    movement = None
    try:
        pair(connection, arguments.code_file, arguments.timeout)
        # Basic mouse mode, as hil's own sender sets it; the ping's pong says the computer handled it.
        connection.send([{"type": "modeChange", "timestamp": connection.stamp(now_ns()), "mode": "basicMouse"}])
        _, errors = connection.request({"type": "ping"}, "pong", arguments.timeout)
        if errors:
            raise ClientError("the computer refused modeChange: %s" % "; ".join(errors))
        target = None
        if arguments.transport == "udp":
            movement = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            movement.bind(("", 0))
            port = movement.getsockname()[1]
            reply, errors = connection.request({"type": "bindUDP", "port": port}, "udpBound", arguments.timeout)
            if reply.get("port") != port:
                raise ClientError("the computer bound port %s, not %d: %s" % (reply.get("port"), port, errors))
            target = (movement, (arguments.address, arguments.udp_port))
        result = stream(connection, arguments.transport, target, arguments.rate, arguments.count, arguments.sends)
        # The last packets reach the computer before the session (and with it the udp binding) ends.
        time.sleep(arguments.linger)
        refusals = connection.refusals()
        result["refused"] = sum(1 for reply in refusals if reply.get("type") == "error")
        for reply in refusals[:3]:
            print("net_bench_client: the computer sent %s" % json.dumps(reply), file=sys.stderr)
        return result
    finally:
        if movement:
            movement.close()
        connection.sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=["tcp", "udp"], required=True)
    parser.add_argument("--address", required=True, help="the computer's IPv4 address")
    parser.add_argument("--port", type=int, required=True,
                        help="tcp: the tcp port (51423); udp: the control port (8889)")
    parser.add_argument("--udp-port", type=int, default=8888, help="udp: the computer's movement port")
    parser.add_argument("--code-file", required=True, help="the computer's pairing code file")
    parser.add_argument("--rate", type=float, required=True, help="commands per second")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--sends", required=True, help="where the send times go")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each answer while setting up")
    parser.add_argument("--linger", type=float, default=0.5, help="seconds to keep the connection after the last send")
    arguments = parser.parse_args()
    if arguments.rate <= 0 or arguments.count < 1:
        parser.error("--rate and --count must be positive")
    try:
        result = run(arguments)
    except (ClientError, OSError) as error:
        print("net_bench_client: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
