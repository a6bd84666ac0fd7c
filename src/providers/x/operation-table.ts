// The X operations table in force: shipped defaults, the operator's THREADMARK_X_OPERATIONS file merged
// over them (re-read when the file changes, no restart) and query ids found in X's web bundle. A file that
// turns bad at run time is reported and ignored: the last good table stays in force.
import { readFileSync } from 'node:fs';
import { watchPath } from './file-watch.ts';
import {
  DEFAULT_OPERATIONS,
  mergeOperations,
  OPERATION_NAMES,
  OperationsFileError,
  parseOperationsOverride,
  type Operation,
  type OperationName,
  type OperationsOverride,
  type OperationsTable,
} from './operations.ts';

/** Where the query id in force came from. */
export type QueryIdSource = 'shipped' | 'override' | 'discovered';

export interface OperationRow {
  name: OperationName;
  operation: Operation;
  source: QueryIdSource;
}

export interface TableLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Reads and validates an override file; OperationsFileError (one line) when it is missing or bad. */
export function loadOperationsOverride(path: string): OperationsOverride {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new OperationsFileError(`cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseOperationsOverride(text);
}

export interface OperationTableOptions {
  /** THREADMARK_X_OPERATIONS */
  overridePath?: string;
  log?: TableLog;
}

export class OperationTable {
  private override: OperationsOverride = {};
  private merged: OperationsTable = DEFAULT_OPERATIONS;
  private readonly discovered = new Map<OperationName, string>();
  private unwatch?: () => void;
  /** The last reload's problem, while the file stays bad. */
  lastError?: string;

  constructor(private readonly opts: OperationTableOptions = {}) {
    if (opts.overridePath) this.setOverride(loadOperationsOverride(opts.overridePath));
  }

  get(name: OperationName): Operation {
    const op = this.merged[name];
    const id = this.discovered.get(name);
    return id ? { ...op, queryId: id } : op;
  }

  rows(): OperationRow[] {
    return OPERATION_NAMES.map((name) => ({
      name,
      operation: this.get(name),
      source: this.discovered.has(name) ? 'discovered' : this.override[name]?.queryId ? 'override' : 'shipped',
    }));
  }

  /**
   * Takes the ids read from X's web bundle (names it does not call are ignored). The later of a discovery
   * and an override file change wins: discovery is opt-in and reads what X serves now, while an operator
   * who pins an id afterwards means it. Returns the operations whose id changed.
   */
  applyDiscovered(ids: ReadonlyMap<string, string>): OperationName[] {
    const changed: OperationName[] = [];
    for (const name of OPERATION_NAMES) {
      const id = ids.get(name);
      if (!id || id === this.get(name).queryId) continue;
      this.discovered.set(name, id);
      changed.push(name);
    }
    return changed;
  }

  /** Re-reads the override file; a bad file is logged and the table in force is kept. */
  reload(): boolean {
    const path = this.opts.overridePath;
    if (!path) return false;
    try {
      this.setOverride(loadOperationsOverride(path));
      this.lastError = undefined;
      this.opts.log?.info({ path, overridden: Object.keys(this.override) }, 'THREADMARK_X_OPERATIONS re-read');
      return true;
    } catch (err) {
      this.lastError = (err as Error).message;
      this.opts.log?.warn({ path }, `THREADMARK_X_OPERATIONS ${this.lastError}; keeping the operations in force`);
      return false;
    }
  }

  /** Re-reads the override file whenever its size or mtime changes. */
  watch(): void {
    const path = this.opts.overridePath;
    if (path && !this.unwatch) this.unwatch = watchPath(path, () => this.reload());
  }

  close(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }

  private setOverride(override: OperationsOverride): void {
    this.override = override;
    this.merged = mergeOperations(DEFAULT_OPERATIONS, override);
    // An operator who pins a new id for an operation means it over an older discovery.
    for (const [name, o] of Object.entries(override)) if (o.queryId) this.discovered.delete(name as OperationName);
  }
}
