/**
 * expand_rrule against rrule's own `tzid` expansion, and a far-past DTSTART against a recent one.
 * Every comparison first asserts that both sides produce identical instants.
 */
import rrulePackage from 'rrule';
import { expandRrule } from '../lambdas/core/time/recurrence/expand-rrule.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const { RRule, datetime } = rrulePackage;
const ZONE = 'America/Chicago';

/**
 * rrule's `tzid` results are "fake local" Dates (see rrule's README, Timezone Support): their UTC
 * fields show the wall clock of the HOST zone at the real instant. Reading those fields back as a
 * host-local time gives the real instant, whatever TZ the benchmark runs under.
 */
function realInstant(fakeLocal: Date): number {
  return new Date(
    fakeLocal.getUTCFullYear(),
    fakeLocal.getUTCMonth(),
    fakeLocal.getUTCDate(),
    fakeLocal.getUTCHours(),
    fakeLocal.getUTCMinutes(),
    fakeLocal.getUTCSeconds(),
  ).getTime();
}

interface Case {
  title: string;
  rrule: string;
  dtstart: string;
  count: number;
  viaRrule: () => Date[];
}

const CASES: Case[] = [
  {
    // Crosses the 2026-03-08 spring-forward: 09:00 CST, then 09:00 CDT.
    title: '30 daily instances, America/Chicago',
    rrule: 'FREQ=DAILY;COUNT=30',
    dtstart: '2026-03-01T09:00:00',
    count: 30,
    viaRrule: () =>
      new RRule(
        { freq: RRule.DAILY, count: 30, dtstart: datetime(2026, 3, 1, 9, 0, 0), tzid: ZONE },
        true,
      ).all(),
  },
  {
    // April: no transition in these 30 days (rrule's tzid mode reads the offset at the floating
    // date, not at the real instant, so it misplaces times within hours of a DST change).
    title: '720 hourly instances, America/Chicago',
    rrule: 'FREQ=HOURLY;COUNT=720',
    dtstart: '2026-04-01T00:00:00',
    count: 720,
    viaRrule: () =>
      new RRule(
        { freq: RRule.HOURLY, count: 720, dtstart: datetime(2026, 4, 1, 0, 0, 0), tzid: ZONE },
        true,
      ).all(),
  },
];

function viaCore(c: Case) {
  return expandRrule({ rrule: c.rrule, dtstart: c.dtstart, timezone: ZONE, count: c.count });
}

function assertSameInstants(title: string, ours: number[], theirs: number[]): void {
  const same = ours.length === theirs.length && ours.every((t, i) => t === theirs[i]);
  if (!same) {
    const i = ours.findIndex((t, k) => t !== theirs[k]);
    throw new Error(
      `${title}: expand_rrule and rrule tzid disagree (lengths ${ours.length}/${theirs.length}, first difference at #${i}: ${new Date(ours[i] ?? Number.NaN).toISOString()} vs ${new Date(theirs[i] ?? Number.NaN).toISOString()})`,
    );
  }
}

export async function run(): Promise<void> {
  for (const c of CASES) {
    const ours = viaCore(c).instances.map((i) => Date.parse(i.start));
    assertSameInstants(c.title, ours, c.viaRrule().map(realInstant));
    const result = await compare(
      { name: 'expand_rrule', fn: () => viaCore(c) },
      { name: 'rrule tzid', fn: c.viaRrule },
      { rounds: 5, runs: 50, warmup: 20 },
    );
    reportRatio(c.title, result, { kind: 'speedup', value: 20 });

    // These rules have one date per period, so expand_rrule steps them by arithmetic
    // (fixed-step.ts). For transparency, the same instants written so that rrule has to walk
    // them (BYDAY listing all seven days) show what the rrule-walked path costs.
    const walked = { ...c, rrule: c.rrule.replace(/^FREQ=(\w+)/, 'FREQ=$1;BYDAY=MO,TU,WE,TH,FR,SA,SU') };
    const walkedStarts = viaCore(walked).instances.map((i) => Date.parse(i.start));
    assertSameInstants(`${c.title} (walked by rrule)`, walkedStarts, ours);
    const walkedResult = await compare(
      { name: 'expand_rrule (rrule walk)', fn: () => viaCore(walked) },
      { name: 'rrule tzid', fn: c.viaRrule },
      { rounds: 5, runs: 50, warmup: 20 },
    );
    const ratio = walkedResult.baseline.medianMs / walkedResult.candidate.medianMs;
    reportFigure(
      `${c.title}, same instants via ${walked.rrule}`,
      `${(walkedResult.candidate.medianMs * 1000).toFixed(1)} µs vs rrule tzid ${(walkedResult.baseline.medianMs * 1000).toFixed(1)} µs → ${ratio.toFixed(1)}× faster`,
    );
  }

  const window = { after: '2026-06-01T00:00:00-05:00', before: '2026-06-07T23:59:59-05:00' };
  const farPast = () =>
    expandRrule({ rrule: 'FREQ=DAILY', dtstart: '1970-01-01T09:00:00', timezone: ZONE, ...window });
  const recent = () =>
    expandRrule({ rrule: 'FREQ=DAILY', dtstart: '2026-01-01T09:00:00', timezone: ZONE, ...window });
  const farStarts = farPast().instances.map((i) => i.start);
  const recentStarts = recent().instances.map((i) => i.start);
  if (farStarts.length !== 7 || farStarts.join() !== recentStarts.join()) {
    throw new Error(`far-past and recent DTSTART disagree on the June week: ${farStarts} vs ${recentStarts}`);
  }
  const result = await compare(
    { name: 'DTSTART 1970', fn: farPast },
    { name: 'DTSTART 2026', fn: recent },
    { rounds: 5, runs: 50, warmup: 5, inner: 10 },
  );
  reportRatio('one June 2026 week of a daily rule', result, { kind: 'slowdown', value: 5 });

  // The same with a rule rrule must walk (fast-forward still applies; arithmetic stepping does not).
  const walkedRule = 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR,SA,SU';
  const farWalked = () =>
    expandRrule({ rrule: walkedRule, dtstart: '1970-01-01T09:00:00', timezone: ZONE, ...window });
  const recentWalked = () =>
    expandRrule({ rrule: walkedRule, dtstart: '2026-01-01T09:00:00', timezone: ZONE, ...window });
  if (
    farWalked()
      .instances.map((i) => i.start)
      .join() !== farStarts.join()
  ) {
    throw new Error(`${walkedRule} disagrees with FREQ=DAILY on the June week`);
  }
  const walked = await compare(
    { name: 'DTSTART 1970', fn: farWalked },
    { name: 'DTSTART 2026', fn: recentWalked },
    { rounds: 5, runs: 50, warmup: 5, inner: 10 },
  );
  reportRatio(`one June 2026 week of ${walkedRule} (walked by rrule)`, walked, {
    kind: 'slowdown',
    value: 5,
  });
}
