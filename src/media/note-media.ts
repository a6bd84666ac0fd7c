// A note's media saved into the vault and the note rewritten to embed them.
import { mediaRefsInText, mediaRefsOf, type MediaRef } from '../domain/media-refs.ts';
import { localiseNote, mediaKey, type LocalFile, type LocalStyle } from '../render/local-media.ts';
import type { SaveResult, Skipped } from './store.ts';

/** Where a note's media go: the vault's attachments folder, or a zip archive's. */
export interface MediaSaver {
  save(ref: MediaRef): Promise<SaveResult>;
}

export interface NoteMediaResult {
  body: string;
  /** Files the note names that were not saved (it keeps their original URLs). */
  skipped: Array<{ ref: MediaRef; result: Skipped }>;
}

/**
 * Saves what the note links on X's media hosts and what its posts hold besides (`data`: the posts, as the domain
 * model or its JSON), then embeds the saved files. A file that cannot be saved leaves its original link in place.
 */
export async function withLocalMedia(
  store: MediaSaver,
  body: string,
  data: unknown,
  style: LocalStyle,
): Promise<NoteMediaResult> {
  const refs = new Map<string, MediaRef>();
  for (const ref of [...mediaRefsInText(body), ...mediaRefsOf(data)]) {
    if (!refs.has(mediaKey(ref.url))) refs.set(mediaKey(ref.url), ref);
  }
  const files = new Map<string, LocalFile>();
  const skipped: NoteMediaResult['skipped'] = [];
  for (const [key, ref] of refs) {
    const result = await store.save(ref);
    if (result.ok) files.set(key, { ref, path: result.path });
    else skipped.push({ ref, result });
  }
  return { body: localiseNote(body, files, style), skipped };
}
