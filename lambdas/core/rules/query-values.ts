import { closest, distance } from 'fastest-levenshtein';
import { DomainError } from '../errors.js';
import type { Condition, TimeOperator } from './query-ast.js';
import { PROPERTY_ALIASES, PROPERTY_NAMES, type RuleProperty, ruleProperty } from './rule-properties.js';
import type { TermToken } from './scan-query.js';

const TIME = /^(>=|<=|>|<|=)?(\d{1,2}):(\d{2})$/;
const DOMAIN = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const EMAIL = /^[^\s@]+@[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;

/**
 * Turns a scanned term into a condition with its value checked and in canonical form: a bare word
 * is `text:`, property names are case-insensitive, enum values take their canonical spelling.
 */
export function toCondition(term: TermToken): Condition {
  const name = (term.property ?? 'text').toLowerCase();
  const property = ruleProperty(name);
  if (!property) throw unknownProperty(term.property!, term.position);
  const value = term.value;
  if (value.trim() === '')
    throw invalidValue(property, value, term.valuePosition, `A ${name}: value cannot be empty.`);
  switch (property.type) {
    case 'text':
      return { kind: 'condition', property: name, value } as Condition;
    case 'address':
      return addressCondition(property, value, term.valuePosition);
    case 'time':
      return timeCondition(property, value, term.valuePosition);
    default:
      return {
        kind: 'condition',
        property: name,
        value: enumValue(property, value, term.valuePosition),
      } as Condition;
  }
}

function addressCondition(property: RuleProperty, raw: string, position: number): Condition {
  const value = raw.toLowerCase();
  if (property.name === 'domain') {
    const domain = value.startsWith('@') ? value.slice(1) : value;
    if (!DOMAIN.test(domain))
      throw invalidValue(property, raw, position, `'${raw}' is not a domain. Example: ${property.example}`);
    return { kind: 'condition', property: 'domain', value: domain };
  }
  if (!EMAIL.test(value))
    throw invalidValue(
      property,
      raw,
      position,
      `'${raw}' is not an email address. Example: ${property.example}`,
    );
  return { kind: 'condition', property: 'email', value };
}

function timeCondition(property: RuleProperty, raw: string, position: number): Condition {
  const match = TIME.exec(raw);
  const hours = Number(match?.[2]);
  const minutes = Number(match?.[3]);
  if (!match || hours > 23 || minutes > 59) {
    throw invalidValue(
      property,
      raw,
      position,
      `'${raw}' is not a time of day: use HH:MM (00:00–23:59) after >, >=, <, <= or = (the default), e.g. time-of-day:>17:00.`,
    );
  }
  const value = `${String(hours).padStart(2, '0')}:${match[3]}`;
  const operator = (match[1] ?? '=') as TimeOperator;
  return { kind: 'condition', property: 'time-of-day', operator, minutes: hours * 60 + minutes, value };
}

function enumValue(property: RuleProperty, raw: string, position: number): string {
  const lower = raw.toLowerCase();
  const canonical =
    property.values!.find((value) => value.toLowerCase() === lower) ?? property.valueAliases?.[lower];
  if (canonical) return canonical;
  const allowed = property.values!;
  throw invalidValue(
    property,
    raw,
    position,
    `'${raw}' is not a value of ${property.name}: use ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, e.g. ${property.example}.`,
    allowed,
  );
}

function invalidValue(
  property: RuleProperty,
  value: string,
  position: number,
  message: string,
  allowed?: readonly string[],
): DomainError {
  return new DomainError('INVALID_VALUE', message, {
    property: property.name,
    value,
    position,
    ...(allowed ? { allowed_values: [...allowed] } : {}),
    example: property.example,
  });
}

/** INVALID_PROPERTY with the property an agent most likely meant: an alias first, then edit distance. */
function unknownProperty(written: string, position: number): DomainError {
  const lower = written.toLowerCase();
  const near = closest(lower, PROPERTY_NAMES as string[]);
  const suggestion = PROPERTY_ALIASES[lower] ?? (distance(lower, near) <= 2 ? near : undefined);
  const hint = suggestion
    ? ` Did you mean '${suggestion}'?`
    : ` Valid properties: ${PROPERTY_NAMES.join(', ')}.`;
  return new DomainError('INVALID_PROPERTY', `Unknown property '${written}'.${hint}`, {
    property: written,
    position,
    ...(suggestion ? { suggestion } : {}),
    valid_properties: [...PROPERTY_NAMES],
  });
}
