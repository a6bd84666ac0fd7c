// Types for scripts/build.mjs, which the benchmarks import to bundle their servers.
/** Bundles `entry` (relative to the repository root) into dist/<name>.mjs and resolves to that file's path. */
export function bundle(entry: string, name: string): Promise<string>;
