// Where an account's posts come from, page by page: its timeline, or inside a date window X search
// (`from:<handle>` with the window's operators), which reaches the window straight away instead of paging
// down to it. The profile read and the export walk the same pages, so they share the cache. Only posts inside the
// window are kept, whatever the upstream sent. Replies to others are asked of the timeline only when a read shows
// them (X keeps them on another tab); X search finds them either way.
import type { ListSource, WindowInput } from './lists.ts';
import type { Post } from './models.ts';
import type { PageLoader } from './paging.ts';
import { keepToWindow, postTime } from './in-window.ts';

export function postPages(
  lists: ListSource,
  handle: string,
  window?: WindowInput,
  opts: { replies?: boolean } = {},
): PageLoader<Post> {
  if (!window) return (call) => lists.timeline(handle, call, opts);
  const searched: PageLoader<Post> = async (call) => {
    const got = await lists.search(`from:${handle} ${window.operators}`, 'latest', call);
    return {
      ...got,
      value: { ...got.value, items: got.value.items.flatMap((i) => (i.kind === 'post' ? [i.post] : [])) },
    };
  };
  return keepToWindow(searched, window, postTime, true);
}
