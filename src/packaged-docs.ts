// The guides the package ships (docs/), found from this module: it sits one directory below the package root in
// the sources (src/) and in the bundles (dist/) alike, as src/version.ts finds package.json.
export const PACKAGED_DOCS_URL = new URL('../docs', import.meta.url).href;
