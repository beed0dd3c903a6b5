import { DateTime } from '../time/luxon.js';

/** One counted event on the timesheet: already classified, already filtered (see countsOnTimesheet). */
export interface TimesheetEntry {
  readonly event_id: string;
  readonly calendar_id: string;
  readonly summary: string;
  /** null: unclassified. */
  readonly project_id: string | null;
  readonly startMs: number;
  readonly endMs: number;
}

/** How a project rounds its time: each event's minutes, to a multiple of `minutes`. */
export interface Rounding {
  readonly minutes: number;
  readonly mode: 'up' | 'nearest';
}

export type GroupBy = 'project' | 'day' | 'week' | 'calendar';

export interface TimesheetGroup {
  readonly key: string;
  readonly raw_minutes: number;
  readonly rounded_minutes: number;
  readonly billable_minutes: number;
  readonly events: number;
}

/** A piece of an entry's time that the overlap policy gave to it. */
interface Segment {
  readonly entry: TimesheetEntry;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Whether an event counts at all: declined (by the calendar owner), cancelled and transparent
 * (free) events never do; all-day events only when asked for.
 */
export function countsOnTimesheet(
  event: { status: string; transparency: string; response: string; allDay: boolean },
  includeAllDay: boolean,
): boolean {
  if (event.status === 'cancelled' || event.transparency === 'transparent' || event.response === 'declined')
    return false;
  return includeAllDay || !event.allDay;
}

/** Which of two overlapping entries owns the shared time: the later start, then the shorter, then the id. */
function outranks(a: TimesheetEntry, b: TimesheetEntry): boolean {
  if (a.startMs !== b.startMs) return a.startMs > b.startMs;
  const length = a.endMs - a.startMs - (b.endMs - b.startMs);
  if (length !== 0) return length < 0;
  return a.event_id < b.event_id;
}

/**
 * The overlap policy: no minute counts twice. Where events overlap, the time goes to the event
 * that started last (the meeting that interrupted the other), then the shorter one, then the
 * lower event id. So the total is the length of the union of the counted events.
 */
export function attributeTime(entries: readonly TimesheetEntry[]): Segment[] {
  const bounds = [...new Set(entries.flatMap((e) => [e.startMs, e.endMs]))].sort((a, b) => a - b);
  const sorted = [...entries].sort((a, b) => a.startMs - b.startMs);
  const segments: Segment[] = [];
  let active: TimesheetEntry[] = [];
  let next = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i]!;
    const to = bounds[i + 1]!;
    while (next < sorted.length && sorted[next]!.startMs <= from) active.push(sorted[next++]!);
    active = active.filter((e) => e.endMs > from);
    if (active.length === 0) continue;
    let owner = active[0]!;
    for (const candidate of active) if (outranks(candidate, owner)) owner = candidate;
    const last = segments.at(-1);
    if (last && last.entry === owner && last.endMs === from)
      segments[segments.length - 1] = { ...last, endMs: to };
    else segments.push({ entry: owner, startMs: from, endMs: to });
  }
  return segments;
}

/** Splits a segment at local midnights in `zone`, so a day's total is that calendar day's time (23 or 25 hours on DST days). */
function splitByDay(segment: Segment, zone: string): { day: DateTime; segment: Segment }[] {
  const pieces: { day: DateTime; segment: Segment }[] = [];
  let from = segment.startMs;
  while (from < segment.endMs) {
    const day = DateTime.fromMillis(from, { zone }).startOf('day');
    const to = Math.min(segment.endMs, day.plus({ days: 1 }).toMillis());
    pieces.push({ day, segment: { ...segment, startMs: from, endMs: to } });
    from = to;
  }
  return pieces;
}

export function roundMinutes(minutes: number, rounding: Rounding | undefined): number {
  if (!rounding || rounding.minutes <= 1 || minutes === 0) return minutes;
  const units = minutes / rounding.minutes;
  return (rounding.mode === 'up' ? Math.ceil(units - 1e-9) : Math.round(units)) * rounding.minutes;
}

const toMinutes = (ms: number) => Math.round(ms / 600) / 100;

/**
 * Totals per group. Raw minutes are the attributed time; rounded minutes round each event's part
 * of a group by its project's rounding, then add up (as a time-tracking invoice does per entry);
 * billable minutes are the rounded minutes of billable projects.
 */
export function summarise(
  entries: readonly TimesheetEntry[],
  options: {
    groupBy: GroupBy;
    zone: string;
    projects: ReadonlyMap<string, { rounding?: Rounding; billable: boolean }>;
  },
): TimesheetGroup[] {
  const perGroup = new Map<string, Map<TimesheetEntry, number>>();
  const add = (key: string, segment: Segment) => {
    const byEntry = perGroup.get(key) ?? new Map<TimesheetEntry, number>();
    byEntry.set(segment.entry, (byEntry.get(segment.entry) ?? 0) + (segment.endMs - segment.startMs));
    perGroup.set(key, byEntry);
  };
  for (const segment of attributeTime(entries)) {
    if (options.groupBy === 'project') add(segment.entry.project_id ?? 'unclassified', segment);
    else if (options.groupBy === 'calendar') add(segment.entry.calendar_id, segment);
    else {
      for (const piece of splitByDay(segment, options.zone)) {
        const key = options.groupBy === 'day' ? piece.day.toISODate()! : piece.day.toFormat("kkkk-'W'WW");
        add(key, piece.segment);
      }
    }
  }
  return [...perGroup.entries()]
    .map(([key, byEntry]) => {
      let raw = 0;
      let rounded = 0;
      let billable = 0;
      for (const [entry, ms] of byEntry) {
        const project = entry.project_id ? options.projects.get(entry.project_id) : undefined;
        const minutes = toMinutes(ms);
        const entryRounded = roundMinutes(minutes, project?.rounding);
        raw += ms;
        rounded += entryRounded;
        if (project?.billable) billable += entryRounded;
      }
      return {
        key,
        raw_minutes: toMinutes(raw),
        rounded_minutes: Math.round(rounded * 100) / 100,
        billable_minutes: Math.round(billable * 100) / 100,
        events: byEntry.size,
      };
    })
    .sort((a, b) =>
      options.groupBy === 'project' ? b.raw_minutes - a.raw_minutes : a.key.localeCompare(b.key),
    );
}
