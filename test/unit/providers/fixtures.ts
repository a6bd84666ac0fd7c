import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', 'fixtures');

export function fixture<T = any>(path: string): T {
  return JSON.parse(readFileSync(join(root, path), 'utf8')) as T;
}

export function fixtureText(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}
