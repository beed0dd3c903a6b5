import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** What deciding access looks like in source: a grant check, or reading a principal's rights. */
const DECIDES_ACCESS = /\.authorize\(|requireRight\(|rightsOf\(|rightsOn\(|grantAllows\(|new ProjectAccess\(/;

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

/**
 * Access is decided in one layer: the core services a tool, resource or prompt calls with the
 * caller's principal (MemoryService, ProjectMemorySearch, CalendarService, RulesService, …),
 * never in lambdas/mcp. A handler that checked a grant itself would be a second place to keep
 * right, and the one a new tool forgets.
 */
describe('the access layer', () => {
  it('finds a grant check spelled in a handler', () => {
    expect(DECIDES_ACCESS.test('await deps.memory.authorize(principal, input.project_id, "read");')).toBe(
      true,
    );
    expect(
      DECIDES_ACCESS.test('new ProjectAccess(deps.memory.deps.access).rightsOf(context.principal)'),
    ).toBe(true);
  });

  it('leaves every grant check under lambdas/mcp to the core services', () => {
    const offenders = sourcesUnder('lambdas/mcp').filter((file) =>
      DECIDES_ACCESS.test(readFileSync(join(ROOT, file), 'utf8')),
    );

    expect(offenders).toEqual([]);
  });
});
