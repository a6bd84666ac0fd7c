// The simulated X web deploy: which GraphQL query id each operation answers to right now. X rotates
// them with its web deploys and answers 404 to a stale one; tests rotate an operation's id to play a
// deploy. The web bundle (routes/x-web.ts) publishes the ids in force, as X's main script does.
import { DEFAULT_OPERATIONS, OPERATION_NAMES, type OperationName } from '../src/providers/x/operations.ts';
import { slug } from './prng.ts';

export class XDeploy {
  private ids = new Map<string, string>();
  /** Bumped by every rotation; names the main script, as a new deploy renames X's bundle. */
  generation = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.ids = new Map(OPERATION_NAMES.map((n) => [n, DEFAULT_OPERATIONS[n].queryId]));
    this.generation = 0;
  }

  /** A new deploy: `op` answers to a fresh id from now on, the old one is stale. Returns the new id. */
  rotate(op: OperationName): string {
    this.generation++;
    const id = slug(`${op}:deploy:${this.generation}`, 22);
    this.ids.set(op, id);
    return id;
  }

  queryId(op: string): string | undefined {
    return this.ids.get(op);
  }

  entries(): Array<[string, string]> {
    return [...this.ids.entries()];
  }
}

/** The deploy of the simulator process; tests in the same process steer it directly. */
export const xDeploy = new XDeploy();
