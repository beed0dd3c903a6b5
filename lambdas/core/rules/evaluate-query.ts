import type { ClassifiableEvent } from './classifiable-event.js';
import type { Condition, QueryNode, TimeOperator } from './query-ast.js';

const contains = (haystack: string, needle: string) => haystack.includes(needle.toLowerCase());

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

function compareTime(minutes: number, operator: TimeOperator, target: number): boolean {
  switch (operator) {
    case '>':
      return minutes > target;
    case '>=':
      return minutes >= target;
    case '<':
      return minutes < target;
    case '<=':
      return minutes <= target;
    case '=':
      return minutes === target;
  }
}

/**
 * Whether one condition holds for an event. Text properties match case-insensitively as
 * *contains*; `domain` and `email` match the address exactly; an all-day event has no time of day.
 */
export function conditionHolds(condition: Condition, event: ClassifiableEvent): boolean {
  switch (condition.property) {
    case 'title':
      return contains(event.title, condition.value);
    case 'description':
      return contains(event.description, condition.value);
    case 'attendees':
      return event.attendees.some(
        (a) => contains(a.email, condition.value) || contains(a.name ?? '', condition.value),
      );
    case 'calendar':
      return contains(event.calendarName, condition.value);
    case 'text':
      return (
        contains(event.title, condition.value) ||
        contains(event.description, condition.value) ||
        event.attendees.some(
          (a) => contains(a.email, condition.value) || contains(a.name ?? '', condition.value),
        )
      );
    case 'domain':
      return event.attendees.some((a) => domainOf(a.email) === condition.value);
    case 'email':
      return event.attendees.some((a) => a.email === condition.value);
    case 'response':
      return event.response === condition.value;
    case 'status':
      return event.status === condition.value;
    case 'transparency':
      return event.transparency === condition.value;
    case 'recurring':
      return event.recurring === (condition.value === 'yes');
    case 'is-all-day':
      return event.allDay === (condition.value === 'yes');
    case 'has-attendees':
      return event.attendees.length > 0 === (condition.value === 'yes');
    case 'day-of-week':
      return event.weekday === condition.value;
    case 'time-of-day':
      return (
        event.startMinutes !== undefined &&
        compareTime(event.startMinutes, condition.operator, condition.minutes)
      );
  }
}

/**
 * Whether a query matches an event.
 *
 * @example
 * matchesQuery(parseQuery('domain:acme.com -title:canceled'), event);
 */
export function matchesQuery(node: QueryNode, event: ClassifiableEvent): boolean {
  switch (node.kind) {
    case 'condition':
      return conditionHolds(node, event);
    case 'not':
      return !matchesQuery(node.item, event);
    case 'and':
      return node.items.every((item) => matchesQuery(item, event));
    case 'or':
      return node.items.some((item) => matchesQuery(item, event));
  }
}
