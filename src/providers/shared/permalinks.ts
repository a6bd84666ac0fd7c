// Permalinks of posts on X, built from and matched against upstream-supplied handles and ids.
import { statusPath } from '../../domain/links.ts';

/** The post on X; handle-less when the upstream's handle is not one. */
export function permalink(handle: string, id: string): string {
  return `https://x.com${statusPath(handle, id)}`;
}

const STATUS_URL = /^https?:\/\/(?:[\w-]+\.)?(?:x|twitter)\.com\/\w+\/status\/([^/?#]+)(?:[/?#].*)?$/i;

/** Whether `href` is an x.com or twitter.com permalink of post `id`; the id is compared, never used as a pattern. */
export function isStatusUrl(href: string, id: string): boolean {
  return STATUS_URL.exec(href)?.[1] === id;
}
