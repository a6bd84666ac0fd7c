// X's `edit_control`, as GraphQL and syndication send it, in its two shapes: on the original post the version
// list sits at the top (`edit_tweet_ids`, oldest first); on a later version it sits under
// `edit_control_initial`, next to `initial_tweet_id`. Anything else (FxTwitter has no edit data) gives nothing.
import type { EditHistory } from '../../domain/models.ts';

interface EditControlWire {
  edit_tweet_ids?: unknown;
  initial_tweet_id?: unknown;
  edit_control_initial?: { edit_tweet_ids?: unknown };
}

const ID = /^[0-9]{1,20}$/;

export function parseEditControl(postId: string, raw: unknown): EditHistory | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const ec = raw as EditControlWire;
  const list = Array.isArray(ec.edit_tweet_ids) ? ec.edit_tweet_ids : ec.edit_control_initial?.edit_tweet_ids;
  if (!Array.isArray(list)) return undefined;
  const versions = [...new Set(list.filter((v): v is string => typeof v === 'string' && ID.test(v)))];
  // A list that does not name the post itself describes some other chain: trust none of it.
  if (versions.length < 2 || !versions.includes(postId)) return undefined;
  return { versions };
}
