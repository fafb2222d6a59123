#!/usr/bin/env python3
"""Userspace link emulator (copied from ../shared/tools/slow-link, the audit's) (this kernel has no netem): two TUN devices, one moved into each namespace;
packets crossing are serialised at RATE bit/s (drop-tail buffer of BUF bytes) and delayed by DELAY s each way.
usage: linkemu.py RATE_BITS DELAY_S BUF_BYTES CONTROL_FILE
CONTROL_FILE may be rewritten with 'RATE DELAY BUF' to change the shaping live (checked every 0.5 s)."""
import fcntl, os, select, struct, subprocess, sys, time, collections
TUNSETIFF = 0x400454ca
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000
rate, delay, buf = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
control = sys.argv[4]
def tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd
fs, fc = tun("lgs0"), tun("lgc0")
def sh(*a): subprocess.run(a, check=True)
sh("ip", "link", "set", "lgs0", "netns", "lgsrv"); sh("ip", "link", "set", "lgc0", "netns", "lgcli")
sh("ip", "-n", "lgsrv", "addr", "add", "192.0.2.1/24", "dev", "lgs0"); sh("ip", "-n", "lgsrv", "link", "set", "lgs0", "up")
sh("ip", "-n", "lgcli", "addr", "add", "192.0.2.2/24", "dev", "lgc0"); sh("ip", "-n", "lgcli", "link", "set", "lgc0", "up")
for ns, dev in (("lgsrv", "lgs0"), ("lgcli", "lgc0")):
    sh("ip", "-n", ns, "link", "set", dev, "txqueuelen", "2000")
print("linkemu ready", flush=True)
# per direction: FIFO of (deliver_at, packet), time the serialiser is busy until, drops
dirs = {fs: {"out": fc, "q": collections.deque(), "busy": 0.0, "drops": 0, "bytes": 0},
        fc: {"out": fs, "q": collections.deque(), "busy": 0.0, "drops": 0, "bytes": 0}}
last_ctl = 0.0; ctl_mtime = 0
while True:
    now = time.monotonic()
    if now - last_ctl > 0.5:
        last_ctl = now
        try:
            m = os.stat(control).st_mtime_ns
            if m != ctl_mtime:
                ctl_mtime = m
                r, d, b = open(control).read().split()
                rate, delay, buf = float(r), float(d), int(b)
        except (OSError, ValueError):
            pass
    nxt = min((d["q"][0][0] for d in dirs.values() if d["q"]), default=now + 0.5)
    timeout = max(0.0, min(nxt, now + 0.5) - now)
    ready, _, _ = select.select([fs, fc], [], [], timeout)
    now = time.monotonic()
    for fd in ready:
        d = dirs[fd]
        for _ in range(64):
            try:
                pkt = os.read(fd, 65536)
            except BlockingIOError:
                break
            start = max(now, d["busy"])
            backlog = (start - now) * rate / 8
            if backlog + len(pkt) > buf:
                d["drops"] += 1
                continue
            d["busy"] = start + len(pkt) * 8 / rate
            d["q"].append((d["busy"] + delay, pkt))
    now = time.monotonic()
    for d in dirs.values():
        q = d["q"]
        while q and q[0][0] <= now:
            _, pkt = q.popleft()
            try:
                os.write(d["out"], pkt)
                d["bytes"] += len(pkt)
            except OSError:
                pass
