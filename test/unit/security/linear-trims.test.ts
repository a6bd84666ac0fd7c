// The linear replacements behave exactly like the quadratic patterns they replace.
import { test } from 'node:test';
import fc from 'fast-check';
import { withoutTrailingTco } from '../../../src/providers/shared/article-post.ts';
import { codeBlock } from '../../../src/render/markdown/escape.ts';

const pieces = fc.constantFrom(' ', '\n', '\t', 'a', '_', 'https://t.co/', 'https://t.co/x1', 'é', '\u00a0', '/');
const text = fc.array(pieces, { maxLength: 12 }).map((a) => a.join(''));

test('withoutTrailingTco matches /\\s*https:\\/\\/t\\.co\\/\\w+\\s*$/', () => {
  fc.assert(
    fc.property(text, (t) => withoutTrailingTco(t) === t.replace(/\s*https:\/\/t\.co\/\w+\s*$/, '')),
    { numRuns: 2000 },
  );
});

test('codeBlock drops trailing newlines as /\\n+$/ did', () => {
  fc.assert(
    fc.property(
      text,
      (t) => codeBlock(t) === '```\n' + t.replace(/\r\n?/g, '\n').replace(/\n+$/, '') + '\n```' || t.includes('`'),
    ),
    { numRuns: 1000 },
  );
});
