#!/usr/bin/env python3
"""A byte-counting TCP relay on 127.0.0.1: the client connects to LISTEN_PORT, the relay connects to TARGET_PORT and
passes bytes both ways unchanged, counting them. After every closed connection (and on SIGTERM) it rewrites
COUNT_FILE with one line: "<bytes server->client> <bytes client->server> <connections>".
It is how remote-sftp.sh compares what the client receives over sftp:// and over http:// (sshd logs no byte counts,
and SSH framing, key exchange and read-ahead are part of the real cost, so they must be counted on the wire).
usage: byte-relay.py LISTEN_PORT TARGET_PORT COUNT_FILE"""
import os, selectors, signal, socket, sys

listen_port, target_port, count_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
down = up = connections = 0

def save():
    tmp = count_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d %d\n" % (down, up, connections))
    os.replace(tmp, count_file)

def on_term(*_):
    save()
    sys.exit(0)

signal.signal(signal.SIGTERM, on_term)
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen_port))
server.listen(128)
selector = selectors.DefaultSelector()
selector.register(server, selectors.EVENT_READ, None)
peers = {}   # socket -> (its peer, True when this socket is the server side)
save()

def close(sock):
    other, _ = peers.pop(sock, (None, None))
    for s in (sock, other):
        if s is None:
            continue
        try:
            selector.unregister(s)
        except (KeyError, ValueError):
            pass
        peers.pop(s, None)
        s.close()
    save()

while True:
    for key, _ in selector.select():
        sock = key.fileobj
        if sock is server:
            client, _ = server.accept()
            try:
                upstream = socket.create_connection(("127.0.0.1", target_port))
            except OSError:
                client.close()
                continue
            connections += 1
            peers[client] = (upstream, False)
            peers[upstream] = (client, True)
            selector.register(client, selectors.EVENT_READ, None)
            selector.register(upstream, selectors.EVENT_READ, None)
            continue
        if sock not in peers:
            continue
        other, from_server = peers[sock]
        try:
            data = sock.recv(262144)
        except OSError:
            data = b""
        if not data:
            close(sock)
            continue
        try:
            other.sendall(data)
        except OSError:
            close(sock)
            continue
        if from_server:
            down += len(data)
        else:
            up += len(data)
