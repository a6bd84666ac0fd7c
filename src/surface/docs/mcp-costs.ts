// What one MCP tool result costs an agent's context, for /docs#mcp: the Markdown text plus structuredContent,
// measured on the simulator's corpus (test/http/mcp-costs.test.ts keeps these within a fifth of what is measured).
import { esc, table } from './html.ts';

export interface ResultCost {
  id: string;
  tool: string;
  /** The read, in a reader's words. */
  what: string;
  /** Characters of the text content (the Markdown). */
  text: number;
  /** Characters of structuredContent, serialized as JSON. */
  structured: number;
}

export const MCP_RESULT_COSTS: readonly ResultCost[] = [
  { id: 'post', tool: 'read_post', what: 'one post (thread off, replies off)', text: 310, structured: 2900 },
  { id: 'thread', tool: 'read_post', what: 'a 12-post thread with its top replies', text: 6100, structured: 33500 },
  { id: 'profile', tool: 'read_profile', what: 'a profile and a page of its posts', text: 8300, structured: 27600 },
  { id: 'followers', tool: 'list_followers', what: 'a page of 20 followers', text: 2200, structured: 8000 },
  { id: 'search', tool: 'search', what: 'a page of 20 search results', text: 7300, structured: 23100 },
  { id: 'list', tool: 'list_posts', what: 'an X List and a page of 20 of its posts', text: 10400, structured: 32900 },
];

const round = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function renderMcpCosts(): string {
  const rows = MCP_RESULT_COSTS.map((c) => [
    `<code>${esc(c.tool)}</code>: ${esc(c.what)}`,
    round(c.text),
    round(c.structured),
    `~${round(Math.round((c.text + c.structured) / 4))}`,
  ]);
  return `<h2 id="mcp">MCP tool results</h2>
<p>Every tool answers the Markdown once, as its text content, and the read's data without the Markdown (posts, authors, metrics, cursors) as <code>structuredContent</code>, which the tool's <code>outputSchema</code> describes. An agent's client may put both into the model's context. Roughly, in characters (a token is about four characters of English):</p>
${table(['result', 'text', 'structuredContent', 'tokens, both'], rows)}
<p>To spend less: <code>thread=off</code> or a number of posts, <code>replies=off</code>, a smaller <code>limit</code>, and <code>budget</code> (characters of Markdown); a client that shows the model only the text pays for the Markdown alone.</p>`;
}
