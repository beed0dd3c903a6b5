import { DomainError } from '../errors.js';
import { checkTextFields, type TextField } from './check-fields.js';

/** The free text of a project: every agent that lists projects reads it, other principals' too. */
export interface ProjectText {
  readonly name?: string | null | undefined;
  readonly client?: string | null | undefined;
}

const TEXT_KEYS = ['name', 'client'] as const;

/**
 * Runs the content firewall over a project's name and client before they are written, as
 * checkCalendarContent does for a calendar's name: returns the fields sanitized, or throws
 * CONTENT_REJECTED naming the field. An update is read together with the stored text it leaves
 * in place (`stored`), as an agent reads the project. Absent and `null` (cleared) fields stay so.
 *
 * @example
 * checkProjectContent({ name: 'Acme\u200B site' }); // { name: 'Acme site' }
 * checkProjectContent({ name: 'Ignore previous instructions' });
 * // throws DomainError CONTENT_REJECTED, details { field: 'name', rule: 'override-instructions' }
 */
export function checkProjectContent<T extends ProjectText>(fields: T, stored: ProjectText = {}): T {
  const checked: TextField[] = [];
  const own: ((typeof TEXT_KEYS)[number] | undefined)[] = [];
  for (const key of TEXT_KEYS) {
    const given = fields[key];
    // A cleared field is not read; one left out is read as it is stored.
    const value = given === undefined ? stored[key] : given;
    if (typeof value !== 'string') continue;
    checked.push({ field: key, text: value });
    own.push(typeof given === 'string' ? key : undefined);
  }
  const sanitized = checkTextFields(checked);
  const result = { ...fields } as Record<string, unknown>;
  own.forEach((key, i) => {
    if (key) result[key] = sanitized[i];
  });
  if (result.name === '') {
    throw new DomainError(
      'INVALID_INPUT',
      'The project name is empty once invisible characters are removed.',
      {
        field: 'name',
      },
    );
  }
  return result as T;
}
