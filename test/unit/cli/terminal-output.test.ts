// Post text can carry terminal control sequences (an ESC in an article's code block). The CLI
// shows them as visible symbols when it writes to a terminal, and passes bytes through untouched to files and
// pipes. The e2e side (the real binary under a pseudo-terminal and through a pipe) is in test/e2e/cli.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forTerminal, terminalSafe, type Output } from '../../../src/cli/output.ts';

function sink(isTTY: boolean): Output & { got: string } {
  const s = {
    isTTY,
    got: '',
    write(chunk: string) {
      s.got += chunk;
      return true;
    },
  };
  return s;
}

test('control characters become their visible Control Pictures; tab and newline stay', () => {
  assert.equal(forTerminal('a\x1b[31mred\x1b[0m\tb\nc'), 'a\u241b[31mred\u241b[0m\tb\nc');
  assert.equal(forTerminal('\x00\x07\b\r\x7f'), '\u2400\u2407\u2408\u240d\u2421');
  // C1 controls: U+009B is a one-character CSI on terminals that honour 8-bit controls.
  assert.equal(forTerminal('x\u009b31my\u0085'), 'x\ufffd31my\ufffd');
  const plain = 'Plain text, Unicode é 😀 and `code`.\n';
  assert.equal(forTerminal(plain), plain);
});

test('terminalSafe filters only streams that are terminals', () => {
  const tty = sink(true);
  terminalSafe(tty).write('\x1b]0;title\x07ok\n');
  assert.equal(tty.got, '\u241b]0;title\u2407ok\n');
  const pipe = sink(false);
  assert.equal(terminalSafe(pipe), pipe, 'files and pipes get the stream itself: byte-exact');
});
