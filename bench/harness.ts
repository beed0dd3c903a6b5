/**
 * A tiny benchmark harness. Machines here are noisy, so every benchmark compares two things
 * measured in the same run, interleaved, and reports their ratio rather than absolute times.
 */

export interface Sample {
  name: string;
  medianMs: number;
  p90Ms: number;
  runs: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.floor(p * sorted.length));
  return sorted[index] ?? Number.NaN;
}

/**
 * A full collection, when the process allows one (`npm run bench` runs with `--expose-gc`), so that
 * what one side of a comparison left behind is not collected during the other side's runs: the
 * 10,000-item restore left the plain read that followed it about 3× slower than the same read
 * measured after the kept-backup restore.
 */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * Times `fn` `runs` times after `warmup` untimed calls; returns median and p90 in milliseconds.
 * Each timed call may repeat the work `inner` times to get above timer resolution. Starts from a
 * collected heap; what the runs themselves leave is collected, and timed, as it comes.
 */
export async function measure(
  name: string,
  fn: () => unknown,
  { runs = 30, warmup = 5, inner = 1 }: { runs?: number; warmup?: number; inner?: number } = {},
): Promise<Sample> {
  collectGarbage();
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < inner; i++) await fn();
    times.push((performance.now() - start) / inner);
  }
  times.sort((a, b) => a - b);
  return { name, medianMs: percentile(times, 0.5), p90Ms: percentile(times, 0.9), runs };
}

/**
 * Measures a candidate and a baseline alternately (A, B, A, B, …) so drift in machine load hits
 * both equally, then returns both samples.
 */
export async function compare(
  candidate: { name: string; fn: () => unknown },
  baseline: { name: string; fn: () => unknown },
  options: { rounds?: number; runs?: number; warmup?: number; inner?: number } = {},
): Promise<{ candidate: Sample; baseline: Sample }> {
  const rounds = options.rounds ?? 5;
  const per = {
    runs: Math.max(1, Math.round((options.runs ?? 30) / rounds)),
    warmup: options.warmup ?? 3,
    inner: options.inner ?? 1,
  };
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    a.push((await measure(candidate.name, candidate.fn, per)).medianMs);
    b.push((await measure(baseline.name, baseline.fn, per)).medianMs);
  }
  const summarise = (name: string, xs: number[]): Sample => {
    const sorted = [...xs].sort((x, y) => x - y);
    return {
      name,
      medianMs: percentile(sorted, 0.5),
      p90Ms: percentile(sorted, 0.9),
      runs: xs.length * per.runs,
    };
  };
  return { candidate: summarise(candidate.name, a), baseline: summarise(baseline.name, b) };
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

/**
 * Prints one line: both medians and candidate/baseline (or baseline/candidate when `faster`),
 * with the target and whether it was met.
 */
export function reportRatio(
  title: string,
  { candidate, baseline }: { candidate: Sample; baseline: Sample },
  target: { kind: 'speedup' | 'slowdown'; value: number },
): { ratio: number; met: boolean } {
  const ratio =
    target.kind === 'speedup'
      ? baseline.medianMs / candidate.medianMs
      : candidate.medianMs / baseline.medianMs;
  const met = target.kind === 'speedup' ? ratio >= target.value : ratio <= target.value;
  const wording =
    target.kind === 'speedup'
      ? `${ratio.toFixed(1)}× faster (target ≥ ${target.value}×)`
      : `${ratio.toFixed(2)}× (target ≤ ${target.value}×)`;
  console.log(
    `${met ? 'PASS' : 'MISS'}  ${title}: ${candidate.name} ${formatMs(candidate.medianMs)} vs ${baseline.name} ${formatMs(baseline.medianMs)} → ${wording}`,
  );
  return { ratio, met };
}

/** Prints a plain figure that has no baseline (e.g. a bundle size or a per-item median). */
export function reportFigure(title: string, value: string): void {
  console.log(`INFO  ${title}: ${value}`);
}
