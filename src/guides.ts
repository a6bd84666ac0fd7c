// Where the Markdown guides of docs/ live. This file sits one directory below the repository root, as the bundle
// (dist/main.mjs) does, so the same relative URL finds docs/ from the sources and from the bundle.
export const GUIDES_DIR = new URL('../docs/', import.meta.url);
