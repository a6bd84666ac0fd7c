// `threadmark read`: one post, thread or conversation in any representation, or an Obsidian export; any other
// pasted x.com link is read where it names (cli/link-read.ts).
import { HANDLE_PATTERN } from '../domain/handles.ts';
import { CliError, EXIT, usageError } from './exit.ts';
import type { Client } from './client.ts';
import type { CliIO } from './output.ts';
import { writeDocument } from './output.ts';
import type { Query } from './transport.ts';
import { noteName, writeNote, type NotePost } from './vault.ts';
import { checkMediaFlags, openMedia, type MediaFlags } from './media-flags.ts';
import { withLocalMedia } from '../media/note-media.ts';
import { noteQuery, noteTemplate, type NoteFlags } from './note-flags.ts';
import { linkRead, runLinkRead } from './link-read.ts';

export const POST_FORMATS = ['markdown', 'obsidian', 'json', 'html'] as const;
export type PostFormat = (typeof POST_FORMATS)[number];

export interface ReadFlags extends MediaFlags, NoteFlags {
  /** With --out: one note per post of the thread (default) or the whole thread in one. */
  vaultNotes?: 'thread' | 'post';
  thread?: string;
  context?: string;
  replies?: string;
  userinfo?: string;
  full?: boolean;
  nocache?: boolean;
  budget?: string;
  translate?: string;
  /** The former name of --translate, kept working. */
  lang?: string;
  format: PostFormat;
  out?: string;
}

const POSTS = '/api/v1/posts';
const STATUS_REF = new RegExp(`^@?(${HANDLE_PATTERN})/status/([0-9]+)/?$`);

const ACCOUNT_REF = new RegExp(`^@?(${HANDLE_PATTERN})/?$`);
const POST_FORMS =
  'read takes a status URL (https://x.com/<handle>/status/<id>, twitter.com too) or <handle>/status/<id>';

/**
 * `handle/status/id` becomes handle + id; anything else is sent as `url` for the service to judge. An account
 * (`alice_dev`, `@alice_dev`) is not a post: it is refused here, pointing at the command that reads accounts.
 */
export function postIdentity(target: string): Query {
  const m = STATUS_REF.exec(target.trim());
  if (m) return { handle: m[1], id: m[2] };
  const account = ACCOUNT_REF.exec(target.trim());
  if (account) {
    throw usageError(
      `${target} is not a post: ${POST_FORMS}; for the account, run \`threadmark profile ${account[1]}\``,
    );
  }
  return { url: target };
}

/** The service's verdict on a `url` that is no post address, in the command's terms. */
function notAPost(e: CliError, target: string): CliError {
  let host: string | undefined;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:/i.test(target) ? target : `https://${target}`).host;
  } catch {
    host = undefined;
  }
  const why =
    e.code === 'unsupported_host' && host
      ? `${target} is on ${host}, not x.com or twitter.com`
      : `${target} is not a post address`;
  const account = e.code === 'invalid_path' ? /^\/@?([A-Za-z0-9_]{1,15})\/?$/.exec(pathOf(target) ?? '') : null;
  const also = account ? `; for the account, run \`threadmark profile ${account[1]}\`` : '';
  return new CliError(e.code, `${why}: ${POST_FORMS}${also}`, e.exitCode);
}

function pathOf(target: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(target) ? target : `https://${target}`).pathname;
  } catch {
    return undefined;
  }
}

const URL_CODES = new Set(['unsupported_host', 'invalid_url', 'invalid_path']);

function optionQuery(f: ReadFlags): Query {
  return {
    thread: f.thread,
    context: f.context,
    replies: f.replies,
    userinfo: f.userinfo,
    full: f.full ? 'true' : undefined,
    nocache: f.nocache ? 'true' : undefined,
    budget: f.budget,
    translate: f.translate ?? f.lang,
  };
}

/** Checked before any connection is opened, so a wrong combination costs nothing. */
export function checkReadFlags(flags: ReadFlags): void {
  if (flags.out !== undefined && flags.format !== 'obsidian') throw usageError('--out needs --format obsidian');
  checkMediaFlags(flags, flags.out !== undefined, '--out (the vault folder the notes and attachments/ go to)');
  if (flags.vaultNotes !== undefined && flags.out === undefined) throw usageError('--vault-notes needs --out');
  const t = noteTemplate(flags, flags.out !== undefined, '--out');
  if (t) noteQuery(t);
}

export async function runRead(client: Client, target: string, flags: ReadFlags, io: CliIO): Promise<number> {
  checkReadFlags(flags);
  if (flags.lang !== undefined) io.stderr.write('threadmark: --lang is deprecated: use --translate (same values)\n');
  // A pasted link to anything else (a profile tab, a post's quotes, a hashtag, the trends) is read where it names.
  const elsewhere = linkRead(target);
  if (elsewhere) return runLinkRead(client, target, elsewhere, flags, io);
  const query = { ...postIdentity(target), ...optionQuery(flags) };
  try {
    if (flags.out !== undefined) return await exportNotes(client, query, flags, io);
    const body =
      flags.format === 'html'
        ? await client.text(POSTS, query, 'text/html')
        : await client.text(POSTS, { ...query, format: flags.format });
    writeDocument(io.stdout, body);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CliError && query.url !== undefined && URL_CODES.has(e.code)) throw notAPost(e, target);
    throw e;
  }
}

interface PostEnvelope {
  post?: NotePost;
  thread?: NotePost[];
}

function isNotePost(p: unknown): p is NotePost {
  const x = p as NotePost | undefined;
  return typeof x?.id === 'string' && typeof x.author?.handle === 'string';
}

/**
 * One note per post of the requested post's thread (the author's own chain as the service resolved it with
 * the given options). Each note is the service's Obsidian rendering of that post alone, so notes stay small
 * and a re-run reproduces them byte for byte.
 */
async function exportNotes(client: Client, query: Query, flags: ReadFlags, io: CliIO): Promise<number> {
  const env = await client.json<PostEnvelope>(POSTS, query);
  const all = (env.thread?.length ? env.thread : env.post ? [env.post] : []).filter(isNotePost);
  if (all.length === 0) throw new CliError('unexpected_body', 'the service returned no posts to export', EXIT.failure);
  const template = noteTemplate(flags, true, '--out')!;
  // The whole thread in one note: the service's rendering of the read as asked, named after its first post.
  const whole = flags.vaultNotes === 'thread' && all.length > 1;
  const posts = whole ? all.slice(0, 1) : all;
  const media = openMedia(flags, flags.out!, io, undefined, (line) => io.stderr.write(line));
  for (const post of posts) {
    let body = await client.text(POSTS, {
      ...(whole
        ? { ...query, replies: 'off' }
        : {
            handle: post.author.handle,
            id: post.id,
            thread: 'off',
            context: 'thread',
            replies: 'off',
            userinfo: flags.userinfo,
            full: flags.full ? 'true' : undefined,
            nocache: flags.nocache ? 'true' : undefined,
          }),
      format: 'obsidian',
      ...noteQuery(template),
    });
    if (media) body = (await withLocalMedia(media.store, body, whole ? all : post, 'obsidian')).body;
    const name = noteName(post, template.name);
    const result = writeNote(flags.out!, { name, body });
    if (result.action === 'renamed') {
      io.stderr.write(`threadmark: ${name}.md already holds a different note; kept it and wrote ${result.path}\n`);
    }
    io.stdout.write(`${result.action}\t${result.path}\n`);
  }
  media?.finish();
  return EXIT.ok;
}
