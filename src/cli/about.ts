// `threadmark about <handle>`: what X shows about an account beyond its bio, as Markdown or JSON.
import { Option, type Command } from 'commander';
import type { Client } from './client.ts';
import { EXIT } from './exit.ts';
import { accountHandle, LIST_FORMATS, type ListFormat } from './lists.ts';
import { writeDocument, type CliIO } from './output.ts';

export interface AboutFlags {
  format: ListFormat;
  full?: boolean;
  nocache?: boolean;
}

/** Declares the command's arguments and options on `cmd` (the connection options are the caller's). */
export function aboutCommand(cmd: Command): Command {
  return cmd
    .description('facts about an account: based in, joined, verified since, username changes, affiliate badge')
    .argument('<handle>', 'account handle, @handle or profile URL (x.com/<handle>)')
    .option('--full', 'expanded representation (names the source)')
    .option('--nocache', 'bypass the application cache (charged against the live-lookup quota)')
    .addOption(new Option('--format <format>', 'representation').choices(LIST_FORMATS).default('markdown'));
}

export async function runAbout(client: Client, subject: string, flags: AboutFlags, io: CliIO): Promise<number> {
  const handle = encodeURIComponent(accountHandle(subject));
  const body = await client.text(`/api/v1/profiles/${handle}/about`, {
    format: flags.format,
    full: flags.full ? 'true' : undefined,
    nocache: flags.nocache ? 'true' : undefined,
  });
  writeDocument(io.stdout, body);
  return EXIT.ok;
}
