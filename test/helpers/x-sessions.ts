// A sessions file for THREADMARK_X_SESSIONS, so a stack can use the X provider against the simulator.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeSessions(dir: string, prefix: string, count = 4): string {
  const path = join(dir, `${prefix}-sessions.jsonl`);
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ username: `${prefix}${i}`, auth_token: `${prefix}${i}_token`, ct0: `ct0_${prefix}${i}` }),
  );
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
