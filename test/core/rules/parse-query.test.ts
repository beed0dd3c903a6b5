import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/core/errors.js';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { printQuery } from '../../../lambdas/core/rules/print-query.js';
import { RULE_PROPERTIES } from '../../../lambdas/core/rules/rule-properties.js';

const c = (property: string, value: string) => ({ kind: 'condition', property, value });

function failure(query: string): DomainError {
  try {
    parseQuery(query);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`expected ${query} to be refused`);
}

describe('parseQuery', () => {
  describe('properties', () => {
    it.each([
      ['title:standup', c('title', 'standup')],
      ['description:invoice', c('description', 'invoice')],
      ['attendees:sarah', c('attendees', 'sarah')],
      ['domain:acme.com', c('domain', 'acme.com')],
      ['email:bob@example.com', c('email', 'bob@example.com')],
      ['response:declined', c('response', 'declined')],
      ['recurring:yes', c('recurring', 'yes')],
      ['transparency:transparent', c('transparency', 'transparent')],
      ['is-all-day:no', c('is-all-day', 'no')],
      ['has-attendees:yes', c('has-attendees', 'yes')],
      ['day-of-week:sat', c('day-of-week', 'sat')],
      ['calendar:work', c('calendar', 'work')],
      ['text:retro', c('text', 'retro')],
    ])('reads %s', (query, expected) => {
      expect(parseQuery(query)).toEqual(expected);
    });

    it('covers every property of the table', () => {
      const tested = new Set(
        RULE_PROPERTIES.map((p) => parseQuery(p.example)).map((n) => (n as { property: string }).property),
      );
      expect([...tested].sort()).toEqual(RULE_PROPERTIES.map((p) => p.name).sort());
    });

    it.each([
      ['time-of-day:>17:00', '>', 1020],
      ['time-of-day:>=9:30', '>=', 570],
      ['time-of-day:<09:00', '<', 540],
      ['time-of-day:<=12:15', '<=', 735],
      ['time-of-day:=08:00', '=', 480],
      ['time-of-day:08:00', '=', 480],
    ])('reads %s with its operator', (query, operator, minutes) => {
      expect(parseQuery(query)).toMatchObject({ property: 'time-of-day', operator, minutes });
    });

    it('reads values with colons, at signs, dots and hyphens unquoted', () => {
      expect(parseQuery('title:1:1')).toEqual(c('title', '1:1'));
      expect(parseQuery('domain:my-company.co.uk')).toEqual(c('domain', 'my-company.co.uk'));
      expect(parseQuery('title:-wip')).toEqual(c('title', '-wip'));
    });

    it('canonicalises property names and enum values', () => {
      expect(parseQuery('Title:Standup')).toEqual(c('title', 'Standup'));
      expect(parseQuery('DOMAIN:@Acme.COM')).toEqual(c('domain', 'acme.com'));
      expect(parseQuery('response:needs-action')).toEqual(c('response', 'needsAction'));
      expect(parseQuery('day-of-week:Friday')).toEqual(c('day-of-week', 'fri'));
      expect(parseQuery('transparency:free')).toEqual(c('transparency', 'transparent'));
      expect(parseQuery('recurring:TRUE')).toEqual(c('recurring', 'yes'));
    });

    it('reads a bare word or a quoted phrase as text:', () => {
      expect(parseQuery('retro')).toEqual(c('text', 'retro'));
      expect(parseQuery('"board meeting"')).toEqual(c('text', 'board meeting'));
      expect(parseQuery('10:30')).toEqual(c('text', '10:30'));
    });

    it('reads quoted values with escapes', () => {
      expect(parseQuery('title:"team meeting"')).toEqual(c('title', 'team meeting'));
      expect(parseQuery('title:"say \\"hi\\" (now)"')).toEqual(c('title', 'say "hi" (now)'));
      expect(parseQuery('title:"back\\\\slash"')).toEqual(c('title', 'back\\slash'));
    });
  });

  describe('operators and precedence', () => {
    it('reads juxtaposition and the AND keyword as AND', () => {
      const expected = { kind: 'and', items: [c('title', 'standup'), c('title', 'daily')] };
      expect(parseQuery('title:standup title:daily')).toEqual(expected);
      expect(parseQuery('title:standup AND title:daily')).toEqual(expected);
    });

    it('reads OR', () => {
      expect(parseQuery('title:standup OR title:sync')).toEqual({
        kind: 'or',
        items: [c('title', 'standup'), c('title', 'sync')],
      });
    });

    it('binds OR tighter than AND, as Gmail does', () => {
      expect(parseQuery('title:a OR title:b domain:x.com')).toEqual({
        kind: 'and',
        items: [{ kind: 'or', items: [c('title', 'a'), c('title', 'b')] }, c('domain', 'x.com')],
      });
      expect(parseQuery('domain:x.com title:a OR title:b')).toEqual({
        kind: 'and',
        items: [c('domain', 'x.com'), { kind: 'or', items: [c('title', 'a'), c('title', 'b')] }],
      });
    });

    it('lets parentheses regroup', () => {
      expect(parseQuery('(domain:a.com OR domain:b.com) title:sync')).toEqual({
        kind: 'and',
        items: [{ kind: 'or', items: [c('domain', 'a.com'), c('domain', 'b.com')] }, c('title', 'sync')],
      });
      expect(parseQuery('title:a OR (title:b domain:x.com)')).toEqual({
        kind: 'or',
        items: [c('title', 'a'), { kind: 'and', items: [c('title', 'b'), c('domain', 'x.com')] }],
      });
    });

    it('binds - and NOT tightest', () => {
      const expected = {
        kind: 'or',
        items: [{ kind: 'not', item: c('title', 'canceled') }, c('title', 'sync')],
      };
      expect(parseQuery('-title:canceled OR title:sync')).toEqual(expected);
      expect(parseQuery('NOT title:canceled OR title:sync')).toEqual(expected);
      expect(parseQuery('-(title:a title:b)')).toEqual({
        kind: 'not',
        item: { kind: 'and', items: [c('title', 'a'), c('title', 'b')] },
      });
    });

    it('flattens nested groups of one kind', () => {
      expect(parseQuery('(a b) (c (d e))')).toEqual({
        kind: 'and',
        items: ['a', 'b', 'c', 'd', 'e'].map((w) => c('text', w)),
      });
    });

    it('reads a property before a group as the property of every value in it, as Gmail does', () => {
      expect(parseQuery('title:acme -title:(canceled OR cancelled)')).toEqual(
        parseQuery('title:acme -(title:canceled OR title:cancelled)'),
      );
      expect(parseQuery('title:(standup "daily sync")')).toEqual({
        kind: 'and',
        items: [c('title', 'standup'), c('title', 'daily sync')],
      });
      expect(parseQuery('domain:(acme.com OR (globex.io -initech.com))')).toEqual(
        parseQuery('domain:acme.com OR (domain:globex.io -domain:initech.com)'),
      );
      expect(printQuery(parseQuery('day-of-week:(sat OR sun)'))).toBe('day-of-week:sat OR day-of-week:sun');
    });

    it('treats lower-case or/and/not as words', () => {
      expect(parseQuery('rock or roll')).toEqual({
        kind: 'and',
        items: [c('text', 'rock'), c('text', 'or'), c('text', 'roll')],
      });
    });
  });

  describe('errors', () => {
    it.each([
      ['', 0, 'empty'],
      ['   ', 0, 'empty'],
      ['title:', 6, "after 'title:'"],
      ['title:a OR', 8, 'after OR'],
      ['OR title:a', 0, 'before OR'],
      ['title:a AND', 8, 'after AND'],
      ['(title:a', 0, 'never closed'],
      ['title:a)', 7, "Unexpected ')'"],
      ['()', 0, 'Empty parentheses'],
      ['- title:a', 0, "'-' must be followed"],
      ['title:"open', 6, 'never closed'],
      ['title:"a"b', 9, 'space after the closing quote'],
      ['NOT', 0, 'after NOT'],
      ['title:()', 0, "Empty 'title:()'"],
      ['title:(a OR b', 0, "'title:(' is never closed"],
      ['title:(a domain:x.com)', 9, 'write values only'],
      ['title:(a day-of-week:(sat))', 9, 'cannot sit inside'],
    ])('refuses %j with INVALID_QUERY at %i', (query, position, problem) => {
      const error = failure(query);

      expect(error.code).toBe('INVALID_QUERY');
      expect(error.details.position).toBe(position);
      expect(error.message).toContain(problem);
      expect(error.details.caret).toBe(`${query}\n${' '.repeat(position)}^`);
    });

    it('shows a long query only around the error, with the caret under the spot', () => {
      const value = 'a'.repeat(400);
      const error = failure(`title:${value} AND`);
      const [line, caret] = (error.details.caret as string).split('\n') as [string, string];

      expect(error.details.position).toBe(407);
      expect(line).toBe(`…${'a'.repeat(59)} AND`);
      expect(line[caret.length - 1]).toBe('A');
      expect(error.message).not.toContain(value.slice(0, 200));
    });

    it('refuses deep nesting instead of exhausting the stack', () => {
      expect(failure(`${'('.repeat(5000)}a${')'.repeat(5000)}`).code).toBe('INVALID_QUERY');
      expect(failure(`${'-'.repeat(500)}a`).code).toBe('INVALID_QUERY');
    });

    it('refuses an overlong query', () => {
      expect(failure('a '.repeat(600)).message).toContain('at most 1000');
    });

    it.each([
      ['subject:standup', 'title'],
      ['from:bob@x.com', 'email'],
      ['with:sarah', 'attendees'],
      ['org:acme.com', 'domain'],
      ['company:acme', 'domain'],
      ['weekday:fri', 'day-of-week'],
      ['hour:>17:00', 'time-of-day'],
      ['busy:yes', 'transparency'],
      ['allday:yes', 'is-all-day'],
      ['titel:x', 'title'],
      ['domian:acme.com', 'domain'],
    ])('refuses %s with INVALID_PROPERTY suggesting %s', (query, suggestion) => {
      const error = failure(query);

      expect(error.code).toBe('INVALID_PROPERTY');
      expect(error.message).toBe(`Unknown property '${query.split(':')[0]}'. Did you mean '${suggestion}'?`);
      expect(error.details).toMatchObject({ suggestion, position: 0 });
      expect(error.details.valid_properties).toEqual(RULE_PROPERTIES.map((p) => p.name));
    });

    it('lists the valid properties when nothing is close', () => {
      const error = failure('title:a zzzzzz:b');

      expect(error.details).toMatchObject({ property: 'zzzzzz', position: 8 });
      expect(error.details.suggestion).toBeUndefined();
      expect(error.message).toContain('Valid properties: title, description');
    });

    it.each([
      ['response:maybe-not', 'response', ['accepted', 'declined', 'tentative', 'needsAction']],
      ['day-of-week:funday', 'day-of-week', ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']],
      ['recurring:sometimes', 'recurring', ['yes', 'no']],
      ['transparency:clear', 'transparency', ['opaque', 'transparent']],
    ])('refuses %s with INVALID_VALUE and the allowed values', (query, property, allowed) => {
      const error = failure(query);

      expect(error.code).toBe('INVALID_VALUE');
      expect(error.details).toMatchObject({
        property,
        allowed_values: allowed,
        position: property.length + 1,
      });
    });

    it.each(['time-of-day:>25:00', 'time-of-day:5pm', 'time-of-day:>>17:00', 'time-of-day:12:60'])(
      'refuses %s with INVALID_VALUE explaining HH:MM',
      (query) => {
        const error = failure(query);

        expect(error.code).toBe('INVALID_VALUE');
        expect(error.message).toContain('HH:MM');
      },
    );

    it('refuses malformed addresses and empty values', () => {
      expect(failure('domain:"acme com"').code).toBe('INVALID_VALUE');
      expect(failure('email:bob').code).toBe('INVALID_VALUE');
      expect(failure('title:""').code).toBe('INVALID_VALUE');
    });
  });
});

describe('printQuery', () => {
  it.each([
    ['domain:acme.com -title:canceled', 'domain:acme.com -title:canceled'],
    ['Title:"team meeting"', 'title:"team meeting"'],
    ['standup', 'text:standup'],
    ['title:a OR title:b domain:x.com', 'title:a OR title:b domain:x.com'],
    ['title:a OR (title:b domain:x.com)', 'title:a OR (title:b domain:x.com)'],
    ['-(title:a OR title:b)', '-(title:a OR title:b)'],
    ['NOT (a) AND time-of-day:=9:05', '-text:a time-of-day:09:05'],
    ['title:"say \\"hi\\""', 'title:"say \\"hi\\""'],
    ['text:OR', 'text:OR'],
  ])('prints %s as %s', (query, printed) => {
    expect(printQuery(parseQuery(query))).toBe(printed);
  });
});
