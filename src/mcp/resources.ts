// Documents an agent may read through MCP besides calling tools: the agent guide and the OpenAPI description,
// served by the same routes as over HTTP.
import { DISCOVERY_PATHS } from '../surface/paths.ts';

export interface ResourceDef {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  path: string;
}

export const RESOURCES: ResourceDef[] = [
  {
    uri: 'threadmark://llms.txt',
    name: 'llms.txt',
    title: 'Agent guide',
    description:
      'How to read posts, threads, profiles, lists and searches; paging, budgets, incremental reads, errors.',
    mimeType: 'text/plain',
    path: DISCOVERY_PATHS.llms,
  },
  {
    uri: 'threadmark://openapi.json',
    name: 'openapi.json',
    title: 'OpenAPI 3.1 description',
    description: 'Every route, parameter, response schema and error code of the HTTP API.',
    mimeType: 'application/json',
    path: DISCOVERY_PATHS.openapi,
  },
];
