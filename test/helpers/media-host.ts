// A local server standing in for X's media hosts with large files: every path answers `size` bytes of MP4-looking
// data, the first bytes naming the path (so each file has its own content hash) and the rest one shared buffer (so
// the test process holds one copy, whatever the number of files). It counts the files it was asked for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MediaHost {
  url: string;
  /** Paths asked for, in order. */
  served: string[];
  /** Paths whose answer was cut off by the service before its end. */
  cut: string[];
  close(): Promise<void>;
}

export async function startMediaHost(size: number): Promise<MediaHost> {
  const rest = Buffer.alloc(size - 64, 0x5a);
  const served: string[] = [];
  const cut: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    served.push(path);
    const head = Buffer.alloc(64, 0x20);
    head.write('\0\0\0\x20ftypisom', 0, 'latin1');
    head.write(path, 16, 48, 'latin1');
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(size) });
    res.write(head);
    // Written as the socket takes it, so a reader that goes away leaves the rest unwritten.
    let at = 0;
    const more = () => {
      while (at < rest.length) {
        const piece = rest.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    res.once('close', () => {
      if (at < rest.length) cut.push(path);
    });
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resident memory of a process in bytes (Linux), from /proc. */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}
