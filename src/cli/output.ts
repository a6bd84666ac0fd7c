// Where command output goes; a tiny interface so the commands can be driven from tests as well as a terminal.

export interface Output {
  write(chunk: string): unknown;
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
