import { describe, expect, it } from 'vitest';
import { EXPENSIVE_TOOLS } from '../../lambdas/mcp/expensive-tools.js';
import { allToolsCatalogue } from '../../lambdas/mcp/tools/index.js';

describe('EXPENSIVE_TOOLS', () => {
  it('names only tools the server has, so a rename cannot drop one from the stricter budget', async () => {
    const names = new Set(
      Object.values(await allToolsCatalogue.listing()).flatMap((tools) => tools.map((t) => t.name)),
    );
    expect([...EXPENSIVE_TOOLS].filter((name) => !names.has(name))).toEqual([]);
    expect(EXPENSIVE_TOOLS.has('book_slot')).toBe(true);
  });
});
