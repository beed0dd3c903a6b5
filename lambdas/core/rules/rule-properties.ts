/**
 * The properties a rule query may name: the one table the parser validates against, the evaluator
 * dispatches on and the `timesheet://docs/rules-syntax` resource is generated from, so the docs
 * cannot drift from the code.
 */

export type PropertyType = 'text' | 'address' | 'enum' | 'boolean' | 'time';

export interface RuleProperty {
  readonly name: string;
  readonly type: PropertyType;
  /** One line for the syntax reference. */
  readonly description: string;
  /** The canonical values of an enum or boolean property, in the order the docs list them. */
  readonly values?: readonly string[];
  /** Other spellings accepted for a value, mapped to the canonical one. */
  readonly valueAliases?: Readonly<Record<string, string>>;
  /** An example condition for the docs and for error messages. */
  readonly example: string;
}

const YES_NO = ['yes', 'no'] as const;
const YES_NO_ALIASES = { true: 'yes', false: 'no', y: 'yes', n: 'no' };

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const RULE_PROPERTIES: readonly RuleProperty[] = [
  { name: 'title', type: 'text', description: 'Event title contains the value.', example: 'title:standup' },
  {
    name: 'description',
    type: 'text',
    description: 'Event description contains the value.',
    example: 'description:invoice',
  },
  {
    name: 'attendees',
    type: 'text',
    description: "An attendee's name or email contains the value.",
    example: 'attendees:sarah',
  },
  {
    name: 'domain',
    type: 'address',
    description: "An attendee's email domain is exactly the value (acme.com does not match eu.acme.com).",
    example: 'domain:acme.com',
  },
  {
    name: 'email',
    type: 'address',
    description: "An attendee's email is exactly the value.",
    example: 'email:bob@example.com',
  },
  {
    name: 'response',
    type: 'enum',
    description: "The calendar owner's own RSVP to the invitation (not the event's status: that is status:).",
    values: ['accepted', 'declined', 'tentative', 'needsAction'],
    valueAliases: { needsaction: 'needsAction', 'needs-action': 'needsAction', maybe: 'tentative' },
    example: 'response:declined',
  },
  {
    name: 'status',
    type: 'enum',
    description:
      "The event's status as its organizer set it. get_timesheet and preview_rule never count cancelled events.",
    values: ['confirmed', 'tentative', 'cancelled'],
    valueAliases: { canceled: 'cancelled' },
    example: 'status:tentative',
  },
  {
    name: 'recurring',
    type: 'boolean',
    description: 'The event is an occurrence of a recurring series.',
    values: YES_NO,
    valueAliases: YES_NO_ALIASES,
    example: 'recurring:yes',
  },
  {
    name: 'transparency',
    type: 'enum',
    description: 'opaque (shows as busy) or transparent (shows as free).',
    values: ['opaque', 'transparent'],
    valueAliases: { busy: 'opaque', free: 'transparent' },
    example: 'transparency:transparent',
  },
  {
    name: 'is-all-day',
    type: 'boolean',
    description: 'The event is an all-day event.',
    values: YES_NO,
    valueAliases: YES_NO_ALIASES,
    example: 'is-all-day:no',
  },
  {
    name: 'has-attendees',
    type: 'boolean',
    description: 'The event has attendees besides the calendar owner.',
    values: YES_NO,
    valueAliases: YES_NO_ALIASES,
    example: 'has-attendees:yes',
  },
  {
    name: 'day-of-week',
    type: 'enum',
    description: "Weekday of the event's local start, in the event's own zone.",
    values: WEEKDAYS,
    valueAliases: {
      monday: 'mon',
      tuesday: 'tue',
      tues: 'tue',
      wednesday: 'wed',
      thursday: 'thu',
      thur: 'thu',
      thurs: 'thu',
      friday: 'fri',
      saturday: 'sat',
      sunday: 'sun',
    },
    example: 'day-of-week:fri',
  },
  {
    name: 'time-of-day',
    type: 'time',
    description:
      "Local start time in the event's own zone, compared with >, >=, <, <= or = (the default). All-day events never match.",
    example: 'time-of-day:>17:00',
  },
  {
    name: 'calendar',
    type: 'text',
    description: 'Calendar name contains the value.',
    example: 'calendar:work',
  },
  {
    name: 'text',
    type: 'text',
    description: 'Title, description or an attendee contains the value. A bare word means text:.',
    example: 'text:retro',
  },
];

const BY_NAME = new Map(RULE_PROPERTIES.map((property) => [property.name, property]));

/** The property with this (lower-case) name, if there is one. */
export function ruleProperty(name: string): RuleProperty | undefined {
  return BY_NAME.get(name);
}

export const PROPERTY_NAMES: readonly string[] = RULE_PROPERTIES.map((property) => property.name);

/**
 * Words agents reach for that are not properties, mapped to the property they mean. Edit distance
 * alone finds "titel" but not "subject" or "org".
 */
export const PROPERTY_ALIASES: Readonly<Record<string, string>> = {
  subject: 'title',
  name: 'title',
  summary: 'title',
  body: 'description',
  notes: 'description',
  details: 'description',
  from: 'email',
  organizer: 'email',
  to: 'attendees',
  with: 'attendees',
  attendee: 'attendees',
  guest: 'attendees',
  guests: 'attendees',
  participant: 'attendees',
  participants: 'attendees',
  people: 'attendees',
  org: 'domain',
  company: 'domain',
  organization: 'domain',
  client: 'domain',
  weekday: 'day-of-week',
  day: 'day-of-week',
  dow: 'day-of-week',
  hour: 'time-of-day',
  time: 'time-of-day',
  start: 'time-of-day',
  busy: 'transparency',
  free: 'transparency',
  show: 'transparency',
  allday: 'is-all-day',
  'all-day': 'is-all-day',
  rsvp: 'response',
  state: 'status',
  repeat: 'recurring',
  recurrence: 'recurring',
  series: 'recurring',
  cal: 'calendar',
  any: 'text',
  keyword: 'text',
};
