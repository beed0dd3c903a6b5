import type { QueryNode } from './query-ast.js';
import { invalidQuery } from './query-errors.js';
import { toCondition } from './query-values.js';
import { type FieldGroupToken, scanQuery, type TermToken, type Token } from './scan-query.js';

/**
 * Parses a Gmail-style rule query into a tree, or throws a DomainError: INVALID_QUERY (with the
 * position and a caret line), INVALID_PROPERTY (with a suggestion and `valid_properties`) or
 * INVALID_VALUE (with `allowed_values`).
 *
 * Written by hand (recursive descent): the query-parser libraries we tried (search-query-parser,
 * liqe, lucene-query-parser) split `time-of-day:>17:00` at its second colon or give no error
 * positions. Precedence follows Gmail and Google search: `-`/`NOT` binds tightest, then `OR`,
 * then AND (juxtaposition or the keyword), so `title:a OR title:b domain:x` is
 * `(title:a OR title:b) domain:x`. Keywords are upper case; a lower-case `or` is a word.
 *
 * @example
 * parseQuery('domain:acme.com -title:canceled');
 * // { kind: 'and', items: [{ kind: 'condition', property: 'domain', value: 'acme.com' },
 * //   { kind: 'not', item: { kind: 'condition', property: 'title', value: 'canceled' } }] }
 */
export function parseQuery(query: string): QueryNode {
  return new QueryParser(query, scanQuery(query)).parse();
}

/** Nesting deeper than this is refused rather than risking the stack on hostile input. */
const MAX_DEPTH = 40;

const STARTS_CONDITION = new Set<Token['type']>(['term', '(', 'field(', '-', 'NOT']);

class QueryParser {
  private next = 0;
  private depth = 0;
  /** Inside `title:( … )`: the property its bare values take. */
  private field: FieldGroupToken | undefined;

  constructor(
    private readonly query: string,
    private readonly tokens: readonly Token[],
  ) {}

  parse(): QueryNode {
    if (this.peek().type === 'end')
      throw invalidQuery(this.query, 0, 'The query is empty. Example: domain:acme.com -title:canceled');
    const node = this.conjunction();
    const extra = this.peek();
    if (extra.type !== 'end') throw this.unexpected(extra);
    return node;
  }

  /** AND: juxtaposed or joined by the keyword; binds loosest. */
  private conjunction(): QueryNode {
    const items = [this.disjunction()];
    for (;;) {
      const token = this.peek();
      if (token.type === 'AND') {
        this.take();
        this.expectCondition('AND', token.position);
      } else if (!STARTS_CONDITION.has(token.type)) {
        return combine('and', items);
      }
      items.push(this.disjunction());
    }
  }

  private disjunction(): QueryNode {
    const items = [this.unary()];
    while (this.peek().type === 'OR') {
      const or = this.take();
      this.expectCondition('OR', or.position);
      items.push(this.unary());
    }
    return combine('or', items);
  }

  private unary(): QueryNode {
    const token = this.peek();
    if (token.type !== '-' && token.type !== 'NOT') return this.primary();
    this.take();
    if (token.type === 'NOT') this.expectCondition('NOT', token.position);
    return this.nested(() => ({ kind: 'not', item: this.unary() }));
  }

  private primary(): QueryNode {
    const token = this.take();
    if (token.type === 'term') return toCondition(this.inField(token as TermToken));
    if (token.type === 'field(') return this.fieldGroup(token as FieldGroupToken);
    if (token.type !== '(') throw this.unexpected(token);
    if (this.peek().type === ')')
      throw invalidQuery(
        this.query,
        token.position,
        'Empty parentheses: put conditions inside, or remove them.',
      );
    const inner = this.nested(() => this.conjunction());
    if (this.peek().type !== ')')
      throw invalidQuery(this.query, token.position, "This '(' is never closed: add a ')'.");
    this.take();
    return inner;
  }

  /**
   * `title:(canceled OR cancelled)` is `(title:canceled OR title:cancelled)`, and `title:(a b)`
   * needs both words, as Gmail reads `subject:( … )`.
   */
  private fieldGroup(token: FieldGroupToken): QueryNode {
    if (this.field)
      throw invalidQuery(
        this.query,
        token.position,
        `A '${token.property}:(' group cannot sit inside '${this.field.property}:('.`,
      );
    if (this.peek().type === ')')
      throw invalidQuery(
        this.query,
        token.position,
        `Empty '${token.property}:()': put values inside, e.g. ${token.property}:(a OR b).`,
      );
    this.field = token;
    try {
      const inner = this.nested(() => this.conjunction());
      if (this.peek().type !== ')')
        throw invalidQuery(
          this.query,
          token.position,
          `This '${token.property}:(' is never closed: add a ')'.`,
        );
      this.take();
      return inner;
    } finally {
      this.field = undefined;
    }
  }

  /** A term inside `field:( … )` takes the field; one naming a property of its own there is refused. */
  private inField(term: TermToken): TermToken {
    if (!this.field) return term;
    if (term.property !== undefined)
      throw invalidQuery(
        this.query,
        term.position,
        `Inside '${this.field.property}:( … )' write values only; close the group before '${term.property}:'.`,
      );
    return { ...term, property: this.field.property };
  }

  private nested(parse: () => QueryNode): QueryNode {
    if (++this.depth > MAX_DEPTH)
      throw invalidQuery(this.query, this.peek().position, `Nested more than ${MAX_DEPTH} levels deep.`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private expectCondition(after: string, position: number): void {
    if (!STARTS_CONDITION.has(this.peek().type))
      throw invalidQuery(this.query, position, `Expected a condition after ${after}.`);
  }

  private unexpected(token: Token): Error {
    switch (token.type) {
      case ')':
        return invalidQuery(this.query, token.position, "Unexpected ')': no '(' to close.");
      case 'OR':
      case 'AND':
        return invalidQuery(this.query, token.position, `Expected a condition before ${token.type}.`);
      default:
        return invalidQuery(this.query, token.position, 'Expected a condition here.');
    }
  }

  private peek(): Token {
    return this.tokens[this.next]!;
  }

  private take(): Token {
    const token = this.tokens[this.next]!;
    if (token.type !== 'end') this.next++;
    return token;
  }
}

/** One item stays itself; nested nodes of the same kind are flattened, so each query has one tree. */
function combine(kind: 'and' | 'or', items: QueryNode[]): QueryNode {
  if (items.length === 1) return items[0]!;
  return { kind, items: items.flatMap((item) => (item.kind === kind ? item.items : [item])) };
}
