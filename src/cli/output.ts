// Where command output goes; a tiny interface so the commands can be driven from tests as well as a terminal.

export interface Output {
  write(chunk: string): unknown;
  /** Set by Node on process.stdout/stderr when they are a terminal. */
  isTTY?: boolean;
  /** A terminal's: control characters of our own (a progress bar's carriage return), written as they are. */
  control?(chunk: string): unknown;
}

export interface CliIO {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
}

/** Bodies are printed as documents: always newline-terminated, so a shell prompt never lands on the last line. */
export function writeDocument(out: Output, body: string): void {
  out.write(body.endsWith('\n') ? body : `${body}\n`);
}

// C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F, which include an 8-bit CSI).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ … ␟ (Control Pictures)
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * Text as a terminal may receive it: post text (an article's code block, say) can carry ESC sequences that move
 * the cursor, retitle the window or hide what follows; they are shown as visible symbols instead of obeyed.
 */
export function forTerminal(s: string): string {
  return s.replace(TERMINAL_CONTROL, visible);
}

/**
 * The stream itself for files and pipes, which get the document byte for byte; for a terminal, a stream that
 * writes what `forTerminal` makes of each chunk.
 */
export function terminalSafe(out: Output): Output {
  if (!out.isTTY) return out;
  return { isTTY: true, write: (chunk: string) => out.write(forTerminal(chunk)), control: (chunk) => out.write(chunk) };
}
