// The shape of an account handle, declared once: validation, recovery pages, the CLI, parsers and link builders
// read it.

/** 1-15 letters, digits or underscores, without the leading @ (a fragment, for patterns that embed a handle). */
export const HANDLE_PATTERN = '[A-Za-z0-9_]{1,15}';

export const HANDLE_RE = new RegExp(`^${HANDLE_PATTERN}$`);

/** True for a string an account handle can be; anything else from an upstream is shown, never linked. */
export function isHandle(h: string): boolean {
  return HANDLE_RE.test(h);
}
