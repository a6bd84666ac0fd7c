// Name and one-line description every discovery document repeats.
export const SERVICE_NAME = 'threadmark';
export const SERVICE_DESCRIPTION =
  'Read-only HTTP API that turns public X posts, threads, profiles, follower lists and searches into compact ' +
  'Markdown (default), expanded Markdown, Obsidian notes, JSON or HTML.';
