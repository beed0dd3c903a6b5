/**
 * The ontology category of a piece of memory, assigned deterministically from its words: the same
 * text always gets the same category, with no model and no network. Search filters by it
 * (`filter_category`) and update_memory reports it.
 */
import { escapeRegExp } from '../../escape-regexp.js';
export const MEMORY_CATEGORIES = [
  'development',
  'bug_fix',
  'feature',
  'decision',
  'refactoring',
  'testing',
  'documentation',
  'configuration',
  'research',
  'other',
] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

// Word stems per category. A stem matches a word that starts with it ("fix" → "fixed", "fixes");
// a stem ending in "." matches only that whole word ("ci." is not "city", "doc." not "docker").
// Ordered by specificity: on a tie the earlier category wins, so "fix the failing test" is a
// bug_fix, not testing, and the generic "development" comes after everything more precise.
const KEYWORDS: readonly (readonly [MemoryCategory, readonly string[]])[] = [
  [
    'bug_fix',
    [
      'bug',
      'fix',
      'crash',
      'regression',
      'broken',
      'error',
      'exception',
      'hotfix',
      'patch',
      'fault',
      'defect',
    ],
  ],
  [
    'decision',
    ['decid', 'decision', 'chose', 'choos', 'agreed', 'trade-off', 'tradeoff', 'adr.', 'rationale', 'opted'],
  ],
  ['refactoring', ['refactor', 'rename', 'extract', 'cleanup', 'clean-up', 'simplif', 'restructur', 'dedup']],
  [
    'testing',
    [
      'test',
      'spec.',
      'specs.',
      'coverage',
      'assert',
      'fixture',
      'vitest',
      'jest',
      'pytest',
      'e2e.',
      'mock',
      'flaky',
    ],
  ],
  [
    'documentation',
    [
      'doc.',
      'docs.',
      'documentation',
      'readme',
      'changelog',
      'comment',
      'tsdoc',
      'jsdoc',
      'guide',
      'tutorial',
    ],
  ],
  [
    'configuration',
    [
      'config',
      'env.',
      'environment',
      'setting',
      'yaml',
      'toml',
      'dockerfile',
      'deploy',
      'ci.',
      'pipeline',
      'tsconfig',
      'flag',
    ],
  ],
  [
    'research',
    ['research', 'investigat', 'benchmark', 'compar', 'evaluat', 'explor', 'spike', 'prototype', 'analys'],
  ],
  [
    'feature',
    [
      'feature',
      'add.',
      'adds.',
      'added',
      'adding',
      'new.',
      'support',
      'introduc',
      'enable',
      'endpoint',
      'user stor',
    ],
  ],
  [
    'development',
    [
      'implement',
      'build',
      'code',
      'function',
      'class',
      'module',
      'api.',
      'wrote',
      'write',
      'develop',
      'migrat',
    ],
  ],
];

/** Each category's stems compiled once: whole words in a set, prefixes in one anchored regex. */
const MATCHERS = KEYWORDS.map(([category, stems]) => {
  const whole = new Set(stems.filter((stem) => stem.endsWith('.')).map((stem) => stem.slice(0, -1)));
  const prefixes = stems.filter((stem) => !stem.endsWith('.')).map(escapeRegExp);
  const prefix = new RegExp(`^(?:${prefixes.join('|')})`);
  return { category, matches: (word: string) => whole.has(word) || prefix.test(word) };
});

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu;

/**
 * The category of `text`: the one whose stems match the most words (earliest in the table on a
 * tie), `other` when none matches.
 *
 * @example
 * categorize('Fixed the crash when the token expires'); // 'bug_fix'
 * categorize('We decided to use DynamoDB over Postgres'); // 'decision'
 */
export function categorize(text: string): MemoryCategory {
  const words = text.toLowerCase().match(WORD) ?? [];
  let best: MemoryCategory = 'other';
  let bestCount = 0;
  for (const { category, matches } of MATCHERS) {
    let count = 0;
    for (const word of words) if (matches(word)) count += 1;
    if (count > bestCount) {
      best = category;
      bestCount = count;
    }
  }
  return best;
}

/** True when `value` names a category (for validating `filter_category`). */
export function isMemoryCategory(value: string): value is MemoryCategory {
  return (MEMORY_CATEGORIES as readonly string[]).includes(value);
}
