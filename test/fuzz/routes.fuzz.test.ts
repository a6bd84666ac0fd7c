// Property-based fuzzing of every public route over real HTTP (raw sockets, so malformed request lines, raw bytes
// and arbitrary methods reach the server as sent), and of malformed upstream answers from the simulator.
// The properties: no 500 that is not an upstream problem; every error body is a catalog problem and every success
// a well-formed representation; an answer within a time bound; no response header carrying raw CR/LF, non-ASCII
// or injected lines. THREADMARK_FUZZ_RUNS raises the case count (default 200), THREADMARK_FUZZ_SEED replays one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { FAULT_KINDS, type Fault } from '../../sim/faults.ts';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { CATALOG } from '../../src/problems/catalog.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { rawRequest, type RawRequest, type RawResponse } from '../helpers/raw-http.ts';

const TOTAL_RUNS = Number(process.env.THREADMARK_FUZZ_RUNS ?? 200);
const SEED = process.env.THREADMARK_FUZZ_SEED ? Number(process.env.THREADMARK_FUZZ_SEED) : 20261123;
/** No single answer may take longer than this (upstream timeout 500 ms per call, retries and fallbacks included). */
const TIME_BOUND_MS = 8000;
const MARKER = 'X-Fuzz-Injected';

const UPSTREAM_CODE = /^(upstream_error|all_providers_failed|search_unavailable|[a-z0-9]+_(error|empty|network))$/;
/**
 * Documented 503s that are a state of the deployment, not a failure of the request: no admin token, not ready,
 * no X session to read lists with.
 */
const OPERATOR_503 = new Set(['admin_unconfigured', 'not_ready', 'list_unavailable']);
const SUCCESS_TYPES =
  /^(text\/markdown|text\/html|text\/css|text\/javascript|text\/plain|application\/json|application\/[a-z.+-]*(json|xml)|application\/yaml|text\/yaml|application\/openmetrics-text)(;|$)/;

// Cursors issued by the service, filled in before the properties run, so mutations start from real tokens.
const realCursors: string[] = [];

// ---------- generators ----------

/** Percent-encodes every byte outside the unreserved set, as a careful client would. */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const badPercent = fc.constantFrom(
  '%',
  '%z',
  '%zz',
  '%C3',
  '%E0%A4%A',
  '%00',
  '%0D%0A',
  `%0D%0A${MARKER}:%201`,
  '%FF%FE',
  '%2e%2e%2f',
  '%%',
  '%u0041',
  '%C0%AF',
);
// Raw bytes written into the request target unencoded (latin1 on the wire): spaces, quotes, controls, UTF-8.
const rawJunk = fc.constantFrom(
  ' ',
  '"',
  '<script>',
  '{}',
  '|',
  '\\',
  '^',
  '`',
  '\x01',
  '\x7f',
  '\xc3\xa9',
  '\xf0\x9f\x98\x80',
  '#frag',
  '?',
  '&',
  '=',
);
const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 }).map(pct);
const binaryText = fc.string({ unit: 'binary', maxLength: 40 }).map(pct);
const huge = fc
  .tuple(fc.constantFrom('a', '%F0%9F%98%80', 'é', '%00', '9'), fc.integer({ min: 200, max: 6000 }))
  .map(([s, n]) => s.repeat(Math.ceil(n / s.length)));

const cursorValue = fc.oneof(
  // chain: realCursors is read when cases are generated, after before() filled it.
  fc.constant(0).chain(() => (realCursors.length ? fc.constantFrom(...realCursors) : fc.constant('AAAA'))),
  fc.tuple(fc.nat(), fc.string({ unit: 'binary-ascii', maxLength: 6 })).map(([i, s]) => {
    const c = realCursors[i % Math.max(1, realCursors.length)] ?? 'AAAAAAAA';
    const at = i % c.length;
    return pct(c.slice(0, at) + s + c.slice(at + s.length));
  }),
  fc.base64String({ maxLength: 120 }).map(pct),
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    maxLength: 200,
  }),
);

const knownValue = fc.constantFrom(
  'json',
  'markdown',
  'html',
  'obsidian',
  'xml',
  'true',
  'false',
  '1',
  '0',
  'yes',
  'off',
  'full',
  'conversation',
  'thread',
  'top',
  'recent',
  'all',
  'author',
  'latest',
  'photos',
  'videos',
  'users',
  'profile',
  'search',
  'followers',
  'following',
  '2',
  '100',
  '101',
  '-1',
  '1e9',
  'NaN',
  '',
  '99999999999999999999',
  HANDLES.alice,
  HANDLES.hostile,
  HANDLES.missing,
  IDS.threadRoot,
  IDS.hostile,
  IDS.deleted,
  IDS.unknown,
  SEARCH_TERMS.caching,
  SEARCH_TERMS.none,
  pct(`https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`),
  pct(`https://twitter.com/${HANDLES.hostile}/status/${IDS.hostile}`),
  pct('https://evil.example/alice/status/1'),
  pct('javascript:alert(1)'),
  pct(`https://x.com/a/status/1\r\n${MARKER}: 1`),
);

const value = fc.oneof(
  { weight: 6, arbitrary: knownValue },
  { weight: 2, arbitrary: unicodeText },
  { weight: 2, arbitrary: binaryText },
  { weight: 2, arbitrary: badPercent },
  { weight: 1, arbitrary: rawJunk },
  { weight: 1, arbitrary: huge },
  { weight: 2, arbitrary: cursorValue },
);

const routeDecls = PUBLIC_ROUTES.map((r) => r.decl);
const queryNames = [...new Set(routeDecls.flatMap((d) => Object.keys(d.query.shape)))];
const paramName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...queryNames) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'q[]', 'format[0]', 'a.b', '') },
  { weight: 1, arbitrary: unicodeText },
);
const queryString = fc
  .array(fc.tuple(paramName, value), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...Object.values(HANDLES), IDS.threadRoot, IDS.hostile, IDS.unknown, IDS.deleted),
  },
  { weight: 2, arbitrary: unicodeText },
  { weight: 1, arbitrary: binaryText },
  { weight: 2, arbitrary: badPercent },
  { weight: 1, arbitrary: rawJunk },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '.', '..', 'api', 'admin', 'mcp', 'docs', '.well-known', '@alice', 'status', 'i'),
  },
  { weight: 1, arbitrary: huge },
);

/** A declared route with its {params} filled, a known route, or a random path. */
const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...routeDecls.map((d) => d.path)), fc.array(segment, { minLength: 3, maxLength: 3 }))
      .map(([p, segs]) => {
        let i = 0;
        return p.replace(/\{[^}]+\}/g, () => segs[i++] ?? '');
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/mcp',
      '/healthz',
      '/readyz',
      '/metrics',
      '/admin/keys',
      '/',
      '*',
      '//api',
      '/api/',
      '/api/v2/posts',
      '/.well-known/oauth-authorization-server',
    ),
  },
  { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => `/${segs.join('/')}`) },
);

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('GET') },
  { weight: 5, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'POST') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'PUT',
      'DELETE',
      'PATCH',
      'TRACE',
      'PROPFIND',
      'CONNECT',
      'FOO',
      'get',
      'G ET',
      'GET\x00',
    ),
  },
);

/** Header values cannot carry CR or LF on the wire (they would end the header); everything else can. */
const headerValue = (arb: fc.Arbitrary<string>) => arb.map((s) => s.replace(/[\r\n]/g, ' '));
const latin1 = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => Buffer.from(s, 'utf8').toString('latin1'));
const accept = fc.option(
  headerValue(
    fc.oneof(
      fc.constantFrom(
        'application/json',
        'text/html',
        'text/markdown',
        '*/*',
        'image/png',
        'text/*;q=0',
        'application/json;q=abc',
        'application/problem+json',
        'text/html;q=0.1, application/json;q=0.9',
        ',,,',
        ';',
        'application/json, text/event-stream',
      ),
      latin1,
      fc.integer({ min: 100, max: 8000 }).map((n) => 'text/html,'.repeat(Math.ceil(n / 10))),
    ),
  ),
  { nil: undefined },
);
const keyShaped = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => `tm_${Buffer.from(b).toString('base64url')}`);
const authorization = fc.option(
  headerValue(
    fc.oneof(
      keyShaped.map((k) => `Bearer ${k}`),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer tm_',
        'Basic dXNlcjpwYXNz',
        'Token abc',
        'Bearer a b c',
        `Bearer tm_${'A'.repeat(43)}`,
      ),
      latin1.map((s) => `Bearer ${s}`),
      latin1,
    ),
  ),
  { nil: undefined },
);

let clientSeq = 0;
/** A fresh client address per case (trust proxy is on), so api-ip and search-ip never run out mid-run. */
const nextClient = () => `10.${(clientSeq >> 16) & 255}.${(clientSeq >> 8) & 255}.${clientSeq++ & 255}`;

const requestArb = fc.record({
  method,
  path,
  query: fc.option(queryString, { nil: undefined }),
  accept,
  authorization,
  forwardedGarbage: fc.option(
    headerValue(fc.oneof(latin1, fc.constantFrom('unknown', '::1', '999.1.1.1', ', , ,', 'fe80::1%eth0'))),
    { freq: 8, nil: undefined },
  ),
  body: fc.option(
    fc.oneof(
      fc.json(),
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_post","arguments":{"url":"https://x.com/alice_dev/status/1900000000000000001"}}}',
      ),
    ),
    { freq: 3, nil: undefined },
  ),
});
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function toRaw(r: FuzzRequest): RawRequest {
  const headers: [string, string][] = [['X-Forwarded-For', r.forwardedGarbage ?? nextClient()]];
  if (r.accept !== undefined) headers.push(['Accept', r.accept]);
  if (r.authorization !== undefined) headers.push(['Authorization', r.authorization]);
  if (r.body !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method: r.method, target: r.query === undefined ? r.path : `${r.path}?${r.query}`, headers, body: r.body };
}

// ---------- the property ----------

function describeCase(req: RawRequest, res?: RawResponse): string {
  return `${req.method} ${JSON.stringify(req.target.slice(0, 300))} ${JSON.stringify(req.headers)}${res ? ` -> ${res.status} ${JSON.stringify(res.body.toString('utf8').slice(0, 300))}` : ''}`;
}

async function checkOne(port: number, req: RawRequest): Promise<void> {
  const res = await rawRequest(port, req, TIME_BOUND_MS);
  const where = describeCase(req, res);
  // Headers: printable ASCII only (no raw CR/LF, no unescaped non-ASCII input), and nothing injected.
  for (const [name, v] of res.rawHeaders) {
    assert.match(name, /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, `header name ${JSON.stringify(name)}: ${where}`);
    assert.match(v, /^[\t\x20-\x7e]*$/, `header ${name} carries raw bytes: ${where}`);
    assert.notEqual(name.toLowerCase(), MARKER.toLowerCase(), `injected header: ${where}`);
  }
  const text = res.body.toString('utf8');
  const type = res.headers['content-type'] ?? '';
  // A missing post or profile asked for as Markdown or HTML is a recovery document (a 404 a reader can use).
  if (res.status === 404 && /^text\/(markdown|html)/.test(type)) {
    assert.match(res.headers.link ?? '', /#not-found>/, `404 page without the not_found help link: ${where}`);
    if (/^text\/html/.test(type) && req.method !== 'HEAD')
      assert.match(text, /<html[\s>]/i, `not an HTML page: ${where}`);
    return;
  }
  if (res.status >= 400) {
    assert.match(type, /^application\/(problem\+)?json/, `error without a problem media type: ${where}`);
    if (req.method === 'HEAD') return;
    const body = JSON.parse(text) as { code?: unknown; status?: unknown; jsonrpc?: unknown };
    if (body.jsonrpc === '2.0' && req.target.startsWith('/mcp')) return; // JSON-RPC errors are the MCP transport's own answers
    assert.equal(typeof body.code, 'string', `no code: ${where}`);
    const code = body.code as string;
    const known = code in CATALOG || UPSTREAM_CODE.test(code);
    assert.ok(known, `not a catalog code: ${where}`);
    assert.equal(body.status, res.status, `status mismatch: ${where}`);
    assert.notEqual(code, 'internal_error', `internal error: ${where}`);
    if (res.status >= 500 && !OPERATOR_503.has(code))
      assert.match(code, UPSTREAM_CODE, `a 5xx that is not an upstream problem: ${where}`);
    return;
  }
  if (req.method === 'HEAD' || res.status === 204 || res.status === 304 || res.status === 202) return;
  assert.match(type, SUCCESS_TYPES, `unexpected success media type: ${where}`);
  if (/json/.test(type)) assert.doesNotThrow(() => JSON.parse(text), `invalid JSON: ${where}`);
  if (/^text\/html/.test(type)) assert.match(text, /<html[\s>]/i, `not an HTML page: ${where}`);
}

// Upstream faults for the second property: every kind the simulator has, on one or all providers.
const faultArb: fc.Arbitrary<Fault> = fc.record({
  target: fc.constantFrom('*', 'fxtwitter', 'syndication'),
  kind: fc.constantFrom(...FAULT_KINDS),
  status: fc.constantFrom(200, 400, 401, 403, 404, 429, 500, 502, 503),
  delayMs: fc.integer({ min: 0, max: 800 }),
  retryAfterS: fc.integer({ min: 0, max: 120 }),
  times: fc.integer({ min: 1, max: 6 }),
});
const contentPath = fc.constantFrom(
  `/${HANDLES.alice}/status/${IDS.threadRoot}`,
  `/${HANDLES.hostile}/status/${IDS.hostile}?format=json`,
  `/api/v1/posts?url=${pct(`https://x.com/${HANDLES.carol}/status/${IDS.carolQuoted}`)}&thread=full&format=html`,
  `/api/v1/profiles/${HANDLES.alice}?format=json`,
  `/api/v1/profiles/${HANDLES.big}/followers`,
  `/${HANDLES.bob}/following?format=html`,
  `/api/v1/search?q=${SEARCH_TERMS.caching}&format=json`,
  `/api/v1/oembed?url=${pct(`https://x.com/${HANDLES.alice}/status/${IDS.threadPhoto}`)}`,
  `/api/convert?url=${pct(`https://x.com/${HANDLES.alice}/status/${IDS.threadPoll}`)}&mode=json`,
);

describe('fuzzing the public routes', () => {
  let stack: Stack;
  let port: number;

  before(async () => {
    stack = await startStack({ THREADMARK_TRUST_PROXY: 'true', THREADMARK_UPSTREAM_TIMEOUT_MS: '500' });
    port = Number(new URL(stack.url).port);
    for (const p of [
      `/api/v1/profiles/${HANDLES.big}/followers?format=json&limit=3`,
      `/api/v1/search?q=${SEARCH_TERMS.caching}&format=json&limit=2`,
    ]) {
      const body = (await (await stack.get(p, { headers: { 'x-forwarded-for': nextClient() } })).json()) as {
        nextCursor?: string;
      };
      if (body.nextCursor) realCursors.push(body.nextCursor);
    }
    assert.ok(realCursors.length > 0, 'the fuzzer starts from real cursors');
  });
  after(async () => {
    await stack?.close();
  });

  test('malformed requests answer catalog problems over raw HTTP (regressions)', async () => {
    const cases: [RawRequest, number, string][] = [
      [{ method: 'GET', target: '/a b' }, 400, 'bad_request'],
      [{ method: 'GET', target: '/api/v1/search?q=caf\xc3\xa9' }, 400, 'bad_request'],
      [{ method: 'GET', target: '/\x00' }, 400, 'bad_request'],
      [{ method: 'FOO', target: '/api' }, 405, 'method_not_allowed'],
      [{ method: 'CONNECT', target: '127.0.0.1:443' }, 405, 'method_not_allowed'],
      // Path segments beyond the router's parameter limit (found by this fuzzer: was a 500).
      [{ method: 'GET', target: `/${'9'.repeat(1001)}` }, 400, 'bad_request'],
      [{ method: 'GET', target: `/api/v1/profiles/${'a'.repeat(1200)}/followers` }, 400, 'bad_request'],
      [{ method: 'GET', target: `/${'a'.repeat(20_000)}` }, 431, 'request_too_large'],
      [{ method: 'GET', target: '/api', headers: [['X-Big', 'b'.repeat(20_000)]] }, 431, 'request_too_large'],
    ];
    for (const [req, status, code] of cases) {
      const res = await rawRequest(port, req);
      assert.equal(res.status, status, describeCase(req, res));
      assert.equal((JSON.parse(res.body.toString('utf8')) as { code: string }).code, code);
      await checkOne(port, req);
    }
  });

  test(`random requests to every route (${Math.round(TOTAL_RUNS * 0.75)} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        await checkOne(port, toRaw(r));
      }),
      { numRuns: Math.round(TOTAL_RUNS * 0.75), seed: SEED, endOnFailure: true },
    );
    // The service is still healthy after the barrage.
    const res = await stack.get(`/${HANDLES.alice}/status/${IDS.threadRoot}`, {
      headers: { 'x-forwarded-for': nextClient() },
    });
    assert.equal(res.status, 200);
  });

  test(`malformed upstream answers from the simulator (${Math.round(TOTAL_RUNS * 0.25)} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(faultArb, contentPath, accept, async (fault, p, acc) => {
        stack.sim.clearFaults();
        stack.sim.addFault(fault);
        try {
          const sep = p.includes('?') ? '&' : '?';
          const headers: [string, string][] = [['X-Forwarded-For', nextClient()]];
          if (acc !== undefined) headers.push(['Accept', acc]);
          // nocache: every case reaches the faulty upstream instead of a copy cached by an earlier case.
          await checkOne(port, { method: 'GET', target: `${p}${sep}nocache=true`, headers });
        } finally {
          stack.sim.clearFaults();
        }
      }),
      { numRuns: Math.round(TOTAL_RUNS * 0.25), seed: SEED, endOnFailure: true },
    );
  });
});
