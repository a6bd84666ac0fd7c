// The `threadmark` command line: commander declares the commands and their --help; runCli maps every
// outcome to an exit code and every problem to one line on stderr.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version.ts';
import { runKeysCommand } from './keys.ts';
import { Client } from './client.ts';
import { CliError, EXIT, problemLine } from './exit.ts';
import { LIST_FORMATS, runList, type ListFlags, type ListKind } from './lists.ts';
import { POST_LIST_COMMANDS } from './post-lists.ts';
import { aboutCommand, runAbout, type AboutFlags } from './about.ts';
import { checkExportFlags, runExport, type ExportFlags } from './export.ts';
import { VAULT_NOTES } from './thread-notes.ts';
import { withNoteOptions } from './note-flags.ts';
import { checkImportFlags, IMPORT_FORMATS, runImport, type ImportFlags } from './import.ts';
import { terminalSafe, type CliIO } from './output.ts';
import { POST_FORMATS, checkReadFlags, runRead, type ReadFlags } from './read.ts';
import { runServe, type ServeFlags } from './serve.ts';
import { runTrends, TRENDS_FORMATS, type TrendsFlags } from './trends.ts';
import type { McpFlags } from './mcp.ts';
import { openTransport } from './transport.ts';
import { runXOperations, type XOperationsFlags } from './x-operations.ts';
import { runCreate, runDelete, runFollow, runList as runWatchList, runShow, type FollowFlags } from './watch.ts';

/** The list commands that list accounts, not posts: nothing to translate. */
const NO_POSTS = new Set<string>(['followers', 'following', 'list-members', 'reposts']);

interface ConnectionFlags {
  server?: string;
  apiKey?: string;
}

/** What a finished run asks of the process: exit with a code, or keep running (serve). */
export type CliOutcome = number | 'serving';

const ACCOUNT_HELP = 'account handle, @handle or profile URL (x.com/<handle>)';

const MODES = `
Modes:
  With --server URL (or THREADMARK_SERVER) the command calls that running service over HTTP.
  Without, it builds the service in-process from the same THREADMARK_* environment as \`npm start\`
  (embedded cache and rate limits, THREADMARK_KEYS_DB must be writable; default ./data/keys.db).

Exit codes: 0 ok, 2 bad usage, 3 not found, 4 rate limited, 5 upstream failure, 1 anything else.
A reader that closes the output early (\`| head\`) ends the command at once, quietly, with exit 0.`;

function positiveInt(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

function withConnection(cmd: Command): Command {
  return cmd
    .option('--server <url>', 'call a running service at URL instead of in-process (env THREADMARK_SERVER)')
    .option('--api-key <key>', 'bearer API key for a higher search allowance (env THREADMARK_API_KEY)');
}

export function buildProgram(io: CliIO, done: (outcome: CliOutcome) => void): Command {
  const program = new Command('threadmark')
    .description(
      'Read public X posts, threads, profiles, follower lists, searches and X Lists as Markdown, Obsidian notes, JSON or HTML.',
    )
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(problemLine('usage', `${s.replace(/^error:\s*/, '').trim()} (see --help)`)),
    })
    .addHelpText('after', MODES);

  async function withClient(flags: ConnectionFlags, run: (client: Client) => Promise<number>): Promise<void> {
    const transport = await openTransport(flags.server, io.env);
    try {
      done(await run(new Client(transport, flags.apiKey ?? (io.env.THREADMARK_API_KEY || undefined))));
    } finally {
      await transport.close();
    }
  }

  withConnection(
    withNoteOptions(
      program
        .command('read')
        .description('read a post, its thread or its conversation (or whatever else a pasted x.com link names)')
        .argument(
          '<post>',
          'status URL (x.com or twitter.com) or handle/status/id; any other x.com link is read too (a profile and its ' +
            "media, articles or about tab, a post's /quotes or /retweets, /hashtag/<tag>, a search, /explore/tabs/trending)",
        )
        .option('--thread <n>', 'off, full, conversation, or at most n posts (2-100)')
        .addOption(
          new Option('--context <context>', "full walks parents and replies; thread keeps the author's chain").choices([
            'full',
            'thread',
          ]),
        )
        .addOption(new Option('--replies <replies>', 'which replies to include').choices(['top', 'recent', 'off']))
        .addOption(new Option('--userinfo <who>', 'author metadata in the Markdown').choices(['off', 'author', 'all']))
        .option('--full', 'expanded representation (metrics, timestamps, profile counts)')
        .option('--nocache', 'bypass the application cache (charged against the live-lookup quota)')
        .option(
          '--budget <chars>',
          'at most this many characters of Markdown (500-200000): replies, then earlier posts, then later posts give way',
        )
        .option(
          '--translate <tag>',
          "add each post's translation into this language (BCP 47: en, ja, pt-BR) beside its text",
        )
        .addOption(new Option('--lang <tag>', 'deprecated: use --translate').hideHelp())
        .addOption(new Option('--format <format>', 'representation').choices(POST_FORMATS).default('markdown'))
        .option('--out <dir>', 'with --format obsidian: write the thread as a note into this vault folder')
        .option('--media', "with --out: save the notes' photos, videos, avatars and images under <dir>/attachments/")
        .option('--media-max-file <size>', 'with --media: skip files larger than this (default 100MB)')
        .option(
          '--media-max-total <size>',
          'with --media: stop fetching media after this much in one run (default 2GB)',
        )
        .addOption(
          new Option(
            '--vault-notes <per>',
            'with --out: one note for the whole thread (default, as export --vault) or one per post',
          ).choices(VAULT_NOTES),
        ),
      '--out',
    ),
  )
    .addHelpText(
      'after',
      `
--out writes the thread (the author's own chain) as one note, "<handle> <id> <first words>.md" after its first
post: the note \`threadmark export --vault\` writes for the same thread. A note that already exists with the same
content is left alone; one with different content is kept and the new note is written as "<name> (2).md" (then
(3), ...). stdout lists "written|unchanged|renamed<TAB>path" per note, stderr what the run did ("notes in
<dir>: 0 written, 1 unchanged").
--media saves the media each note links or holds (photos at original size, the best MP4 of videos and GIFs,
avatars, banners, Article and card images) in <dir>/attachments/ named by content hash, so a file is stored
once; notes embed them (![[attachments/<hash>.<ext>]]) beside the original URL. See \`threadmark export --help\`.
--vault-notes post writes one note per post instead, each linking the thread's first note. The --note-* options
template the notes as for \`threadmark export\`.`,
    )
    .action((post: string, flags: ReadFlags & ConnectionFlags) => {
      checkReadFlags(flags);
      return withClient(flags, (c) => runRead(c, post, flags, io));
    });

  withConnection(
    program
      .command('trends')
      .description("X's current trends (its Explore list), each linked to where it is read")
      .option('--nocache', 'bypass the application cache (charged against the live-lookup quota)')
      .addOption(new Option('--format <format>', 'representation').choices(TRENDS_FORMATS).default('markdown')),
  ).action((flags: TrendsFlags & ConnectionFlags) => withClient(flags, (c) => runTrends(c, flags, io)));

  const postsKey = (kind: ListKind) =>
    ['profile', 'list', 'quotes', 'media', 'articles'].includes(kind) ? 'posts' : 'items';
  const lists: Array<[ListKind, string, string, string]> = [
    ['profile', '<handle>', 'a profile with its most recent original posts', ACCOUNT_HELP],
    ['followers', '<handle>', 'accounts that follow a profile', ACCOUNT_HELP],
    ['following', '<handle>', 'accounts a profile follows', ACCOUNT_HELP],
    ['search', '<query...>', 'search public posts and accounts', 'search terms (several words are joined with spaces)'],
    [
      'hashtag',
      '<tag>',
      'posts with a hashtag (a named search)',
      'the hashtag, with or without # (quote it in a shell)',
    ],
    [
      'cashtag',
      '<symbol>',
      'posts with a cashtag (a named search)',
      "the cashtag, with or without $ (quote it: '$TSLA')",
    ],
    ['list', '<id>', "an X List's latest posts", 'numeric list id, or the list URL (x.com/i/lists/<id>)'],
    ['list-members', '<id>', 'the accounts of an X List', 'numeric list id, or the list URL (x.com/i/lists/<id>)'],
    ...POST_LIST_COMMANDS,
  ];
  for (const [kind, arg, description, argHelp] of lists) {
    const cmd = withConnection(
      program
        .command(kind)
        .description(description)
        .argument(arg, argHelp)
        .option('--limit <n>', 'items per page (1-20, default 20)', positiveInt)
        .option('--cursor <cursor>', 'start at this nextCursor of an earlier page')
        .option('--all', 'follow nextCursor to the end (a progress line per page on stderr)')
        .option('--full', 'expanded representation')
        .option('--nocache', 'bypass the application cache (charged against the live-lookup quota)')
        .option(
          '--budget <chars>',
          'at most this many characters of Markdown per page (500-200000): trailing items give way',
        )
        .addOption(new Option('--format <format>', 'representation').choices(LIST_FORMATS).default('markdown')),
    );
    if (!NO_POSTS.has(kind)) {
      cmd.option(
        '--translate <tag>',
        "add each post's translation into this language (BCP 47: en, ja, pt-BR) beside its text",
      );
    }
    const named = kind === 'hashtag' || kind === 'cashtag';
    if (kind === 'profile' || kind === 'search' || named) {
      cmd.option(
        '--since-id <id>',
        'only posts newer than this status id, newest first (an empty page when nothing is new)',
      );
    }
    if (kind === 'search' || named) {
      const feeds = ['latest', 'top', 'photos', 'videos', ...(named ? [] : ['users'])];
      cmd.addOption(new Option('--feed <feed>', 'result feed (default latest)').choices(feeds));
    }
    if (kind === 'search' || kind === 'profile' || named) {
      cmd
        .option(
          '--since <when>',
          'only posts at or after this ISO 8601 date or date-time (UTC unless an offset is given)',
        )
        .option('--until <when>', 'only posts before this ISO 8601 date or date-time (jumps straight there)');
    }
    if (kind === 'profile') {
      cmd
        .option('--with-replies', "also show the account's replies")
        .option('--with-reposts', "also show the account's reposts");
    }
    cmd.addHelpText(
      'after',
      `
With --all, Markdown pages are concatenated without their "Continue →" links; JSON becomes one object whose
${postsKey(kind)} hold every page's ${postsKey(kind)}, with "pages" counting the pages read.`,
    );
    cmd.action((subject: string | string[], flags: ListFlags & ConnectionFlags) =>
      withClient(flags, (c) => runList(c, kind, Array.isArray(subject) ? subject.join(' ') : subject, flags, io)),
    );
  }

  withConnection(aboutCommand(program.command('about'))).action(
    (subject: string, flags: AboutFlags & ConnectionFlags) => withClient(flags, (c) => runAbout(c, subject, flags, io)),
  );

  withConnection(
    withNoteOptions(
      program
        .command('export')
        .description("export an account's posts (up to 5000 per run) to NDJSON and/or Obsidian notes")
        .argument('<handle>', ACCOUNT_HELP)
        .option(
          '--since <when>',
          'only posts at or after this ISO 8601 date or date-time (UTC unless an offset is given)',
        )
        .option('--until <when>', 'only posts before this ISO 8601 date or date-time (jumps straight there)')
        .option('--max-posts <n>', 'stop after this many posts (1-5000, default 1000)', positiveInt)
        .option('--with-replies', "also export the account's replies")
        .option('--with-reposts', "also export the account's reposts")
        .option(
          '--translate <tag>',
          "add each post's translation into this language (BCP 47: en, ja, pt-BR) beside its text",
        )
        .option('--out <file>', 'write the NDJSON (a post per line, then the end line) to this file')
        .option('--resume', "with --out: continue from the cursor of the file's end line, appending")
        .option('--force', 'with --out: replace the file if it is already there (without, an existing file is refused)')
        .option('--vault <dir>', 'write Obsidian notes into this vault folder: one per thread (see --vault-notes)')
        .addOption(
          new Option(
            '--vault-notes <per>',
            'with --vault: one note per thread (the whole self-thread, default) or one per post linking its thread',
          ).choices(VAULT_NOTES),
        )
        .option('--media', "with --vault: save the notes' photos, videos, avatars and images under <dir>/attachments/")
        .option('--media-max-file <size>', 'with --media: skip files larger than this (default 100MB)')
        .option(
          '--media-max-total <size>',
          'with --media: stop fetching media after this much in one run (default 2GB)',
        ),
      '--vault',
    ),
  )
    .addHelpText(
      'after',
      `
Posts are written as they are read: NDJSON to --out (or stdout when neither --out nor --vault is given), the last
line saying why the export stopped ({"type":"end","reason":...,"cursor":...}). Progress goes to stderr: a bar on
a terminal, otherwise a line per 100 posts ("threadmark: 300 posts, reached 2026-01-05 10:00 UTC"). --resume reads
the cursor from the end line of --out, removes that line and appends the next posts and a new end line; give the
same --since, --until, --with-replies and --with-reposts as the first run. A file already at --out is never
replaced unasked: without --resume or --force the export is refused (output_exists, exit 2) and the file is
left as it was. --vault writes "<handle> <id> <first
words>.md" (media linked) and lists "written|unchanged|renamed<TAB>path" on stdout: by default one note per
thread, named after its first post, holding the author's whole self-thread (thread_length counts its posts);
--vault-notes post writes one note per post instead, each naming its place in the thread (thread_position,
thread_length) and linking the thread's first note and its whole read. An export cut short by
an upstream failure keeps every post written, says so on stderr and exits 5 (4 when rate limited).
--media also saves each note's media under <vault>/attachments/, named by content hash (a file shared by many
posts is stored once): photos at original size, the best MP4 of videos and GIFs, avatars, banners, Article cover
and images, card images. Notes embed the local file (![[attachments/<hash>.<ext>]]) beside the original URL. A
re-run does not fetch files already there with the right hash. Sizes take KB, MB or GB. Media come only from X's
media hosts (pbs.twimg.com, video.twimg.com, abs.twimg.com; THREADMARK_MEDIA_HOSTS maps them elsewhere). A file
that is gone, too large or over the run's limit is skipped, the note keeps its original URL, and stderr ends with
a summary of what was skipped and why.
Note templates: --note-name builds file names from {handle}, {id}, {date} (YYYY-MM-DD) and {title} (the first
60 bytes of the text, links left out), made safe as above (default "{handle} {id} {title}"). Front matter gains
the post's counts (--note-metrics), tags (--note-tag, repeatable), Obsidian cssclasses (--note-cssclass), the
time the note was written (--note-fetched, as "fetched") and fixed fields (--note-field key=value, repeatable).
Without them the notes are the default ones.`,
    )
    .action((handle: string, flags: ExportFlags & ConnectionFlags) => {
      checkExportFlags(flags);
      return withClient(flags, (c) => runExport(c, handle, flags, io));
    });

  withNoteOptions(
    program
      .command('import')
      .description(
        "turn X's own data export (the zip, or its folder) into the same notes and NDJSON as export, offline",
      )
      .argument('<archive>', 'the archive X gave you (twitter-….zip) or the folder it unpacks to')
      .option(
        '--since <when>',
        'only posts at or after this ISO 8601 date or date-time (UTC unless an offset is given)',
      )
      .option('--until <when>', 'only posts before this ISO 8601 date or date-time')
      .option('--with-replies', 'also import the replies to other accounts')
      .option('--with-reposts', 'also import the reposts')
      .option('--out <file>', 'write the NDJSON (a post per line, then the end line) to this file')
      .addOption(
        new Option('--format <format>', 'what --out (or stdout) gets: ndjson (default) or one JSON document').choices(
          IMPORT_FORMATS,
        ),
      )
      .option('--vault <dir>', 'write Obsidian notes into this vault folder: one per thread (see --vault-notes)')
      .addOption(
        new Option(
          '--vault-notes <per>',
          'with --vault: one note per thread (default) or one per post linking its thread',
        ).choices(VAULT_NOTES),
      )
      .option('--media', "with --vault: copy the notes' photos and videos from the archive into <dir>/attachments/")
      .option('--media-max-file <size>', 'with --media: skip files larger than this (default 100MB)')
      .option('--media-max-total <size>', 'with --media: stop copying after this much in one run (default 2GB)'),
    '--vault',
  )
    .addHelpText(
      'after',
      `
Reads the archive as it is (no service, no network) and writes what export writes for the same posts: --out the
NDJSON of the API's post objects then the end line, in the archive's order (X lists the newest first), --vault one
note per self-thread named "<handle> <id> <first words>.md" with source "archive" in its front matter, listing
"written|unchanged|renamed<TAB>path" on stdout. Without --out or --vault the NDJSON goes to stdout. A second
import of the same archive writes no new note and says so; a later archive adds only the new notes. --media copies
the files X put in data/tweets_media/ (and the avatar from data/profile_media/) by content hash, as export --media
does. Exit codes: 3 no such archive; 2 bad flags or an archive that is not one (not a zip, cut off, no tweets.js, a
data file that is not the window.YTD assignment), 1 anything else.`,
    )
    .action((archive: string, flags: ImportFlags) => {
      checkImportFlags(flags);
      return runImport(archive, flags, io).then(done);
    });

  withConnection(
    program
      .command('mcp')
      .description('serve the read tools over MCP on stdin/stdout, for agents that launch local servers'),
  )
    .addHelpText(
      'after',
      `
Speaks the Model Context Protocol over stdio: stdout carries protocol messages only, logs go to stderr.
One tool per read (post, profile, followers, following, search, hashtags, cashtags, trends, X Lists, quotes,
reposts, profile tabs, account facts), each answering Markdown text plus structured data; resources: the agent
guide (llms.txt) and the OpenAPI description. Runs until the client closes stdin. Exit codes: 0 when the client hung up, 2 for a
bad configuration, 1 anything else.`,
    )
    // Loaded on use: the other commands never pay for the route table and the MCP SDK.
    .action(async (flags: McpFlags) => done(await (await import('./mcp.ts')).runMcp(flags, io)));

  const watch = program
    .command('watch')
    .description('signed webhooks of a running service (create, list, show, delete), or follow a source here')
    .addHelpText(
      'after',
      `
A source is a path on the service: /alice_dev (or /alice_dev/media, /alice_dev/with_replies), /search?q=caching,
/alice_dev/status/<id> (a conversation as it grows) or /i/lists/<id>, with feed filters as query parameters
(include, exclude, media, min_likes, min_reposts, lang). create, list, show and delete need --server (or
THREADMARK_SERVER) and --api-key (or THREADMARK_API_KEY): the service reads the source once per interval and POSTs
new posts to the callback, signed per Standard Webhooks. follow needs neither: it reads the source's feed every
--interval seconds and prints each new post as it arrives (one line, or the JSON Feed item with --json).`,
    );
  const needsServer = (flags: ConnectionFlags) => {
    if (!flags.server && !io.env.THREADMARK_SERVER)
      throw new CliError(
        'usage',
        'watches live in a running service: give --server URL (or THREADMARK_SERVER)',
        EXIT.usage,
      );
  };
  withConnection(
    watch.command('create').description('watch a source: new posts POSTed to the callback').argument('<source>'),
  )
    .requiredOption('--callback <url>', 'https URL that receives the deliveries')
    .action((source: string, flags: ConnectionFlags & { callback: string }) => {
      needsServer(flags);
      return withClient(flags, (c) => runCreate(c, source, flags.callback, io));
    });
  withConnection(watch.command('list').description("the key's watches: id, state, source, callback")).action(
    (flags: ConnectionFlags) => {
      needsServer(flags);
      return withClient(flags, (c) => runWatchList(c, io));
    },
  );
  withConnection(
    watch.command('show').description('a watch, its state and its recent deliveries (JSON)').argument('<id>'),
  ).action((id: string, flags: ConnectionFlags) => {
    needsServer(flags);
    return withClient(flags, (c) => runShow(c, id, io));
  });
  withConnection(watch.command('delete').description('end a watch').argument('<id>')).action(
    (id: string, flags: ConnectionFlags) => {
      needsServer(flags);
      return withClient(flags, (c) => runDelete(c, id));
    },
  );
  withConnection(
    watch
      .command('follow')
      .description('print new posts of a source as they arrive, until interrupted')
      .argument('<source>'),
  )
    .option('--interval <seconds>', 'seconds between two reads (default 60)', (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0.05) throw new InvalidArgumentError('must be a number of seconds, at least 0.05');
      return n;
    })
    .option('--count <n>', 'stop after n new posts', positiveInt)
    .option('--json', 'one JSON Feed item per line')
    .action((source: string, flags: ConnectionFlags & Partial<FollowFlags>) => {
      const stop = new AbortController();
      const onSigint = () => stop.abort();
      process.once('SIGINT', onSigint);
      return withClient(flags, (c) =>
        runFollow(c, source, { interval: flags.interval ?? 60, count: flags.count, json: flags.json }, io, stop.signal),
      ).finally(() => process.off('SIGINT', onSigint));
    });

  program
    .command('keys')
    .description('operator API keys: create, list, disable, enable, delete (run "threadmark keys --help")')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[]) => done(await runKeysCommand(args, io.stdout, io.stderr, { env: io.env })));

  program
    .command('x-operations')
    .description('print the X GraphQL operations in force (query ids, flags) for this configuration')
    .option('--json', 'the whole table as JSON (variables, features, fieldToggles, where each query id came from)')
    .addHelpText(
      'after',
      `
Reads THREADMARK_X_OPERATIONS (merged over the shipped table; a bad file exits 2 naming the bad key).
"source" says where each query id came from: shipped, override, or discovered (THREADMARK_X_DISCOVER=true
reads the ids from the web bundle at THREADMARK_X_WEB_URL first).`,
    )
    .action(async (flags: XOperationsFlags) => done(await runXOperations(flags, io)));

  program
    .command('serve')
    .description('start the HTTP service, as npm start does (configured by the THREADMARK_* environment)')
    .option('--port <port>', 'listen port (env PORT, default 8080)')
    .option('--host <host>', 'listen address (env HOST, default 0.0.0.0)')
    .action(async (flags: ServeFlags) => {
      await runServe(flags);
      done('serving');
    });

  return program;
}

/** Runs one command line (without the node and script arguments). */
export async function runCli(argv: string[], streams: CliIO): Promise<CliOutcome> {
  const io: CliIO = { ...streams, stdout: terminalSafe(streams.stdout), stderr: terminalSafe(streams.stderr) };
  let outcome: CliOutcome = EXIT.ok;
  const program = buildProgram(io, (o) => (outcome = o));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here too; a bare `threadmark` prints help and is a usage error.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof CliError) {
      io.stderr.write(problemLine(e.code, e.detail));
      return e.exitCode;
    }
    io.stderr.write(problemLine('error', e instanceof Error ? e.message : String(e)));
    return EXIT.failure;
  }
}
