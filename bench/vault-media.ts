// (10) `threadmark export --vault --media` of 1,000 posts, in-process against the simulator (whose media routes
// stand for X's media hosts), against the same export without --media: posts per second, and media bytes per
// second written to attachments/. Goal: saving media costs less than twice the export without it.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin } from '../test/helpers/cli-bin.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { median, round } from './lib/stats.ts';

const POSTS = 1000;

async function exportOnce(ctx: BenchContext, dir: string, media: boolean): Promise<{ s: number; bytes: number }> {
  const vault = mkdtempSync(join(dir, 'vault-'));
  const env = {
    THREADMARK_FXTWITTER_URL: ctx.sim.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: ctx.sim.syndicationUrl,
    THREADMARK_X_API_URL: ctx.sim.xApiUrl,
    THREADMARK_MEDIA_HOSTS: ctx.sim.mediaHosts,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication',
    THREADMARK_KEYS_DB: join(vault, 'keys.db'),
    LOG_LEVEL: 'silent',
  };
  const args = ['export', 'prolific_pat', '--max-posts', String(POSTS), '--vault', join(vault, 'notes')];
  const t0 = performance.now();
  const r = await runBin(media ? [...args, '--media'] : args, { cwd: dir, env, timeoutMs: 600_000 });
  const s = (performance.now() - t0) / 1000;
  if (r.code !== 0) throw new Error(`export failed (${r.code}): ${r.stderr.slice(0, 400)}`);
  const attachments = join(vault, 'notes', 'attachments');
  const bytes = media
    ? readdirSync(attachments)
        .filter((n) => !n.startsWith('.'))
        .reduce((n, f) => n + statSync(join(attachments, f)).size, 0)
    : 0;
  return { s, bytes };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-bench-vault-'));
  const rounds: Array<Record<string, number>> = [];
  try {
    for (let i = 0; i < ctx.rounds; i++) {
      const plain = await exportOnce(ctx, dir, false);
      const media = await exportOnce(ctx, dir, true);
      rounds.push({
        plainPostsPerS: round(POSTS / plain.s),
        mediaPostsPerS: round(POSTS / media.s),
        mediaBytesPerS: round(media.bytes / media.s),
        mediaBytes: media.bytes,
        ratio: round(media.s / plain.s),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const med: Record<string, number> = {};
  for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)));
  return {
    name: 'vault-media',
    goal: 'an export of 1,000 posts with --media takes < 2x the same export without it',
    met: med.ratio! < 2,
    ratio: med.ratio!,
    ratioOf: 'seconds with --media / seconds without',
    median: med,
    rounds,
    notes: ['in-process CLI runs (process start included); the simulated media are small PNGs and one MP4 per video'],
  };
}
