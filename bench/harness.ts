/**
 * A tiny benchmark harness. Machines here are noisy, so every benchmark compares two things
 * measured in the same run, interleaved, and reports their ratio rather than absolute times.
 *
 * Each ratio is reported twice: by wall-clock time and by this process's CPU time
 * (`process.cpuUsage`, user + system, all threads, around the same timed calls). A target is
 * judged by the CPU-time ratio when both samples have one. CPU time is the cost the code
 * controls: on a shared machine other processes stretch wall time by whatever the scheduler
 * gives them (the same bench's wall ratios swung 1.2–2.3× run to run on 2 shared cores), while
 * the CPU this process spends moves less. Less, not nothing: shared caches and cores still stretch
 * it (update_memory's CPU ratio spanned 1.20–1.90× over six runs, its wall ratio 1.20–2.73×), so
 * compare figures over several runs, and a sample of a few calls can still catch a collection. In-process work on either side counts on that side:
 * the embedded dynalite store answering a put, the thread pool hashing or reading a file,
 * garbage collection. Work in another process (a spawned cold start) does not show in this
 * process's CPU time, so such samples carry none and are judged by wall time (those benches
 * report the child's own CPU time as an INFO line).
 */

export interface Sample {
  name: string;
  medianMs: number;
  p90Ms: number;
  runs: number;
  /** Median CPU time of this process per call, when measured in process. */
  cpuMedianMs?: number;
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
  const cpuTimes: number[] = [];
  for (let r = 0; r < runs; r++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < inner; i++) await fn();
    times.push((performance.now() - start) / inner);
    const cpu = process.cpuUsage(cpuStart);
    cpuTimes.push((cpu.user + cpu.system) / 1000 / inner);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  return {
    name,
    medianMs: percentile(times, 0.5),
    p90Ms: percentile(times, 0.9),
    runs,
    cpuMedianMs: percentile(cpuTimes, 0.5),
  };
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
  const a: Sample[] = [];
  const b: Sample[] = [];
  // The order alternates round by round (ABBA): what one side leaves behind (garbage to collect,
  // a cooled cache) then falls on each side alike instead of always on the second.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      a.push(await measure(candidate.name, candidate.fn, per));
      b.push(await measure(baseline.name, baseline.fn, per));
    } else {
      b.push(await measure(baseline.name, baseline.fn, per));
      a.push(await measure(candidate.name, candidate.fn, per));
    }
  }
  const summarise = (name: string, samples: Sample[]): Sample => {
    const sorted = samples.map((s) => s.medianMs).sort((x, y) => x - y);
    const cpu = samples.map((s) => s.cpuMedianMs ?? Number.NaN).sort((x, y) => x - y);
    return {
      name,
      medianMs: percentile(sorted, 0.5),
      p90Ms: percentile(sorted, 0.9),
      runs: samples.length * per.runs,
      cpuMedianMs: percentile(cpu, 0.5),
    };
  };
  return { candidate: summarise(candidate.name, a), baseline: summarise(baseline.name, b) };
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

/** A sample's medians as printed: wall time, and CPU time when it has one. */
function formatSample(sample: Sample): string {
  const cpu = sample.cpuMedianMs;
  return cpu === undefined
    ? `${sample.name} ${formatMs(sample.medianMs)}`
    : `${sample.name} ${formatMs(sample.medianMs)} (CPU ${formatMs(cpu)})`;
}

/**
 * Prints one line: both medians and candidate/baseline (or baseline/candidate for a speedup) by
 * CPU time and by wall time, with the target and whether it was met, judged by the CPU-time
 * ratio when both samples have CPU times (see the header), else by wall time.
 */
export function reportRatio(
  title: string,
  { candidate, baseline }: { candidate: Sample; baseline: Sample },
  target: { kind: 'speedup' | 'slowdown'; value: number },
): { ratio: number; met: boolean } {
  const of = (c: number, b: number) => (target.kind === 'speedup' ? b / c : c / b);
  const wallRatio = of(candidate.medianMs, baseline.medianMs);
  const cpuRatio =
    candidate.cpuMedianMs === undefined || baseline.cpuMedianMs === undefined
      ? undefined
      : of(candidate.cpuMedianMs, baseline.cpuMedianMs);
  const ratio = cpuRatio ?? wallRatio;
  const met = target.kind === 'speedup' ? ratio >= target.value : ratio <= target.value;
  const shown = (r: number) => (target.kind === 'speedup' ? `${r.toFixed(1)}× faster` : `${r.toFixed(2)}×`);
  const goal = `target ${target.kind === 'speedup' ? '≥' : '≤'} ${target.value}×`;
  const wording =
    cpuRatio === undefined
      ? `wall ${shown(wallRatio)} (${goal}, by wall time)`
      : `CPU ${shown(cpuRatio)}, wall ${shown(wallRatio)} (${goal}, by CPU time)`;
  console.log(
    `${met ? 'PASS' : 'MISS'}  ${title}: ${formatSample(candidate)} vs ${formatSample(baseline)} → ${wording}`,
  );
  return { ratio, met };
}

/** Prints a plain figure that has no baseline (e.g. a bundle size or a per-item median). */
export function reportFigure(title: string, value: string): void {
  console.log(`INFO  ${title}: ${value}`);
}
