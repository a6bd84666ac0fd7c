// The readers of X's web app text: on well-formed pages and scripts (random attribute order, quoting, case,
// spacing and surrounding text) they find what the page means, and exactly what the regular expressions they
// replace found; on 5 MiB of hostile text each finishes in bounded time, where those expressions backtracked
// for hours.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  animationFrames,
  keyByteIndices,
  mainScriptUrl,
  MAX_KEY_CHARS,
  onDemandScriptUrl,
  queryIdsIn,
  scanQueryIds,
  verificationKey,
} from '../../../../src/providers/x/web-parse.ts';
import { finishSliced } from '../../../../src/providers/x/web-scan.ts';

// The replaced patterns, kept as the reference for well-formed input.
const reference = {
  mainScriptUrl(html: string, pageUrl: string): string | undefined {
    const m = /<script[^>]*\ssrc=["']([^"']*\/main\.[A-Za-z0-9_-]+\.js)["']/i.exec(html);
    return m ? new URL(m[1]!, pageUrl).toString() : undefined;
  },
  queryIdsIn(script: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const m of script.matchAll(
      /queryId\s*:\s*["']([A-Za-z0-9_-]+)["']\s*,\s*operationName\s*:\s*["']([A-Za-z0-9_]+)["']/g,
    )) {
      if (!out.has(m[2]!)) out.set(m[2]!, m[1]!);
    }
    return out;
  },
  attr(tag: string, name: string): string | undefined {
    return new RegExp(`\\s${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1];
  },
  verificationKey(html: string): string | undefined {
    for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
      if (reference.attr(m[0], 'name') === 'twitter-site-verification')
        return reference.attr(m[0], 'content') || undefined;
    }
    return undefined;
  },
  animationFrames(html: string): string[] {
    const frames: Array<[number, string]> = [];
    for (const m of html.matchAll(/<svg\b[^>]*\sid=["']loading-x-anim-(\d+)["'][^>]*>([\s\S]*?)<\/svg>/gi)) {
      const paths = [...m[2]!.matchAll(/<path\b[^>]*>/gi)].map((p) => reference.attr(p[0], 'd'));
      const d = paths[1];
      if (d) frames.push([Number(m[1]), d]);
    }
    return frames.sort((a, b) => a[0] - b[0]).map(([, d]) => d);
  },
  onDemandScriptUrl(html: string, mainUrl: string): string | undefined {
    const chunk = /["']?(\d+)["']?\s*:\s*["']ondemand\.s["']/.exec(html)?.[1];
    if (!chunk) return undefined;
    for (const m of html.matchAll(new RegExp(`["']?\\b${chunk}["']?\\s*:\\s*["']([A-Za-z0-9_-]+)["']`, 'g'))) {
      if (m[1] !== 'ondemand') return new URL(`ondemand.s.${m[1]}a.js`, mainUrl).toString();
    }
    return undefined;
  },
  keyByteIndices(script: string): number[] {
    return [...script.matchAll(/\(\w\[(\d{1,2})\],\s*16\)/g)].map((m) => Number(m[1]));
  },
};

const PAGE = 'https://x.com/home';
const join = (a: string[]) => a.join('');
const space = fc.constantFrom(' ', '\n', '\t', '  ', ' \n\t');
const maybeSpace = fc.constantFrom('', ' ', '\n', '\t ');
const quote = fc.constantFrom('"', "'");
const hash = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/);
/** Text between elements: no markup, no quotes, but digits, colons and braces that look like runtime maps. */
const filler = fc
  .array(fc.constantFrom('a', 'Z', ' ', '\n', '1', '42', '.', ':', ',', '{', '}', '-', '_', '=', '/', 'é', ';'), {
    maxLength: 12,
  })
  .map(join);
const caseOf = (name: string) => fc.constantFrom(name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1));

/** A start tag with the attributes in a random order, each quoted either way, names in either case. */
function startTag(name: string, attrs: fc.Arbitrary<Array<[string, string]>>): fc.Arbitrary<string> {
  return fc
    .tuple(
      caseOf(name),
      attrs,
      fc.array(fc.tuple(space, quote, fc.boolean()), { minLength: 8, maxLength: 8 }),
      maybeSpace,
    )
    .chain(([tag, list, style, end]) =>
      fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }).map((shuffled) => {
        const rendered = shuffled.map(([k, v], i) => {
          const [sp, q, upper] = style[i % style.length]!;
          return `${sp}${upper ? k.toUpperCase() : k}=${q}${v}${q}`;
        });
        return `<${tag}${join(rendered)}${end}>`;
      }),
    );
}

interface Part {
  html: string;
  mainSrc?: string;
  verification?: { name: string; content: string };
  frame?: { n: number; d?: string };
}

const scriptSrc = fc.oneof(
  fc
    .tuple(fc.constantFrom('', 'client-web', '/responsive-web/client-web', 'https://abs.twimg.com/client-web'), hash)
    .map(([dir, h]) => ({ src: `${dir}/main.${h}.js`, main: true })),
  fc
    .tuple(
      fc.constantFrom('', 'client-web', 'https://abs.twimg.com'),
      hash,
      fc.constantFrom('vendor', 'i18n/en', 'main'),
    )
    .map(([dir, h, name]) => ({ src: `${dir}/${name}.${h}.${name === 'main' ? 'css' : 'js'}`, main: false })),
);

const scriptPart: fc.Arbitrary<Part> = scriptSrc.chain(({ src, main }) =>
  startTag(
    'script',
    fc.constant<Array<[string, string]>>([
      ['src', src],
      ['type', 'text/javascript'],
      ['nonce', 'abc'],
    ]),
  ).map((tag) => ({ html: `${tag}</script>`, ...(main ? { mainSrc: src } : {}) })),
);

const metaPart: fc.Arbitrary<Part> = fc
  .tuple(
    fc.constantFrom('twitter-site-verification', 'viewport', 'description', 'twitter-site-verification'),
    fc.stringMatching(/^[A-Za-z0-9+/=]{0,24}$/),
    fc.constantFrom('', '/'),
  )
  .chain(([name, content, slash]) =>
    startTag(
      'meta',
      fc.constant<Array<[string, string]>>([
        ['name', name],
        ['content', content],
      ]),
    ).map((tag) => ({ html: slash ? tag.replace(/>$/, '/>') : tag, verification: { name, content } })),
  );

const frameD = fc
  .array(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 11, maxLength: 11 }), { minLength: 1, maxLength: 4 })
  .map((rows) => `M 10,30 C${rows.map((r) => r.join(' ')).join('C')}`);
const pathTag = (d: string) =>
  startTag(
    'path',
    fc.constant<Array<[string, string]>>([
      ['d', d],
      ['fill', '#1d9bf0'],
    ]),
  );

const svgPart: fc.Arbitrary<Part> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constantFrom('icon', 'loading-x-anim-x', 'logo')),
    fc.array(frameD, { maxLength: 3 }),
    maybeSpace,
  )
  .chain(([id, ds, sp]) => {
    const anim = /^\d+$/.test(id);
    return fc
      .tuple(
        startTag(
          'svg',
          fc.constant<Array<[string, string]>>([
            ['id', anim ? `loading-x-anim-${id}` : id],
            ['width', '0'],
            ['viewBox', '0 0 1 1'],
          ]),
        ),
        ds.length ? fc.tuple(...ds.map(pathTag)) : fc.constant([] as string[]),
        caseOf('svg'),
      )
      .map(([open, paths, close]) => ({
        html: `${open}<g>${paths.join(sp)}</g></${close}>`,
        ...(anim ? { frame: { n: Number(id), ...(ds[1] ? { d: ds[1] } : {}) } } : {}),
      }));
  });

/** The webpack runtime: chunk → name and chunk → hash maps, with the on-demand chunk among others. */
const runtime = fc
  .tuple(
    fc.integer({ min: 1, max: 99_999 }),
    fc.uniqueArray(fc.integer({ min: 1, max: 99_999 }), { maxLength: 3 }),
    hash,
    fc.constantFrom('"', "'", ''),
    maybeSpace,
  )
  .map(([chunk, others, h, keyQuote, sp]) => {
    const ids = others.filter((o) => o !== chunk);
    const key = (id: number) => `${keyQuote}${id}${keyQuote}`;
    const names = [`${key(chunk)}${sp}:${sp}"ondemand.s"`, ...ids.map((o) => `${key(o)}:"bundle.Grok"`)];
    const hashes = [...ids.map((o) => `${key(o)}:"${o.toString(36)}"`), `${key(chunk)}:${sp}"${h}"`];
    return {
      html: `<script>window.__R=function(e){return e+"."+{${names.join(',')}}[e]+"."+{${hashes.join(',')}}[e]+"a.js"}</script>`,
      hash: h,
    };
  });

const page = fc
  .tuple(
    fc.array(fc.tuple(fc.nat(), fc.oneof(scriptPart, metaPart, svgPart), filler), { maxLength: 14 }),
    fc.option(runtime, { nil: undefined }),
    filler,
  )
  .map(([parts, rt, tail]) => {
    const ordered = parts.sort((a, b) => a[0] - b[0]).map(([, p, f]) => [p, f] as const);
    const html = `<!DOCTYPE html><html><head>${ordered.map(([p, f]) => p.html + f).join('')}${rt?.html ?? ''}${tail}`;
    return { html, parts: ordered.map(([p]) => p), runtime: rt };
  });

describe('readers of the web app agree with the replaced patterns on well-formed pages', () => {
  test('main script, verification key, animation frames and on-demand script', () => {
    fc.assert(
      fc.property(page, ({ html, parts, runtime: rt }) => {
        const mainSrc = parts.find((p) => p.mainSrc)?.mainSrc;
        const main = mainScriptUrl(html, PAGE);
        assert.equal(main, mainSrc === undefined ? undefined : new URL(mainSrc, PAGE).toString());
        assert.equal(main, reference.mainScriptUrl(html, PAGE));

        const verification = parts.find((p) => p.verification?.name === 'twitter-site-verification')?.verification;
        assert.equal(verificationKey(html), verification?.content || undefined);
        assert.equal(verificationKey(html), reference.verificationKey(html));

        const frames = parts
          .flatMap((p) => (p.frame?.d ? [[p.frame.n, p.frame.d] as const] : []))
          .sort((a, b) => a[0] - b[0])
          .map(([, d]) => d);
        assert.deepEqual(animationFrames(html), frames);
        assert.deepEqual(animationFrames(html), reference.animationFrames(html));

        const base = main ?? 'https://abs.twimg.com/client-web/main.x.js';
        assert.equal(
          onDemandScriptUrl(html, base),
          rt ? new URL(`ondemand.s.${rt.hash}a.js`, base).toString() : undefined,
        );
        assert.equal(onDemandScriptUrl(html, base), reference.onDemandScriptUrl(html, base));
      }),
      { numRuns: 1500 },
    );
  });

  test('queryId/operationName pairs: the first id of each name', () => {
    const pair = fc.tuple(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,22}$/),
      fc.constantFrom('TweetDetail', 'UserByScreenName', 'SearchTimeline', 'Other_1'),
      quote,
      maybeSpace,
    );
    const item = fc.oneof(
      pair.map(([id, name, q, sp]) => ({
        text: `e.exports={queryId${sp}:${sp}${q}${id}${q}${sp},${sp}operationName${sp}:${q}${name}${q},operationType:"query"}`,
        pair: [name, id] as const,
      })),
      fc
        .constantFrom('{queryId:"abc"}', 'operationName:"Lonely"', 'queryId:x,operationName:"Y"', 'queryIds')
        .map((text) => ({ text, pair: undefined })),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(item, filler), { maxLength: 10 }), (items) => {
        const script = items.map(([i, f]) => i.text + f).join('');
        const expected = new Map<string, string>();
        for (const [{ pair: p }] of items) if (p && !expected.has(p[0])) expected.set(p[0], p[1]);
        assert.deepEqual(queryIdsIn(script), expected);
        assert.deepEqual(queryIdsIn(script), reference.queryIdsIn(script));
      }),
      { numRuns: 1500 },
    );
  });

  test('key byte indices: every (x[NN], 16)', () => {
    const item = fc.oneof(
      fc
        .tuple(fc.constantFrom('o', 'e', '_', 'A', '9'), fc.integer({ min: 0, max: 99 }), maybeSpace)
        .map(([w, n, sp]) => ({ text: `parseInt(${w}[${n}],${sp}16)`, index: n })),
      fc
        .constantFrom('(o[123], 16)', '(o[5], 10)', '(oo[5], 16)', '(o[5],16 )', '(o[], 16)', '((o[5]),16)')
        .map((text) => ({ text, index: undefined })),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(item, filler), { maxLength: 10 }), (items) => {
        const script = items.map(([i, f]) => i.text + f).join('');
        const expected = items.flatMap(([i]) => (i.index === undefined ? [] : [i.index]));
        assert.deepEqual(keyByteIndices(script), expected);
        assert.deepEqual(keyByteIndices(script), reference.keyByteIndices(script));
      }),
      { numRuns: 1500 },
    );
  });
});

const MIB5 = 5 * 1024 * 1024;
/** `unit` repeated to 5 MiB, as one flat string (what a decoded response body is). */
function hostile(unit: string, head = '', tail = ''): string {
  const body = MIB5 - head.length - tail.length;
  return Buffer.from(head + unit.repeat(Math.ceil(body / unit.length)).slice(0, body) + tail).toString('latin1');
}

/** Generous: the machine running the suite may be busy. The replaced patterns took hours on these inputs. */
const BOUND_MS = 2000;

describe('5 MiB of hostile text is read in bounded time', () => {
  const cases: Array<[string, (text: string) => unknown, string]> = [
    ['main script: unclosed <script', (t) => mainScriptUrl(t, PAGE), hostile('<script ')],
    ['main script: src without an end', (t) => mainScriptUrl(t, PAGE), hostile('<script src="/main.')],
    ['main script: one huge src', (t) => mainScriptUrl(t, PAGE), hostile('/', '<script src="', 'main.a.js">')],
    ['main script: every character a <', (t) => mainScriptUrl(t, PAGE), hostile('<')],
    ['main script: many empty tags', (t) => mainScriptUrl(t, PAGE), hostile('<script >')],
    ['verification key: unclosed <meta', verificationKey, hostile('<meta ')],
    ['verification key: unclosed name', verificationKey, hostile('<meta name="')],
    [
      'verification key: a huge key',
      verificationKey,
      hostile('A', '<meta name="twitter-site-verification" content="', '">'),
    ],
    ['frames: unclosed animations', animationFrames, hostile('<svg id="loading-x-anim-1">')],
    ['frames: unclosed <svg', animationFrames, hostile('<svg ')],
    ['frames: empty animations', animationFrames, hostile('<svg id="loading-x-anim-1"></svg>')],
    ['frames: unclosed paths', animationFrames, hostile('<path d="1 ', '<svg id="loading-x-anim-1">')],
    ['on-demand: digits', (t) => onDemandScriptUrl(t, PAGE), hostile('1')],
    ['on-demand: spaces before names', (t) => onDemandScriptUrl(t, PAGE), hostile(' :"ondemand.s"')],
    ['on-demand: chunk runs', (t) => onDemandScriptUrl(t, PAGE), hostile('1:"-1-', '1:"ondemand.s"')],
    ['query ids: unclosed ids', queryIdsIn, hostile('queryId:"')],
    ['query ids: unclosed names', queryIdsIn, hostile('queryId : "a", operationName : "')],
    ['query ids: one huge id', queryIdsIn, hostile('a', 'queryId:"')],
    ['key indices: near misses', keyByteIndices, hostile('(a[1],')],
    ['key indices: spaces', keyByteIndices, hostile(' ', '(a[1],')],
  ];
  for (const [name, read, text] of cases) {
    test(name, () => {
      assert.equal(text.length, MIB5);
      const started = performance.now();
      read(text);
      const ms = performance.now() - started;
      assert.ok(ms < BOUND_MS, `${name}: ${Math.round(ms)} ms`);
    });
  }

  test('values past their plausible length are not used', () => {
    const key = 'A'.repeat(MAX_KEY_CHARS + 1);
    assert.equal(verificationKey(`<meta name="twitter-site-verification" content="${key}">`), undefined);
    assert.equal(mainScriptUrl(`<script src="/${'a'.repeat(3000)}/main.x.js"></script>`, PAGE), undefined);
  });

  test('read in slices, a hostile script leaves the event loop free: timers keep firing', async () => {
    const text = hostile('queryId:"');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await finishSliced(scanQueryIds(text));
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks > 0, 'no timer ran while the script was read');
  });
});
