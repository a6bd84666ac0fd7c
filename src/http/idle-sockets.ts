// The idle deadline of connections: a socket with no traffic in either direction for `idleMs` is destroyed, so a
// client that stops reading an answer (or a tunnel left open) cannot hold its memory. Node's own way to do this,
// the server's socket timeout, re-arms a timer on every read and every write of every socket: several timer-list
// operations per request, a measurable share of a cached answer (bench/RESULTS.md). Here a sweep every
// `everyMs` compares each open socket's byte counts with the previous sweep's instead: a request costs nothing,
// a connection one map entry, and a socket is closed between `idleMs` and `idleMs + everyMs` after its last byte
// moved. Bytes move when they are read, when a write is handed to the socket, and while a handed write drains
// to the kernel (queuedWriteBytes, the field Node's own timer reads for that).
// The header, request and keep-alive deadlines stay Node's (timeouts.ts).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { queuedWriteBytes } from './responses/node-adapter.ts';

interface Seen {
  read: number;
  written: number;
  queued: number;
  /** When the counts last changed (or the socket was accepted). */
  since: number;
}

export interface IdleSweep {
  /** Sockets being watched (open connections). */
  readonly watched: number;
  stop(): void;
}

export function closeIdleSockets(server: Server, idleMs: number, everyMs: number, now = Date.now): IdleSweep {
  const sockets = new Map<Socket, Seen>();
  const onConnection = (socket: Socket) => {
    sockets.set(socket, { read: socket.bytesRead, written: socket.bytesWritten, queued: 0, since: now() });
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', onConnection);
  const timer = setInterval(
    () => {
      const t = now();
      for (const [socket, seen] of sockets) {
        // bytesWritten counts a write when it is handed over, queuedWriteBytes as it drains.
        const read = socket.bytesRead;
        const written = socket.bytesWritten ?? seen.written;
        const queued = queuedWriteBytes(socket);
        if (read !== seen.read || written !== seen.written || queued !== seen.queued) {
          seen.read = read;
          seen.written = written;
          seen.queued = queued;
          seen.since = t;
        } else if (t - seen.since >= idleMs) {
          sockets.delete(socket);
          socket.destroy();
        }
      }
    },
    Math.max(1, Math.min(everyMs, idleMs)),
  );
  timer.unref();
  return {
    get watched() {
      return sockets.size;
    },
    stop() {
      clearInterval(timer);
      server.off('connection', onConnection);
    },
  };
}
