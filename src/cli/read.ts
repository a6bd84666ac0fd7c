// `threadmark read`: one post, thread or conversation in any representation, or an Obsidian export; any other
// pasted x.com link is read where it names (cli/link-read.ts).
import { HANDLE_PATTERN } from '../domain/handles.ts';
import { CliError, EXIT, usageError } from './exit.ts';
import type { Client } from './client.ts';
import type { CliIO } from './output.ts';
import { writeDocument } from './output.ts';
import type { Query } from './transport.ts';
import { writeNote } from './vault.ts';
import { NoteTally, threadNotes, type NoteRendering } from './thread-notes.ts';
import type { Post } from '../domain/models.ts';
import { checkMediaFlags, openMedia, type MediaFlags } from './media-flags.ts';
import { withLocalMedia } from '../media/note-media.ts';
import { noteTemplate, type NoteFlags } from './note-flags.ts';
import { linkRead, runLinkRead, type LinkRead } from './link-read.ts';
import { isRefusal, linkUrl, parseLink, permalinkOf, type LinkRefusal } from '../domain/pasted-link.ts';

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
const STATUS_REF = new RegExp(`^@?(${HANDLE_PATTERN})/status/([^/]*)/?$`);

const ACCOUNT_REF = new RegExp(`^@?(${HANDLE_PATTERN})/?$`);
const POST_FORMS =
  'read takes a link to a post (https://x.com/<handle>/status/<id>, twitter.com, a mirror or Nitter too) or ' +
  '<handle>/status/<id>';

/** What `read` reads: a post (the query naming it) or, for any other link, that link's own read. */
export type ReadTarget = { post: Query } | { elsewhere: LinkRead };

/**
 * `handle/status/id` is a post by handle and id; anything else is read by the one pasted-link reader
 * (domain/pasted-link.ts), mirrors and Nitter instances included, and refused here in its words. An account
 * (`alice_dev`, `@alice_dev`) is not a post: it is refused too, pointing at the command that reads accounts.
 */
export function readTarget(target: string): ReadTarget {
  const text = target.trim();
  const m = STATUS_REF.exec(text);
  if (m) {
    const link = parseLink(`https://x.com/${text.replace(/^@/, '')}`, 'mirrors');
    if (isRefusal(link)) throw new CliError('invalid_params', link.detail, EXIT.usage);
    return { post: { handle: m[1], id: m[2] } };
  }
  const account = ACCOUNT_REF.exec(text);
  if (account) {
    throw usageError(
      `${target} is not a post: ${POST_FORMS}; for the account, run \`threadmark profile ${account[1]}\``,
    );
  }
  const link = parseLink(text, 'mirrors');
  if (isRefusal(link)) throw refusal(link, target);
  if (link.kind !== 'post') return { elsewhere: linkRead(link) };
  // A handle-less post link (/i/status/{id}) is read by its x.com address: the service finds the author.
  return link.handle === undefined
    ? { post: { url: `https://x.com${permalinkOf(link)}` } }
    : { post: { handle: link.handle, id: link.id } };
}

/** The query naming the post `target` is; a link to anything else is a usage error. */
export function postIdentity(target: string): Query {
  const t = readTarget(target);
  if ('post' in t) return t.post;
  throw usageError(`${target} names ${t.elsewhere.what}, not a post: ${POST_FORMS}`);
}

/** The reader's refusal in the command's terms: what was given, why it is not read, and what read takes. */
function refusal(r: LinkRefusal, target: string): CliError {
  if (r.code === 'invalid_path') return new CliError(r.code, `${target}: ${r.detail}`, EXIT.usage);
  const host = r.code === 'unsupported_host' ? hostOf(target) : undefined;
  if (host) return new CliError(r.code, `${target} is on ${host}: ${POST_FORMS}; ${r.detail}`, EXIT.usage);
  return new CliError(r.code, `${target}: ${r.detail} (${POST_FORMS})`, EXIT.usage);
}

function hostOf(target: string): string | undefined {
  const url = linkUrl(target);
  return url instanceof URL ? url.host : undefined;
}

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
  noteTemplate(flags, flags.out !== undefined, '--out');
}

export async function runRead(client: Client, target: string, flags: ReadFlags, io: CliIO): Promise<number> {
  checkReadFlags(flags);
  if (flags.lang !== undefined) io.stderr.write('threadmark: --lang is deprecated: use --translate (same values)\n');
  const read = readTarget(target);
  // A pasted link to anything else (a profile tab, a post's quotes, a hashtag, the trends) is read where it names.
  if ('elsewhere' in read) return runLinkRead(client, target, read.elsewhere, flags, io);
  const query = { ...read.post, ...optionQuery(flags) };
  if (flags.out !== undefined) return exportNotes(client, query, flags, io);
  const body =
    flags.format === 'html'
      ? await client.text(POSTS, query, 'text/html')
      : await client.text(POSTS, { ...query, format: flags.format });
  writeDocument(io.stdout, body);
  return EXIT.ok;
}

interface PostEnvelope {
  post?: Post;
  thread?: Post[];
}

function isNotePost(p: unknown): p is Post {
  const x = p as Post | undefined;
  return typeof x?.id === 'string' && typeof x.author?.handle === 'string';
}

/**
 * The requested post's thread (the author's own chain as the service resolved it with the given options) as
 * notes: one for the whole thread (default) or one per post linking it. They are rendered as `export --vault`
 * renders a thread (cli/thread-notes.ts), so both commands write the same note for the same thread.
 */
async function exportNotes(client: Client, query: Query, flags: ReadFlags, io: CliIO): Promise<number> {
  const env = await client.json<PostEnvelope>(POSTS, query);
  const all = (env.thread?.length ? env.thread : env.post ? [env.post] : []).filter(isNotePost);
  if (all.length === 0) throw new CliError('unexpected_body', 'the service returned no posts to export', EXIT.failure);
  const template = noteTemplate(flags, true, '--out')!;
  const media = openMedia(flags, flags.out!, io, undefined, (line) => io.stderr.write(line));
  const tally = new NoteTally();
  const rendering = {
    baseUrl: client.baseUrl,
    full: flags.full,
    userinfo: flags.userinfo as NoteRendering['userinfo'],
  };
  for (const { posts, ...note } of threadNotes(all, flags.vaultNotes ?? 'thread', rendering, template)) {
    if (media) note.body = (await withLocalMedia(media.store, note.body, posts, 'obsidian')).body;
    const result = writeNote(flags.out!, note);
    tally.add(result);
    if (result.action === 'renamed') {
      io.stderr.write(`threadmark: ${note.name}.md already holds a different note; kept it and wrote ${result.path}\n`);
    }
    io.stdout.write(`${result.action}\t${result.path}\n`);
  }
  media?.finish();
  io.stderr.write(`threadmark: ${tally.summary(flags.out!)}\n`);
  return EXIT.ok;
}
