import * as z from 'zod';

/**
 * Microsoft Graph's recurrence resources (patternedRecurrence, recurrencePattern,
 * recurrenceRange) as zod schemas, read leniently: Graph writes day names in any letter case
 * ("Thursday" in its own examples) and sends every field whatever the pattern type.
 */

const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Graph's day names, Sunday first as Graph orders them. */
export const GRAPH_WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export const GraphWeekday = z.preprocess(lowerCase, z.enum(GRAPH_WEEKDAYS));
export type GraphWeekday = z.infer<typeof GraphWeekday>;

export const GRAPH_WEEK_INDEXES = ['first', 'second', 'third', 'fourth', 'last'] as const;
export const GraphWeekIndex = z.preprocess(lowerCase, z.enum(GRAPH_WEEK_INDEXES));
export type GraphWeekIndex = z.infer<typeof GraphWeekIndex>;

/**
 * Graph's recurrencePattern. Graph sends every field whatever the type (unused ones as 0,
 * "first", "sunday" or []); only the fields of the type are read.
 */
export const GraphRecurrencePattern = z.object({
  type: z.enum(['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly']),
  interval: z.number().int().min(1),
  daysOfWeek: z.array(GraphWeekday).nullish(),
  dayOfMonth: z.number().int().min(0).max(31).nullish(),
  month: z.number().int().min(0).max(12).nullish(),
  index: GraphWeekIndex.nullish(),
  firstDayOfWeek: GraphWeekday.nullish(),
});
export type GraphRecurrencePattern = z.infer<typeof GraphRecurrencePattern>;

const graphDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

/**
 * Graph's recurrenceRange. Dates are local dates of `recurrenceTimeZone` (a Windows or IANA
 * name; absent means the event's start zone). Graph sends `endDate: "0001-01-01"` and
 * `numberOfOccurrences: 0` for the types that do not use them.
 */
export const GraphRecurrenceRange = z.object({
  type: z.enum(['endDate', 'noEnd', 'numbered']),
  startDate: graphDate,
  endDate: graphDate.nullish(),
  numberOfOccurrences: z.number().int().min(0).nullish(),
  recurrenceTimeZone: z.string().nullish(),
});
export type GraphRecurrenceRange = z.infer<typeof GraphRecurrenceRange>;

export const GraphPatternedRecurrence = z.object({
  pattern: GraphRecurrencePattern,
  range: GraphRecurrenceRange,
});
export type GraphPatternedRecurrence = z.infer<typeof GraphPatternedRecurrence>;
