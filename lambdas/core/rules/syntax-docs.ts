import { PROPERTY_ALIASES, RULE_PROPERTIES } from './rule-properties.js';

function valuesOf(property: (typeof RULE_PROPERTIES)[number]): string {
  if (property.type === 'time') return '`HH:MM` after `>`, `>=`, `<`, `<=` or `=` (default)';
  if (property.values) return property.values.map((v) => `\`${v}\``).join(', ');
  return property.type === 'address' ? 'exact, case-insensitive' : 'contains, case-insensitive';
}

/**
 * The rules syntax reference served as `timesheet://docs/rules-syntax`, generated from the same
 * property table the parser validates against, so the two cannot disagree.
 */
export function rulesSyntaxMarkdown(): string {
  const rows = RULE_PROPERTIES.map(
    (p) => `| \`${p.name}\` | ${valuesOf(p)} | ${p.description} | \`${p.example}\` |`,
  );
  const aliases = Object.entries(PROPERTY_ALIASES)
    .map(([alias, property]) => `\`${alias}\` → \`${property}\``)
    .join(', ');
  return [
    '# Classification rules syntax',
    '',
    'A rule is a Gmail-style query over calendar events. Example: `domain:acme.com -title:canceled`.',
    '',
    '## Properties',
    '',
    '| property | values | matches | example |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '## Combining conditions',
    '',
    '- Conditions side by side must all hold (AND); the keyword `AND` may be written too.',
    '- `OR` (upper case) between conditions: either holds. **`OR` binds tighter than AND**, as in Gmail:',
    '  `title:a OR title:b domain:x.com` means `(title:a OR title:b) domain:x.com`.',
    '- Parentheses group: `(domain:a.com OR domain:b.com) title:sync`. A property before a group is the',
    '  property of every value in it, as in Gmail: `-title:(canceled OR cancelled)`.',
    '- `-` or `NOT` negates the condition or group right after it, and binds tightest: `-title:canceled`.',
    '- A bare word or a quoted phrase means `text:` (title, description or an attendee).',
    '- Quote values with spaces or parentheses: `title:"team meeting"`; inside quotes write `\\"` for a quote',
    '  and `\\\\` for a backslash. Values may contain `:`, `@`, `.` and `-` unquoted: `time-of-day:>17:00`.',
    '',
    '## Semantics',
    '',
    "- `response` is the calendar owner's own RSVP (accepted, declined, …); an event the owner was not invited to",
    "  is their own (`accepted`). `status` is the event's status as its organizer set it (`confirmed`, `tentative`,",
    '  `cancelled`): `-status:cancelled` keeps cancelled events out of a rule. Cancelled events, events the owner',
    '  declined and free (transparent) ones never count in get_timesheet or preview_rule, whatever the rule says.',
    "- `day-of-week` and `time-of-day` read the event's local start in the event's own zone; `time-of-day`",
    '  compares the start time; an all-day event has no time of day, so a `time-of-day` condition never matches it.',
    '- `recurring:yes` holds for occurrences of a series. `has-attendees` counts people other than the owner.',
    '- `domain:acme.com` matches `bob@acme.com`, not `bob@eu.acme.com`.',
    '',
    '## Errors',
    '',
    '- `INVALID_QUERY`: a syntax error, with `position` and a caret line under the spot.',
    '- `INVALID_PROPERTY`: an unknown property, with a `suggestion` and `valid_properties`. Words agents often use are understood as hints: ' +
      `${aliases}.`,
    '- `INVALID_VALUE`: a value the property does not take, with `allowed_values`.',
    '',
  ].join('\n');
}
