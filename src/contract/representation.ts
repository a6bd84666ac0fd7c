// The representations a route can answer with, and the media type each is sent as.
export type Representation = 'markdown' | 'obsidian' | 'json' | 'html';

export const CONTENT_TYPES: Record<Representation, string> = {
  markdown: 'text/markdown; charset=utf-8',
  obsidian: 'text/markdown; charset=utf-8; variant=obsidian',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
};
