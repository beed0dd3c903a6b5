import * as z from 'zod';
import { DomainError } from '../errors.js';
import type { Clock, RandomSource } from '../ports/index.js';
import { ConditionFailedError, type DocumentStore } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import type { RuleAuthor } from './rule-reach.js';
import { updateVersioned } from './versioned-update.js';
import { withoutUndefined } from './without-undefined.js';

/** A saved classification rule. `query` is always the canonical printed text. */
export const Rule = z.object({
  rule_id: z.string(),
  query: z.string(),
  project_id: z.string(),
  weight: z.number().int().min(-1000).max(1000),
  description: z.string().max(500).optional(),
  version: z.number().int().min(1),
  created_at: z.string(),
});
export type Rule = z.infer<typeof Rule>;

/** A rule as stored: with who last saved it (rule-reach.ts), which no tool answers. */
const StoredRule = Rule.extend({ author: z.string().optional() });
export type AuthoredRule = z.infer<typeof StoredRule>;

export type RuleFields = Pick<Rule, 'query' | 'project_id' | 'weight'> & { description?: string | undefined };

const ruleKey = (ruleId: string) => ({ pk: `${PK_PREFIX.rule}${ruleId}`, sk: SK.rule.record });
const ruleIndex = (rule: Pick<Rule, 'rule_id' | 'created_at'>) => ({
  gsi1pk: GSI1PK.rules,
  gsi1sk: `${rule.created_at}#${rule.rule_id}`,
});
const parse = (raw: unknown) => Rule.parse(raw);

/**
 * Rules in the document store (see docs/data-model.md): one item each, listed oldest first
 * through the index. Updates are conditional on the version read.
 */
export class RuleStore {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock; random: RandomSource }) {}

  async create(fields: RuleFields, author: RuleAuthor): Promise<Rule> {
    const stored = StoredRule.parse({
      ...withoutUndefined(fields),
      rule_id: `rul_${this.deps.random.uuid().replace(/-/g, '').slice(0, 16)}`,
      version: 1,
      created_at: this.deps.clock.now().toISOString(),
      author,
    });
    await this.deps.store.put(
      { ...ruleKey(stored.rule_id), ...ruleIndex(stored), ...stored },
      { condition: { op: 'not_exists' } },
    );
    return parse(stored);
  }

  async find(ruleId: string): Promise<Rule | undefined> {
    const raw = await this.deps.store.get(ruleKey(ruleId), { consistent: true });
    return raw ? parse(raw) : undefined;
  }

  async require(ruleId: string): Promise<Rule> {
    const rule = await this.find(ruleId);
    if (!rule) throw ruleNotFound(ruleId);
    return rule;
  }

  async list(): Promise<Rule[]> {
    return (await this.listAuthored()).map(parse);
  }

  /** Every rule with its author: what classification reads (rule-context.ts). */
  async listAuthored(): Promise<AuthoredRule[]> {
    const items = await queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.rules });
    return items.map((item) => StoredRule.parse(item));
  }

  /**
   * Changes the given fields (`description: null` clears it), conditional on the version. The
   * rule is then `author`'s: it reaches what the last one to save it may read.
   */
  async update(
    ruleId: string,
    patch: Partial<Omit<RuleFields, 'description'>> & { description?: string | null | undefined },
    author: RuleAuthor,
    expectedVersion?: number,
  ): Promise<Rule> {
    const updated = await updateVersioned<AuthoredRule>(
      this.deps.store,
      ruleKey(ruleId),
      (raw) => StoredRule.parse(raw),
      (current) => {
        const { description, ...rest } = patch;
        const next: Record<string, unknown> = { ...current, ...withoutUndefined(rest), author };
        if (description === null) delete next.description;
        else if (description !== undefined) next.description = description;
        return StoredRule.parse(next);
      },
      {
        what: `rule "${ruleId}"`,
        notFound: () => ruleNotFound(ruleId),
        expectedVersion,
        index: ruleIndex,
      },
    );
    return parse(updated);
  }

  /** Deletes a rule; with `expectedVersion`, only if nobody changed it since. */
  async delete(ruleId: string, expectedVersion?: number): Promise<void> {
    const current = await this.require(ruleId);
    if (expectedVersion !== undefined && expectedVersion !== current.version)
      throw new DomainError(
        'STALE_WRITE',
        `Rule "${ruleId}" changed since you read it (now version ${current.version}). List rules again, then delete with the new version.`,
        { current_version: current.version },
      );
    try {
      await this.deps.store.delete(ruleKey(ruleId), {
        condition: { op: 'eq', attribute: 'version', value: current.version },
      });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError(
        'STALE_WRITE',
        `Rule "${ruleId}" changed while it was being deleted. List rules again and retry.`,
        {},
      );
    }
  }
}

/** The refusal for a rule id that names no rule the caller may see (missing, or of a project it cannot read). */
export function ruleNotFound(ruleId: string): DomainError {
  return new DomainError('NOT_FOUND', `No rule "${ruleId}". Call list_rules for the ids.`, {
    rule_id: ruleId,
  });
}
