// `threadmark watch`: the service's signed webhooks from the command line (create, list, show, delete; they need a
// running service and an API key), and a local mode (`watch follow`) that reads a source's JSON feed on an interval
// and prints each new post as it arrives, in-process or against a server.
import type { Client } from './client.ts';
import { EXIT, usageError } from './exit.ts';
import { writeDocument, type CliIO } from './output.ts';

export interface FollowFlags {
  interval: number;
  count?: number;
  json?: boolean;
}

/** The JSON feed route a source path names (the same paths a watch takes), with its query kept. */
export function feedOfSource(source: string): { path: string; query: Record<string, string> } {
  if (!source.startsWith('/'))
    throw usageError('the source is a path on the service, such as /alice_dev or /search?q=caching');
  const url = new URL(source, 'http://source.invalid');
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  const seg = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [a, b, c] = seg;
  let path: string | undefined;
  if (a === 'search' && seg.length === 1) path = '/api/v1/search/feed';
  else if (a === 'i' && b === 'lists' && c && seg.length === 3) path = `/api/v1/lists/${encodeURIComponent(c)}/feed`;
  else if (a && b === 'status' && c && seg.length === 3) path = `/api/v1/posts/${encodeURIComponent(c)}/feed`;
  else if (a && seg.length === 1) path = `/api/v1/profiles/${encodeURIComponent(a)}/feed`;
  else if (a && (b === 'media' || b === 'with_replies') && seg.length === 2) {
    path = `/api/v1/profiles/${encodeURIComponent(a)}/feed`;
    query.kind = b;
  }
  if (!path) throw usageError(`${source} names no account, search, post or list`);
  return { path, query: { ...query, type: 'json' } };
}

interface FeedItem {
  url: string;
  title?: string;
  date_published?: string;
  authors?: Array<{ name: string }>;
}

const idOf = (item: FeedItem) => item.url.split('/').pop() ?? '';

function bigger(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Reads the feed now (what is there is not news), then every interval with nocache, printing the posts newer than
 * the newest seen, oldest first: one line each, or the JSON Feed item with --json. Stops after --count posts or on
 * SIGINT.
 */
export async function runFollow(
  client: Client,
  source: string,
  flags: FollowFlags,
  io: CliIO,
  signal: AbortSignal,
): Promise<number> {
  const { path, query } = feedOfSource(source);
  const read = async (): Promise<FeedItem[]> =>
    (
      JSON.parse(await client.text(path, { ...query, nocache: 'true' }, 'application/feed+json')) as {
        items: FeedItem[];
      }
    ).items;
  let seen = (await read()).map(idOf).reduce((m, id) => (bigger(id, m) ? id : m), '0');
  io.stderr.write(`threadmark: following ${source} every ${flags.interval} s; new posts appear below\n`);
  let printed = 0;
  while (!signal.aborted) {
    await sleep(flags.interval * 1000, signal);
    if (signal.aborted) break;
    const fresh = (await read())
      .filter((i) => bigger(idOf(i), seen))
      .sort((x, y) => (bigger(idOf(x), idOf(y)) ? 1 : -1));
    for (const item of fresh) {
      if (flags.json) writeDocument(io.stdout, JSON.stringify(item));
      else
        writeDocument(
          io.stdout,
          `${item.date_published ?? ''} ${item.authors?.[0]?.name ?? ''}: ${item.title ?? ''} ${item.url}`.trim(),
        );
      seen = idOf(item);
      printed += 1;
      if (flags.count !== undefined && printed >= flags.count) return EXIT.ok;
    }
  }
  return EXIT.ok;
}

interface WatchJson {
  id: string;
  source: string;
  callback: string;
  state: string;
  disabledReason?: string;
  secret?: string;
}

const line = (w: WatchJson) =>
  [w.id, w.state, w.source, w.callback, w.disabledReason ?? ''].join('\t').replace(/\t+$/, '');

export async function runCreate(client: Client, source: string, callback: string, io: CliIO): Promise<number> {
  const w = JSON.parse(await client.send('POST', '/api/v1/watches', { source, callback })) as WatchJson;
  writeDocument(io.stdout, `${line(w)}\nsecret\t${w.secret ?? ''}`);
  io.stderr.write('threadmark: the signing secret is shown once; keep it to verify the webhook-signature header\n');
  return EXIT.ok;
}

export async function runList(client: Client, io: CliIO): Promise<number> {
  const body = JSON.parse(await client.text('/api/v1/watches', {}, 'application/json')) as { watches: WatchJson[] };
  for (const w of body.watches) writeDocument(io.stdout, line(w));
  return EXIT.ok;
}

export async function runShow(client: Client, id: string, io: CliIO): Promise<number> {
  writeDocument(
    io.stdout,
    JSON.stringify(
      JSON.parse(await client.text(`/api/v1/watches/${encodeURIComponent(id)}`, {}, 'application/json')),
      null,
      2,
    ),
  );
  return EXIT.ok;
}

export async function runDelete(client: Client, id: string): Promise<number> {
  await client.send('DELETE', `/api/v1/watches/${encodeURIComponent(id)}`);
  return EXIT.ok;
}
