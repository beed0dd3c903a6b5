import type { RuleEvent } from './rule-events.js';
import { countsOnTimesheet } from './timesheet.js';

/**
 * The one definition of "counts" for rule events, shared by get_timesheet, preview_rule,
 * get_rule_suggestions and explain_classification (issue 22 S5): an event the timesheet leaves
 * out (cancelled, declined by the owner, free; all-day unless asked) is no time a rule classifies.
 */
export function ruleEventCounts(event: RuleEvent, includeAllDay: boolean): boolean {
  return countsOnTimesheet(
    {
      status: event.view.status,
      transparency: event.view.transparency,
      response: event.facts.response,
      allDay: event.view.all_day,
    },
    includeAllDay,
  );
}

/**
 * Why get_timesheet leaves the event out, in words an agent can pass on; undefined when it counts.
 * All-day events are named too: they count only with include_all_day.
 *
 * @example
 * whyNotCounted(cancelledEvent); // 'it is cancelled: get_timesheet and preview_rule leave cancelled events out'
 */
export function whyNotCounted(event: RuleEvent): string | undefined {
  const leftOut = (reason: string) => `${reason}: get_timesheet and preview_rule leave such events out`;
  if (event.view.status === 'cancelled') return leftOut('it is cancelled');
  if (event.facts.response === 'declined') return leftOut("the calendar's owner declined it");
  if (event.view.transparency === 'transparent') return leftOut('it is marked free (transparent)');
  if (event.view.all_day) return 'it is all-day: get_timesheet counts it only with include_all_day';
  return undefined;
}
