/**
 * How Meridian's Lambda code is bundled, in one place. Every function's code and the cold-start
 * benchmark are built from these values, so what the benchmark measures is what `cdk deploy`
 * ships.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { describeToolsets } from '../../lambdas/mcp/tool-catalogue.js';
import { TOOL_LISTING_DEFINE } from '../../lambdas/mcp/tools/bundled-listing.js';
import { TOOLSETS } from '../../lambdas/mcp/tools/index.js';

/** The Node major of the deployed runtime (nodejs24.x, meridian-function.ts), which CI also tests on. */
export const LAMBDA_NODE_MAJOR = 24;

/** The Node version the bundle targets: the deployed runtime's. */
export const LAMBDA_NODE_TARGET = `node${LAMBDA_NODE_MAJOR}`;

/**
 * Prefer a package's ESM build: it tree-shakes better than the CommonJS one, which shrinks the
 * bundle and the time Node spends parsing it on a cold start.
 */
export const LAMBDA_MAIN_FIELDS = ['module', 'main'];

/**
 * An ESM bundle has no `require`, yet bundled CommonJS code still calls it for Node built-ins;
 * without a real `require` esbuild leaves a shim that throws "Dynamic require is not supported".
 * esbuild writes the banner at the top of every chunk, and few chunks call `require` (17 of the
 * booking steps' 281), so each makes its `require` on its first call rather than as it loads: a
 * cold start loads dozens of chunks. The bundled code only ever calls it (`require(id)`,
 * `require.apply`), never `require.resolve` or `require.cache`.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __meridianCreateRequire } from 'node:module'; let __meridianRequire; function require(id) { return (__meridianRequire ??= __meridianCreateRequire(import.meta.url))(id); }";

/**
 * Nothing is left external, not even `@aws-sdk/*`: the SDK in the Lambda runtime changes under
 * us, a pinned and minified copy cold-starts faster, and a self-contained bundle can be run as is
 * by the benchmark.
 */
export const LAMBDA_EXTERNAL_MODULES: string[] = [];

/**
 * Imports redirected to another file: of the same package, or one of Meridian's. rrule's ESM
 * build (`module`) has no default export, while Node — which ignores `module` — loads its
 * CommonJS build, whose default export is what core/time/recurrence imports (`import rrulePackage
 * from 'rrule'`). Bundling the CommonJS build gives the Lambda the module the code runs against
 * under Node and vitest.
 *
 * `@aws-crypto/client-node` names only its CommonJS build (no `module` field), whose `require()`s
 * of its sibling packages resolve to their ESM builds. esbuild must then wrap every ES module
 * those reach — the KMS client and, through it, the SDK core that DynamoDB shares — in lazy
 * initialisers, which V8 parses twice: about 30 ms of every booking step's cold start. Its ESM
 * build keeps the whole bundle ESM.
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  rrule: 'rrule/dist/es5/rrule.js',
  '@aws-crypto/client-node': '@aws-crypto/client-node/build/module/src/index.js',
  // middy's import of web streams, read on first use (why: lazy-stream-web.cts).
  'node:stream/web': fileURLToPath(new URL('../../lambdas/handlers/lazy-stream-web.cts', import.meta.url)),
};

/** Where a bundle's entry lands (`index.mjs`); a function's handler is `index.<export>`. */
export const LAMBDA_ENTRY_NAME = 'index';

/** Computed once per process: a synth bundles several functions. */
let toolListingJson: string | undefined;

/**
 * tools/list of every toolset as the MCP function answers it, computed here so that its cold start
 * need not load the tools (lambdas/mcp/tools/bundled-listing.ts); each request filters it by
 * the toolsets it enabled. Synchronous: CDK's local bundling is.
 */
function toolListingDefine(): Record<string, string> {
  // A string literal of the JSON (bundled-listing.ts says why text).
  toolListingJson ??= JSON.stringify(JSON.stringify(describeToolsets(TOOLSETS)));
  return { [TOOL_LISTING_DEFINE]: toolListingJson };
}

/**
 * How a handler file is bundled, through esbuild's API. Code splitting is why Meridian bundles
 * itself rather than through `NodejsFunction` (which writes one file): code reached only through
 * a dynamic `import()` — the MCP tools and the services behind them, the Google client, the
 * Encryption SDK, the AWS SDK's unused credential providers — lands in chunks that Node reads
 * and compiles only when they are first imported, not on every cold start.
 *
 * @example
 * await build(lambdaEsbuildOptions('lambdas/handlers/mcp-http.ts', '/tmp/out')); // /tmp/out/index.mjs
 */
export function lambdaEsbuildOptions(entryPoint: string, outdir: string): BuildOptions {
  return {
    entryPoints: { [LAMBDA_ENTRY_NAME]: entryPoint },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: LAMBDA_NODE_TARGET,
    format: 'esm',
    mainFields: LAMBDA_MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    // Minifying renames classes; resolve_datetime picks chrono-node's parsers by class name.
    keepNames: true,
    sourcemap: true,
    // Maps for stack traces, read only when an error is formatted (handlers/lazy-source-maps.ts),
    // which needs only the mappings: without the sources' text each map is a quarter of the size.
    sourcesContent: false,
    external: LAMBDA_EXTERNAL_MODULES,
    alias: { ...LAMBDA_ALIASES },
    define: toolListingDefine(),
    logLevel: 'warning',
  };
}

/**
 * A handler file as Lambda code: bundled in-process with esbuild (never in Docker) into an
 * asset whose hash is that of the output. Functions built from one entry share one bundle.
 *
 * @example
 * new lambda.Function(this, 'Fn', { code: lambdaCode(entry), handler: 'index.handler', ... });
 */
export function lambdaCode(entry: string): Code {
  return Code.fromAsset(dirname(entry), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the type, never pulled: local bundling below always succeeds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
      // Part of the bundling cache key, which must differ between entries of the same folder.
      command: ['esbuild', basename(entry)],
      local: {
        tryBundle(outputDir: string): boolean {
          buildSync(lambdaEsbuildOptions(entry, outputDir));
          return true;
        },
      },
    },
  });
}

/**
 * The output files a cold start of a bundle built with {@link lambdaEsbuildOptions} loads: its
 * entry (`index.mjs`) and the chunks it imports statically, transitively. Chunks behind a
 * dynamic `import()` are left out: Node loads them on first use. Paths as in the metafile.
 *
 * @example
 * const { metafile } = await build({ ...lambdaEsbuildOptions(entry, dir), metafile: true });
 * outputsLoadedAtStart(metafile); // ['…/index.mjs', '…/chunks/chunk-….mjs', …]
 */
export function outputsLoadedAtStart(metafile: Metafile): string[] {
  // Chunks behind a dynamic import() are entry points too; the function's own is index.mjs.
  const entry = Object.keys(metafile.outputs).find((file) => file.endsWith(`/${LAMBDA_ENTRY_NAME}.mjs`));
  if (entry === undefined) throw new Error(`No ${LAMBDA_ENTRY_NAME}.mjs among the bundle's outputs.`);
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  return [...loaded];
}

/**
 * The source files whose code a cold start loads: the inputs of {@link outputsLoadedAtStart}.
 *
 * @example
 * inputsLoadedAtStart(metafile).some((input) => input.includes('node_modules/luxon/')); // false when luxon is deferred
 */
export function inputsLoadedAtStart(metafile: Metafile): string[] {
  return outputsLoadedAtStart(metafile).flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
}

/**
 * The source files a function has loaded once it ran code behind dynamic imports: the cold
 * start's, and those of the chunks whose entry point matches each of `dynamicEntries`, with what
 * they import statically.
 *
 * @example
 * inputsLoadedAfter(metafile, [/tools\/toolsets\/time\.ts$/]); // what a first time-tool call loads
 */
export function inputsLoadedAfter(metafile: Metafile, dynamicEntries: readonly RegExp[]): string[] {
  const loaded = new Set(outputsLoadedAtStart(metafile));
  const visit = (file: string) => {
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || loaded.has(imported.path)) continue;
      loaded.add(imported.path);
      visit(imported.path);
    }
  };
  for (const pattern of dynamicEntries) {
    const chunk = Object.entries(metafile.outputs).find(([, output]) =>
      pattern.test(output.entryPoint ?? ''),
    );
    if (!chunk) throw new Error(`no chunk has an entry point matching ${pattern}`);
    loaded.add(chunk[0]);
    visit(chunk[0]);
  }
  return [...loaded].flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
}
