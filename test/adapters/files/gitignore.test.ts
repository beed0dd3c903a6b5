import { describe, expect, it } from 'vitest';
import { isIgnored, parseGitignore } from '../../../lambdas/adapters/files/gitignore.js';

describe('gitignore', () => {
  const rules = parseGitignore(
    ['# build output', 'dist/', '*.log', '!keep.log', '/root-only.txt', 'docs/**/draft-*.md', 'tmp?'].join(
      '\n',
    ),
  );

  it('ignores a directory pattern at any depth, but not a file of that name', () => {
    expect(isIgnored(rules, 'dist', true)).toBe(true);
    expect(isIgnored(rules, 'packages/web/dist', true)).toBe(true);
    expect(isIgnored(rules, 'dist', false)).toBe(false);
  });

  it('lets a later negation bring a file back', () => {
    expect(isIgnored(rules, 'debug.log', false)).toBe(true);
    expect(isIgnored(rules, 'logs/keep.log', false)).toBe(false);
  });

  it('anchors a pattern with a leading slash to the folder of the .gitignore', () => {
    expect(isIgnored(rules, 'root-only.txt', false)).toBe(true);
    expect(isIgnored(rules, 'src/root-only.txt', false)).toBe(false);
  });

  it('matches ** across folders and ? as one character', () => {
    expect(isIgnored(rules, 'docs/a/b/draft-1.md', false)).toBe(true);
    expect(isIgnored(rules, 'docs/final.md', false)).toBe(false);
    expect(isIgnored(rules, 'tmp1', false)).toBe(true);
    expect(isIgnored(rules, 'tmp12', false)).toBe(false);
  });
});
