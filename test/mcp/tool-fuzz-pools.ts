import type { StringPools } from '../support/json-schema-arbitrary.js';

/**
 * Strings the fuzz test draws field values from, by field name: valid values, values just past a
 * limit, and the inputs that once ended in -32603 or took seconds (see the robustness issue).
 */

const HUGE = 'x'.repeat(20_000);

const INSTANTS = [
  '2026-03-08T06:30:00Z',
  '2026-03-08T02:30:00-05:00',
  '2026-11-01T01:30:00-04:00',
  '2026-03-15T14:00:00.123456789+05:45',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '0001-01-01T13:59:59-14:00',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T10:00:00-14:00',
  '9999-12-31T23:00:00+14:00',
  '0000-12-31T23:59:59Z',
  '2026-01-01T00:00:00+99:99',
  '2026-01-01T00:00:00+24:00',
  '2026-01-01T00:00:00+14:01',
  '2026-01-01T00:00:00-14:00',
  '2026-02-30T10:00:00Z',
  '2026-03-01T09:00',
  '2026-03-01',
  'now',
];

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Africa/Monrovia',
  'Etc/GMT+12',
  'america/new_york',
  'Europe/Lodnon',
  '+05:00',
  ' ',
  'America/Argentina/ComodRivadavia',
  'A'.repeat(65),
  HUGE,
];

const LOCAL_DATE_TIMES = [
  '2026-03-01T09:00:00',
  '2026-03-08T02:30',
  '9999-12-31T23:30:00',
  '0001-01-01T00:00:00',
  '2026-02-29T09:00:00',
  '2026-03-01T09:00:00Z',
];

export const FUZZ_POOLS: StringPools = {
  '*': ['', ' ', '\u0000', '😀', '#%#%', 'a'.repeat(65), 'é'.repeat(600), HUGE, '{{x}}', '<script>'],
  timezone: ZONES,
  target_timezone: ZONES,
  time_zone: ZONES,
  start: INSTANTS,
  end: INSTANTS,
  datetime: INSTANTS,
  reference_time: INSTANTS,
  after: INSTANTS,
  before: INSTANTS,
  date_time: INSTANTS,
  date: ['2026-03-01', '9999-12-31', '0001-01-01', '0000-01-01', '2026-02-30'],
  adjustment: ['+1d', '-30m', '+1d2h30m', '-2w3d', '+9999999w', '-99999999999999d', '+0s', '1d', '+'],
  rrule: [
    'FREQ=DAILY',
    'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10',
    'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1',
    'FREQ=SECONDLY',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;UNTIL=99991231T235959Z',
    'FREQ=HOURLY;INTERVAL=999999',
    'RRULE:freq=minutely;byhour=25',
  ],
  dtstart: LOCAL_DATE_TIMES,
  exdates: LOCAL_DATE_TIMES,
  expression: [
    'tomorrow at 2pm',
    'next Tuesday at 2pm',
    'end of month',
    'first Monday of March',
    'in 9999 years',
    '+99999999d',
    '9999-12-31T23:59:59+14:00',
    'yesterday',
  ],
  text: [
    'Lunch with Alice tomorrow at noon at Cafe Rio',
    'Standup every day',
    'Party on December 31 9999 at 11pm for 120 minutes',
    'Trip March 15',
  ],
  working_hours: ['09:00-17:00', '22:00-06:00', '25:00-26:00', '00:00-00:00', '9:00 - 17:00'],
  recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10', 'EXDATE:20260302T090000Z', 'RRULE:FREQ=SECONDLY'],
  attendees: ['bob@example.com', `${'a'.repeat(250)}@example.com`, 'not-an-email'],
  add_attendees: ['carol@example.com', 'x@y'],
  remove_attendees: ['bob@example.com'],
  idempotency_key: ['retry-1', 'k'.repeat(256)],
  page_token: ['eyJ4IjoxfQ', 'not-a-token'],
  if_match: ['"1"', '"999"', '*'],
  color_id: ['1', '11', '12'],
};

/** The pools with ids of the fuzz runtime's own calendar and events added. */
export function poolsWithIds(calendarId: string, eventIds: readonly string[]): StringPools {
  const calendarIds = [calendarId, 'native/missing', 'google/missing', 'caldav/x', 'c'.repeat(1019)];
  return {
    ...FUZZ_POOLS,
    calendar_id: calendarIds,
    calendar_ids: calendarIds,
    event_id: [...eventIds, 'missing', `${eventIds[0]}_20260302T090000Z`, 'e'.repeat(996), '#'.repeat(400)],
  };
}

/** The run's memory: a project with branches, a snapshot and open suggestion sessions. */
export interface FuzzMemoryIds {
  projectId: string;
  branchIds: readonly string[];
  snapshotId: string;
  sessionIds: readonly string[];
  contextIds: readonly string[];
  /** An entry update_memory may replace (entry_id). */
  entryId: string;
}

/**
 * constantFrom draws a pool's values uniformly, and a memory call reaches past its lookups only
 * when project_id and branch_id both name what exists: repeating the real ids makes that common.
 */
const often = (values: readonly string[]) => Array.from({ length: 12 }, () => values).flat();

/** Text with the anchors grounding compares (numbers, versions, paths, dates, quotes, negation). */
const MEMORY_TEXT = [
  'The HTTP timeout is 30 seconds; retryWithBackoff() in src/retry.ts retries 3 times.',
  'The HTTP timeout is 45 seconds.',
  'We do not retry on 404. Version 2.3.1 ships on 2026-03-02 with "strict mode" on.',
  'Fixed the fuzz bug in lambdas/core/memory/search.ts:42 (see #1234).',
  'AWS key AKIAIOSFODNN7EXAMPLE, password=hunter2, postgres://u:p@db:5432/x',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----',
  // Thousands of short sentences: one claim each for grounding, one token run for search.
  'It is 1. '.repeat(1_700),
  'retry '.repeat(2_600),
];

/** The memory pools, with the run's own project, branches, snapshot and suggestion sessions. */
export function memoryPools(ids: FuzzMemoryIds): StringPools {
  const projectIds = [...often([ids.projectId]), 'prj_missing', 'p'.repeat(64), 'p'.repeat(65)];
  const branchIds = [...often(ids.branchIds), 'br_missing', 'b'.repeat(120)];
  const gitBranches = ['main', 'feature/fuzz', 'feature/other', 'a..b', 'g'.repeat(200)];
  return {
    project_id: projectIds,
    branch_id: branchIds,
    parent_branch: branchIds,
    cortex_branch_id: branchIds,
    context_id: [...ids.contextIds, ...ids.branchIds.map((id) => `ctx_${id}`), 'ctx_missing'],
    context_ids: [...often(ids.contextIds), 'ctx_missing'],
    session_id: [...often(ids.sessionIds), 'sug_missing', `sug_${'s'.repeat(60)}`],
    snapshot_id: [
      ...often([ids.snapshotId]),
      'snap_20260301T120000000_00000000',
      'snap_99999999T999999999_ffffffff',
    ],
    entry_id: [...often([ids.entryId]), 'ent_missing', 'e'.repeat(64)],
    git_branch: gitBranches,
    git_branch_name: gitBranches,
    project_path: ['/srv/fuzz', '/srv/other', 'relative/path', '/', `/${'d'.repeat(1023)}`],
    content: MEMORY_TEXT,
    response_text: MEMORY_TEXT,
    current_context: MEMORY_TEXT,
    query: ['HTTP timeout', 'retry', 'src/retry.ts', '"strict mode"', 'fuzz bug', ...MEMORY_TEXT],
    evidence_sources: ['src/retry.ts', 'README.md', ...ids.contextIds],
  };
}
