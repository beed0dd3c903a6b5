import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One line of @modelcontextprotocol/conformance, pinned in package.json, and what it runs. */
export interface SuiteLine {
  label: string;
  /** The suite's entry point in node_modules. */
  suite: string;
  /** Extra arguments for every scenario (the revision a 0.2 suite tests). */
  args: readonly string[];
  scenarios: readonly string[];
  expectedFailures: string;
}

/**
 * The 2025 line, @modelcontextprotocol/conformance 0.1.x: the server scenarios that apply to any
 * server. The others call the suite's own test tools, resources and prompts (test_simple_text,
 * test://…), need server-to-client requests (sampling, elicitation) or SSE streams, which a
 * stateless JSON server does not offer. Named in the README.
 */
export const LINE_2025: SuiteLine = {
  label: '0.1.x (2025-11-25)',
  suite: 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
  args: [],
  scenarios: [
    'server-initialize',
    'ping',
    'tools-list',
    'logging-set-level',
    'completion-complete',
    'resources-list',
    'prompts-list',
    'dns-rebinding-protection',
  ],
  expectedFailures: 'test/conformance/expected-failures.yml',
};

/**
 * The 2026-07-28 line, @modelcontextprotocol/conformance 0.2.0-alpha.12 (the npm alias
 * `conformance-2026`) with `--spec-version 2026-07-28`: the server scenarios of that revision
 * that apply to any server. Not applicable, and not run:
 * - `tools-call-*`, `json-schema-2020-12`, `resources-read-*`, `resources-templates-read`,
 *   `prompts-get-*`: they call the suite's own test tools, resources and prompts;
 * - `http-custom-header-server-validation`: needs a tool with `x-mcp-header` parameters, which
 *   Meridian has none of (every check is "not testable");
 * - the `input-required-result-*` scenarios other than `unsupported-methods`: they call the suite's
 *   `test_input_required_result_*` tools (multi-round-trip requests, which Meridian does not
 *   make); the few that report a pass do so only because the tool is unknown;
 * - the extension scenarios (`tasks-*`, `sep-2640-skills-*`), which the revision does not require.
 * `server-stateless` runs: 4 of its 28 checks need the suite's diagnostic tools, listed with
 * their upstream issue in expected-failures-2026.yml; every other check must pass.
 */
export const LINE_2026: SuiteLine = {
  label: '0.2.x (2026-07-28)',
  suite: 'node_modules/conformance-2026/dist/index.js',
  args: ['--spec-version', '2026-07-28'],
  scenarios: [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'sep-2164-resource-not-found',
    'caching',
    'http-header-validation',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
    'input-required-result-unsupported-methods',
  ],
  expectedFailures: 'test/conformance/expected-failures-2026.yml',
};

/** The scenarios an expected-failures file names (an entry is `scenario` or, in 0.2, `scenario:check-id`). */
export async function scenariosListedAsFailing(line: SuiteLine): Promise<string[]> {
  const text = await readFile(line.expectedFailures, 'utf8');
  return [...text.matchAll(/^\s*-\s*([^\s:]+)/gm)].map((m) => m[1]!);
}

/**
 * Runs one scenario of a line against `url`; code 0 and no output when it passes, or fails only
 * as the line's expected-failures file says.
 */
export function runScenario(line: SuiteLine, url: string, scenario: string) {
  // The Node running the tests: 22 or newer (fs.globSync), or the suites that call this are
  // skipped with a line saying so (NODE_22 in test/support/system-parts.ts).
  return run(
    process.execPath,
    [
      line.suite,
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      ...line.args,
      '--expected-failures',
      line.expectedFailures,
    ],
    { timeout: 60_000 },
  ).then(
    () => ({ code: 0 as number | undefined, output: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}
