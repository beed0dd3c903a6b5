import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_TASKS } from '../../../lambdas/booking/booking-definition.js';
import { AUDIT_EXPORT_HANDLER_ENTRY } from '../../../lib/constructs/audit-export-schedule.js';
import { BOOKING_STEPS_ENTRY } from '../../../lib/constructs/booking-workflow.js';
import {
  LAMBDA_ENTRY_NAME,
  lambdaEsbuildOptions,
  outputsLoadedAtStart,
} from '../../../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../../../lib/constructs/mcp-function.js';
import { MEMORY_COMPRESSION_HANDLER_ENTRY } from '../../../lib/constructs/memory-compression-schedule.js';
import { OAUTH_HANDLER_ENTRY } from '../../../lib/constructs/oauth-function.js';
import { SYNC_HANDLER_ENTRY } from '../../../lib/constructs/sync-schedule.js';

const workDir = mkdtempSync(join(tmpdir(), 'meridian-bundling-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function entryUrl(options: ReturnType<typeof lambdaEsbuildOptions>): string {
  return pathToFileURL(join(options.outdir!, `${LAMBDA_ENTRY_NAME}.mjs`)).href;
}

/** Bundles an ESM entry that imports a CommonJS module calling `require('node:os')`, then runs it. */
async function bundleAndRun(options: ReturnType<typeof lambdaEsbuildOptions>) {
  writeFileSync(join(workDir, 'dep.cjs'), "module.exports = { eol: require('node:os').EOL };\n");
  writeFileSync(
    join(workDir, 'entry.mjs'),
    "import dep from './dep.cjs';\nexport const eolLength = dep.eol.length;\n",
  );
  await build({ ...options, logLevel: 'silent' });
  const url = entryUrl(options);
  return spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `console.log((await import('${url}')).eolLength)`],
    {
      encoding: 'utf8',
    },
  );
}

/** `commonjs-file -> esm-file` for every require() of an ES module in the bundle's inputs. */
function esmRequiredFromCommonJs(metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports
      .filter(
        (imported) => imported.kind === 'require-call' && metafile.inputs[imported.path]?.format === 'esm',
      )
      .map((imported) => `${file} -> ${imported.path}`),
  );
}

/** The inputs some of whose code is in an output: esbuild lists every file it read as an input. */
function bundledInputs(metafile: Metafile): string[] {
  const inOutput = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([input]) => input),
  );
  return [...new Set(inOutput)];
}

/**
 * The zod locales but English in a bundle. zod reached through its named export `z` is bundled
 * whole, its 50 locales too (470 KB against 73 KB, compiled by every cold start): only the
 * namespace import tree-shakes.
 */
function zodLocalesBeyondEnglish(metafile: Metafile): string[] {
  return bundledInputs(metafile).filter((input) => /node_modules\/zod\/v4\/locales\/(?!en\.js$)/.test(input));
}

describe('lambda-bundling', () => {
  describe('lambdaEsbuildOptions', () => {
    it("bundles rrule's CommonJS build, whose default export the recurrence code imports as Node does", async () => {
      writeFileSync(
        join(workDir, 'rrule-entry.mjs'),
        "import rrulePackage from 'rrule';\nexport const kind = typeof rrulePackage.RRule;\n",
      );
      const options = lambdaEsbuildOptions(join(workDir, 'rrule-entry.mjs'), join(workDir, 'rrule'));

      await build({
        ...options,
        nodePaths: [fileURLToPath(new URL('../../../node_modules', import.meta.url))],
        logLevel: 'silent',
      });
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `console.log((await import('${entryUrl(options)}')).kind)`],
        { encoding: 'utf8' },
      );

      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('function');
    });

    it('produces an ESM bundle in which bundled CommonJS can still require Node built-ins', async () => {
      const options = lambdaEsbuildOptions(join(workDir, 'entry.mjs'), join(workDir, 'with-banner'));

      const run = await bundleAndRun(options);

      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('1');
    });

    it("gives bundled code node:stream/web's every export, Node's own value, loading web streams only on first use", async () => {
      writeFileSync(
        join(workDir, 'web-streams-entry.mjs'),
        "import * as webStreams from 'node:stream/web';\n" +
          "export const loadedBeforeUse = process.moduleLoadList.includes('NativeModule stream/web');\n" +
          'export { webStreams };\n',
      );
      const options = lambdaEsbuildOptions(
        join(workDir, 'web-streams-entry.mjs'),
        join(workDir, 'web-streams'),
      );
      await build({ ...options, logLevel: 'silent' });
      const script = `
        const bundled = await import('${entryUrl(options)}');
        const node = process.getBuiltinModule('node:stream/web');
        const names = Object.keys(node);
        console.log(JSON.stringify({
          loadedBeforeUse: bundled.loadedBeforeUse,
          names: names.length,
          notNodes: names.filter((name) => bundled.webStreams[name] !== node[name]),
          instanceOfWorks: new node.ReadableStream() instanceof bundled.webStreams.ReadableStream,
        }));`;

      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });

      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        loadedBeforeUse: false,
        names: expect.any(Number),
        notNodes: [],
        instanceOfWorks: true,
      });
      expect(JSON.parse(run.stdout).names).toBeGreaterThan(10);
    });

    it('needs the require banner: without it the same bundle throws on require', async () => {
      const options = {
        ...lambdaEsbuildOptions(join(workDir, 'entry.mjs'), join(workDir, 'without-banner')),
        banner: {},
      };

      const run = await bundleAndRun(options);

      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/Dynamic require of "node:os" is not supported/);
    });
  });

  describe('every function Meridian deploys', () => {
    const environment = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      AWS_REGION: 'eu-west-1',
      MERIDIAN_TABLE_NAME: 'meridian',
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      MERIDIAN_BOOKING_STATE_MACHINE_ARN:
        'arn:aws:states:eu-west-1:123456789012:stateMachine:meridian-booking',
      MERIDIAN_MEMORY_BUCKET_NAME: 'meridian-memory',
      MERIDIAN_AUDIT_EXPORT_BUCKET: 'meridian-audit-exports',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };

    it('makes each chunk’s require on its first call: a cold start of the booking steps makes one for few of the chunks it loads', async () => {
      const options = lambdaEsbuildOptions(BOOKING_STEPS_ENTRY, join(workDir, 'require-on-first-call'));
      const { metafile } = await build({ ...options, metafile: true, logLevel: 'silent' });
      // Counts the calls of node:module's createRequire, which the banner's require is made by
      // (as are the two the table client and the source maps make on purpose).
      const counting = `data:text/javascript,${encodeURIComponent(
        "import m from 'node:module'; const make = m.createRequire; globalThis.requiresMade = 0;" +
          ' m.createRequire = (...args) => { globalThis.requiresMade += 1; return make(...args); };' +
          ' m.syncBuiltinESMExports();',
      )}`;
      const script = `await import('${entryUrl(options)}'); console.log(globalThis.requiresMade); process.exit(0);`;

      const run = spawnSync(process.execPath, ['--import', counting, '--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: environment,
      });

      expect(run.stderr).toBe('');
      // Made as each chunk loaded, it was one per chunk: 15 for the 17 chunks of this cold start.
      const chunksAtStart = outputsLoadedAtStart(metafile).length;
      expect(chunksAtStart).toBeGreaterThan(10);
      expect(Number(run.stdout.trim())).toBeLessThan(chunksAtStart / 3);
    }, 60_000);

    it('bundles no zod locale but English into the sign-in function either', async () => {
      const options = lambdaEsbuildOptions(OAUTH_HANDLER_ENTRY, join(workDir, 'oauth-zod'));
      const { metafile } = await build({ ...options, metafile: true, write: false, logLevel: 'silent' });

      expect(bundledInputs(metafile).some((input) => input.startsWith('node_modules/zod/'))).toBe(true);
      expect(zodLocalesBeyondEnglish(metafile)).toEqual([]);
    }, 60_000);

    it.each([
      ['the MCP function', MCP_HANDLER_ENTRY, ['handler']],
      ['the sync job', SYNC_HANDLER_ENTRY, ['handler']],
      ['the memory compression job', MEMORY_COMPRESSION_HANDLER_ENTRY, ['handler']],
      ['the audit export job', AUDIT_EXPORT_HANDLER_ENTRY, ['handler']],
      ['the booking steps', BOOKING_STEPS_ENTRY, BOOKING_TASKS.map((task) => task.handler)],
    ])(
      'bundles %s into chunks that all load in a fresh Node process, exporting its handlers',
      async (_, entry, handlers) => {
        const options = lambdaEsbuildOptions(entry, join(workDir, basename(entry, '.ts')));
        const { metafile } = await build({ ...options, metafile: true, logLevel: 'silent' });

        // A CommonJS file that require()s an ES module makes esbuild wrap that module, and all it
        // imports, in lazy initialisers that V8 parses twice: 20–30 ms of every cold start.
        expect(esmRequiredFromCommonJs(metafile)).toEqual([]);
        expect(zodLocalesBeyondEnglish(metafile)).toEqual([]);
        // The banner's require is a plain function (ESM_REQUIRE_BANNER): no bundled code may use
        // what only Node's own has (require.resolve, require.cache, require.main).
        const requireProperties = Object.keys(metafile.outputs)
          .filter((file) => file.endsWith('.mjs'))
          .flatMap((file) => readFileSync(file, 'utf8').match(/\brequire\.\w+/g) ?? [])
          .filter((use) => use !== 'require.apply');
        expect(requireProperties).toEqual([]);

        // Loading runs every module's top-level code: a chunk initialised out of order throws here.
        // The chunks a handler imports lazily (the tools, the providers) are loaded too, each
        // after the entry as at run time, so that none of them waits for a deployment to fail.
        const script = `
          const { readdirSync } = await import('node:fs');
          const m = await import('${entryUrl(options)}');
          const chunks = new URL('./chunks/', '${entryUrl(options)}');
          for (const file of readdirSync(chunks).filter((f) => f.endsWith('.mjs'))) await import(new URL(file, chunks).href);
          console.log(JSON.stringify(Object.keys(m).filter((k) => typeof m[k] === 'function')));`;
        const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
          encoding: 'utf8',
          env: environment,
        });

        expect(run.stderr).toBe('');
        expect(JSON.parse(run.stdout)).toEqual(expect.arrayContaining(handlers));
      },
      60_000,
    );
  });
});
