// Shared setup for simulator tests: one simulator per test file, JSON GET helper.
import { after, before } from 'node:test';
import { startSimulator, type Simulator } from '../../../sim/server.ts';

export function useSimulator(): {
  sim: () => Simulator;
  getJson: (path: string) => Promise<{ status: number; body: any; headers: Headers }>;
} {
  let sim: Simulator | undefined;
  before(async () => {
    sim = await startSimulator();
  });
  after(async () => {
    await sim?.close();
  });
  const current = () => {
    if (!sim) throw new Error('simulator not started');
    return sim;
  };
  return {
    sim: current,
    async getJson(path: string) {
      const res = await fetch(current().url + path);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
  };
}
