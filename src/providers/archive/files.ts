// The files of an archive, zipped or unpacked: its data files as streams of text, and the media files X put beside
// the posts (data/tweets_media/<post id>-<file>, data/profile_media/<account id>-<file>). A zip is read through
// yauzl: its central directory first (names and offsets only), then each file's bytes as a stream when asked for,
// so neither the zip nor a data file is ever held whole.
import { createReadStream, openSync, closeSync, readSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { engines } from '../../engines.ts';
import { ArchiveError } from './errors.ts';

/** A media file of the archive: its size and its bytes. */
export interface ArchiveMediaFile {
  size: number;
  open(): Promise<AsyncIterable<Buffer>>;
}

export type MediaFolder = 'tweets_media' | 'profile_media';

export interface ArchiveFiles {
  /** What the command names the archive by. */
  readonly path: string;
  /** Data files present under data/ (`tweets.js`, `note-tweet.js`, `account.js`…). */
  has(name: string): boolean;
  /** The post files, in order: tweets.js (or the older tweet.js), then tweets-part1.js, tweets-part2.js… */
  tweetFiles(): string[];
  /** A data file's text, decoded as it is read. */
  text(name: string): AsyncIterable<string>;
  /** A media file by the name X gave it after its `<id>-` prefix (`AbC.jpg` of `123-AbC.jpg`). */
  media(folder: MediaFolder, name: string): ArchiveMediaFile | undefined;
  close(): void;
}

const TWEET_FILE = /^tweets?(?:-part([0-9]+))?\.js$/;

/** Post files in X's order: the unnumbered file first, then the parts by number. */
export function orderTweetFiles(names: Iterable<string>): string[] {
  return [...names]
    .filter((n) => TWEET_FILE.test(n))
    .sort((a, b) => Number(TWEET_FILE.exec(a)![1] ?? 0) - Number(TWEET_FILE.exec(b)![1] ?? 0) || a.localeCompare(b));
}

/** `123-AbC.jpg` → `AbC.jpg`: media files carry the id of their post (or account) first. */
const mediaName = (file: string) => file.replace(/^[0-9]+-/, '');

async function* decoded(stream: Readable): AsyncIterable<string> {
  stream.setEncoding('utf8');
  for await (const chunk of stream) yield chunk as string;
}

/** Opens an archive: a zip file or the folder it unpacks to (the one holding data/). */
export async function openArchive(path: string, opts: { media: boolean }): Promise<ArchiveFiles> {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new ArchiveError('archive_not_found', `${path}: no such file or folder`);
  }
  const files = st.isDirectory() ? openFolder(path, opts) : await openZip(path, st.size, opts);
  if (files.tweetFiles().length === 0) {
    files.close();
    throw new ArchiveError(
      'no_tweets',
      `${path} has no data/tweets.js (nor tweet.js or tweets-part1.js): not an X archive?`,
    );
  }
  return files;
}

function openFolder(root: string, opts: { media: boolean }): ArchiveFiles {
  // The folder itself, or the folder holding it when data/ is one level down (a zip unpacked into a folder of its name).
  const candidates = [
    root,
    ...readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(root, d.name)),
  ];
  const base = candidates.find((c) => {
    try {
      return orderTweetFiles(readdirSync(join(c, 'data'))).length > 0;
    } catch {
      return false;
    }
  });
  const data = join(base ?? root, 'data');
  let names: string[] = [];
  try {
    names = readdirSync(data);
  } catch {
    // no data/ at all: no_tweets below
  }
  const mediaIndex = new Map<string, string>();
  const indexFolder = (folder: MediaFolder) => {
    if (mediaIndex.has(`${folder}/`)) return;
    mediaIndex.set(`${folder}/`, '');
    try {
      for (const f of readdirSync(join(data, folder)))
        mediaIndex.set(`${folder}/${mediaName(f)}`, join(data, folder, f));
    } catch {
      // no media folder: nothing to copy
    }
  };
  return {
    path: root,
    has: (name) => names.includes(name),
    tweetFiles: () => orderTweetFiles(names),
    text: (name) => decoded(createReadStream(join(data, name))),
    media: (folder, name) => {
      if (!opts.media) return undefined;
      indexFolder(folder);
      const file = mediaIndex.get(`${folder}/${basename(name)}`);
      if (!file) return undefined;
      const size = statSync(file).size;
      return { size, open: () => Promise.resolve(createReadStream(file)) };
    },
    close: () => undefined,
  };
}

/** The first bytes of a file: a zip starts with a local file header (or, empty, with the end record). */
function startsLikeZip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    return (
      n === 4 &&
      head[0] === 0x50 &&
      head[1] === 0x4b &&
      (head[2] === 3 || head[2] === 5) &&
      (head[3] === 4 || head[3] === 6)
    );
  } finally {
    closeSync(fd);
  }
}

/** A failure of yauzl while reading: a cut-off file, or a damaged one. */
function zipFailure(path: string, e: unknown): ArchiveError {
  const message = (e as Error).message ?? String(e);
  if (
    /end of central directory|unexpected EOF|not enough bytes|too many bytes|truncated|out of range|invalid relative offset|past end/i.test(
      message,
    )
  )
    return new ArchiveError('truncated_archive', `${path} is cut off (${message}): download the archive again`);
  return new ArchiveError('not_a_zip', `${path} is a damaged zip (${message})`);
}

async function openZip(path: string, size: number, opts: { media: boolean }): Promise<ArchiveFiles> {
  if (size < 22 || !startsLikeZip(path))
    throw new ArchiveError('not_a_zip', `${path} is neither a zip file nor a folder`);
  // Loaded on use: only this command reads zips.
  const yauzl = engines.yauzl();
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (e) {
    throw zipFailure(path, e);
  }
  // Data files by their path in the zip; media by folder and name. Only the central directory is read here.
  const dataFiles = new Map<string, Entry>();
  const media = new Map<string, Entry>();
  const MEDIA = /^(.*?)data\/(tweets_media|profile_media)\/([^/]+)$/;
  const DATA = /^(.*?)data\/([^/]+\.js)$/;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const d = DATA.exec(name);
      if (d) dataFiles.set(name, entry);
      else if (opts.media) {
        const m = MEDIA.exec(name);
        if (m) media.set(`${m[1]}|${m[2]}/${mediaName(m[3]!)}`, entry);
      }
    }
  } catch (e) {
    zip.close();
    throw zipFailure(path, e);
  }
  // The folder holding data/: the zip's root, or the one folder X's archive was packed in.
  const prefixes = [...dataFiles.keys()]
    .map((n) => DATA.exec(n)!)
    .filter((m) => TWEET_FILE.test(m[2]!))
    .map((m) => m[1]!)
    .sort((a, b) => a.length - b.length);
  const prefix = prefixes[0] ?? '';
  const names = [...dataFiles.keys()]
    .filter((n) => n.startsWith(`${prefix}data/`) && !n.slice(prefix.length + 5).includes('/'))
    .map((n) => n.slice(prefix.length + 5));
  const read = async (entry: Entry): Promise<Readable> => {
    try {
      const stream = await zip.openReadStreamPromise(entry);
      return stream;
    } catch (e) {
      throw zipFailure(path, e);
    }
  };
  async function* text(name: string): AsyncIterable<string> {
    const entry = dataFiles.get(`${prefix}data/${name}`);
    if (!entry) throw new ArchiveError('invalid_archive_file', `${path} has no data/${name}`);
    const stream = await read(entry);
    try {
      yield* decoded(stream);
    } catch (e) {
      if (e instanceof ArchiveError) throw e;
      throw zipFailure(path, e);
    }
  }
  return {
    path,
    has: (name) => names.includes(name),
    tweetFiles: () => orderTweetFiles(names),
    text,
    media: (folder, name) => {
      const entry = media.get(`${prefix}|${folder}/${basename(name)}`);
      if (!entry) return undefined;
      return {
        size: entry.uncompressedSize,
        open: async () => {
          const stream = await read(entry);
          return (async function* () {
            try {
              for await (const chunk of stream) yield chunk as Buffer;
            } catch (e) {
              throw zipFailure(path, e);
            }
          })();
        },
      };
    },
    close: () => zip.close(),
  };
}
