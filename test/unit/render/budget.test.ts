// The budget fitter on its own: characters are code points, the bound holds, the fewest things give way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charCount, closingLine, fitBudget } from '../../../src/render/budget.ts';
import { listGiveWay } from '../../../src/domain/give-way.ts';

test('charCount counts code points: an emoji or a rare CJK character is one', () => {
  assert.equal(charCount('abc'), 3);
  assert.equal(charCount('😀'), 1);
  assert.equal(charCount('a😀b𠀀'), 4);
  assert.equal(charCount('é'), 1);
  // A lone surrogate is still one unit.
  assert.equal(charCount('\ud800x'), 2);
});

test('closingLine names everything left out and links to the whole read', () => {
  assert.equal(
    closingLine(['3 replies'], 'http://h/x?a=1'),
    '*Budget: left out 3 replies.* [Read it all](http://h/x?a=1)',
  );
  assert.equal(
    closingLine(['3 replies', '2 earlier posts', '1 later post'], 'http://h/x'),
    '*Budget: left out 3 replies, 2 earlier posts and 1 later post.* [Read it all](http://h/x)',
  );
});

test('fitBudget keeps the most items that fit, for every budget, and never goes over', () => {
  const items = Array.from({ length: 30 }, (_, i) => `- item ${i} ${'😀'.repeat(i % 7)}`);
  const render = (kept: string[], closing?: string) =>
    `# List\n\n${kept.join('\n')}\n${closing ? `\n${closing}\n` : ''}`;
  const giveWay = listGiveWay(items.length, ['item', 'items'], (n) => items.slice(0, n));
  const whole = charCount(render(items));
  for (let budget = 120; budget <= whole + 5; budget += 7) {
    const fitted = fitBudget(giveWay, render, budget, 'http://h/list');
    assert.ok(fitted.fits, String(budget));
    if (!fitted.fits) continue;
    assert.ok(charCount(fitted.markdown) <= budget, `${charCount(fitted.markdown)} > ${budget}`);
    // One more item would not have fitted.
    if (fitted.read.length < items.length) {
      const more = items.slice(0, fitted.read.length + 1);
      const left = items.length - more.length;
      const closing = left ? closingLine([`${left} item${left === 1 ? '' : 's'}`], 'http://h/list') : undefined;
      assert.ok(charCount(render(more, closing)) > budget, `budget ${budget} could keep ${more.length}`);
    }
  }
  const tiny = fitBudget(giveWay, render, 20, 'http://h/list');
  assert.equal(tiny.fits, false);
  if (!tiny.fits) assert.equal(tiny.needed, charCount(render([], closingLine(['30 items'], 'http://h/list'))));
});
