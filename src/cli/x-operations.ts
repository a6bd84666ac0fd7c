// `threadmark x-operations`: the X GraphQL operations table this configuration puts in force (shipped
// values, THREADMARK_X_OPERATIONS merged over them and, with THREADMARK_X_DISCOVER=true, the ids X's web
// bundle names now), so an operator can see what the service will send before and after a refresh.
import { ConfigError, loadConfig } from '../config.ts';
import { OperationTable, type OperationRow } from '../providers/x/operation-table.ts';
import { readWebBundle } from '../providers/x/web-bundle.ts';
import { CliError, EXIT } from './exit.ts';
import { writeDocument, type CliIO } from './output.ts';

export interface XOperationsFlags {
  json?: boolean;
}

/** Discovery as the service does it at start; a web app that cannot be read leaves the table and says so. */
async function discover(table: OperationTable, webUrl: string, timeoutMs: number): Promise<string> {
  try {
    const bundle = await readWebBundle(webUrl, { timeoutMs });
    const changed = table.applyDiscovered(bundle.queryIds);
    return `discovery: ${changed.length ? `new ids for ${changed.join(', ')}` : 'no change'} (${bundle.mainScriptUrl})`;
  } catch (err) {
    return `discovery failed, ids shown without it: ${(err as Error).message}`;
  }
}

export async function runXOperations(flags: XOperationsFlags, io: CliIO): Promise<number> {
  let cfg;
  try {
    cfg = loadConfig(io.env);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError('config', e.message, EXIT.usage);
    throw e;
  }
  const table = new OperationTable({ overridePath: cfg.xOperationsPath });
  const note = cfg.xDiscover ? await discover(table, cfg.xWebUrl, cfg.upstreamTimeoutMs) : undefined;
  const rows = table.rows();
  writeDocument(io.stdout, flags.json ? asJson(rows) : asText(rows));
  if (note) io.stderr.write(`threadmark: ${note}\n`);
  return EXIT.ok;
}

function asJson(rows: OperationRow[]): string {
  const out: Record<string, unknown> = {};
  for (const { name, operation, source } of rows) {
    const { operationName: _name, ...rest } = operation;
    out[name] = { ...rest, source };
  }
  return JSON.stringify(out, null, 2);
}

function asText(rows: OperationRow[]): string {
  const head = ['operation', 'queryId', 'source', 'transactionId', 'features', 'fieldToggles'];
  const body = rows.map(({ name, operation: op, source }) => [
    name,
    op.queryId,
    source,
    op.transactionId ? 'yes' : 'no',
    String(Object.keys(op.features).length),
    String(Object.keys(op.fieldToggles ?? {}).length),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  return [head, ...body]
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
