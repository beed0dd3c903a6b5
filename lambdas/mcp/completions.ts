import type { CompleteResult } from '@modelcontextprotocol/server';
import { serverZone } from '../core/calendar/calendar-zone.js';
import type { SliceLoader, ToolContext } from './deps.js';
import { isEnabled } from './toolsets.js';

/** The spec caps one completion answer at 100 values. */
export const MAX_COMPLETION_VALUES = 100;

const ZONE_ARGUMENT = /(^|_)time_?zone$/;
const CALENDAR_ARGUMENT = /(^|_)calendar_id$/;
const PROJECT_ARGUMENT = /^project(_id)?$/;
const WEEK_ARGUMENT = /^week$/;

/**
 * The toolsets that read each kind of data a completion lists. A connection that enabled none of
 * them — a sign-in consented `time` only — completes no calendar id or project name, as it may
 * call no tool, prompt or resource that reads them.
 */
const CALENDAR_TOOLSETS = ['calendar', 'availability', 'rules'];
const PROJECT_TOOLSETS = ['rules', 'memory'];

const anyEnabled = (context: ToolContext, toolsets: readonly string[]) =>
  toolsets.some((toolset) => isEnabled(context.toolsets, toolset));

/**
 * Candidates for `typed`, best first: names that start with it, then names with a part (after
 * "/" or "_") that starts with it, then names that contain it — all case-insensitive, so "york"
 * finds America/New_York and "kath" Asia/Kathmandu.
 */
export function rankMatches(candidates: readonly string[], typed: string): string[] {
  const needle = typed.trim().toLowerCase().replace(/\s+/g, '_');
  const rank = (candidate: string): number => {
    // Spaces read as "_" on both sides: "new york" finds New_York, "acme web" finds "Acme website".
    const lower = candidate.toLowerCase().replace(/\s+/g, '_');
    if (lower.startsWith(needle)) return 0;
    if (lower.split(/[/_]/).some((part) => part.startsWith(needle))) return 1;
    return lower.includes(needle) ? 2 : 3;
  };
  return candidates
    .map((candidate) => ({ candidate, rank: rank(candidate) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.candidate.localeCompare(b.candidate))
    .map((entry) => entry.candidate);
}

function completion(values: string[]): CompleteResult['completion'] {
  return {
    values: values.slice(0, MAX_COMPLETION_VALUES),
    total: values.length,
    hasMore: values.length > MAX_COMPLETION_VALUES,
  };
}

/**
 * completion/complete for a prompt or resource argument, chosen by the argument's name so that
 * every prompt and resource template gets the same help: time zones for `timezone`, `time_zone`
 * and `*_timezone`; for `calendar_id` and `*_calendar_id`, the calendars this caller may read;
 * for `project`, the names of the active projects this caller may read (`project_id`: their
 * ids); for `week`, ISO weeks (`2026-W48`), most recent first. Other arguments get no
 * suggestions (an empty list, not an error).
 *
 * @example
 * await completeArgument(loadDeps, context, { name: 'timezone', value: 'kath' });
 * // { values: ['Asia/Kathmandu'], total: 1, hasMore: false }
 */
export async function completeArgument(
  loadDeps: SliceLoader,
  context: ToolContext,
  argument: { name: string; value: string },
): Promise<CompleteResult['completion']> {
  if (ZONE_ARGUMENT.test(argument.name)) {
    // Imported on use: the zone list pulls in luxon, which a Lambda cold start leaves out.
    const { zoneNames } = await import('../core/time/zones.js');
    return completion(rankMatches(zoneNames(), argument.value));
  }
  if (CALENDAR_ARGUMENT.test(argument.name)) {
    if (!anyEnabled(context, CALENDAR_TOOLSETS)) return completion([]);
    const calendars = await (await loadDeps('calendar')).calendars.listCalendars(context.principal);
    return completion(
      rankMatches(
        calendars.map((calendar) => calendar.id),
        argument.value,
      ),
    );
  }
  if (PROJECT_ARGUMENT.test(argument.name)) {
    if (!anyEnabled(context, PROJECT_TOOLSETS)) return completion([]);
    const active = await (await loadDeps('rules')).rules.listProjects(context.principal);
    const field = argument.name === 'project' ? 'name' : 'project_id';
    return completion(
      rankMatches(
        active.map((project) => project[field]),
        argument.value,
      ),
    );
  }
  if (WEEK_ARGUMENT.test(argument.name)) {
    // The calendars' default zone, without building the calendars.
    const { clock, defaultTimezone } = await loadDeps('time');
    const { weekCandidates } = await import('../core/rules/iso-week.js');
    return completion(weekCandidates(clock.now(), serverZone(defaultTimezone), argument.value));
  }
  return completion([]);
}
