// The example commands of the documentation: the curl and `npx threadmark` lines of its shell blocks, with the
// variable assignments that come before them in the same block, so each can be run as a reader would paste it.

/** The address the README and docs/*.md examples use (the demo's); the runner points it at the test service. */
export const DOCUMENTED_BASE = 'http://localhost:8080';
/** The demo's simulator as the docs name it (SIM_PORT's default), for its control routes. */
export const DOCUMENTED_SIM = 'http://127.0.0.1:8090';
/** The webhook callback the docs' watch examples name; the runner points it at a receiver of its own. */
export const DOCUMENTED_CALLBACK = 'http://127.0.0.1:9099';

export interface Example {
  /** `export X=…` / `X=…` lines of the block above the command, in order. */
  setup: string[];
  command: string;
}

/** Shell blocks of a Markdown file: fenced with `sh`, `bash`, `shell` or `console`. */
export function markdownShellBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  for (const m of markdown.matchAll(/^ *```(sh|bash|shell|console)[^\n]*\n([\s\S]*?)^ *```/gm)) blocks.push(m[2]!);
  return blocks;
}

/** TypeScript blocks of a Markdown file (fenced with `ts` or `typescript`): programs using threadmark-client. */
export function markdownTypeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^ *```(ts|typescript)\n([\s\S]*?)^ *```/gm)].map((m) => m[2]!);
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Code blocks of an HTML documentation page, unescaped. */
export function htmlCodeBlocks(html: string): string[] {
  return [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    m[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!),
  );
}

const ASSIGNMENT = /^(export\s+)?[A-Za-z_][A-Za-z0-9_]*=/;
const COMMAND = /^(curl|npx threadmark)\s/;

/** The runnable examples of one block: continuation lines joined, comments dropped. */
export function examplesOf(block: string): Example[] {
  const lines = block.replace(/\\\n\s*/g, '').split('\n');
  const setup: string[] = [];
  const out: Example[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (ASSIGNMENT.test(line)) setup.push(line);
    else if (COMMAND.test(line)) out.push({ setup: [...setup], command: line });
  }
  return out;
}
