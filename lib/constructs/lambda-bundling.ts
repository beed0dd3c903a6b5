/**
 * How Meridian's Lambda code is bundled, in one place. The `McpFunction` construct and the
 * cold-start benchmark both build from these values, so what the benchmark measures is what
 * `cdk deploy` ships.
 */
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/** The Node version the bundle targets: the deployed runtime is nodejs22.x. */
export const LAMBDA_NODE_TARGET = 'node22';

/**
 * Prefer a package's ESM build: it tree-shakes better than the CommonJS one, which shrinks the
 * bundle and the time Node spends parsing it on a cold start.
 */
export const LAMBDA_MAIN_FIELDS = ['module', 'main'];

/**
 * An ESM bundle has no `require`, yet bundled CommonJS code still calls it for Node built-ins;
 * without a real `require` esbuild leaves a shim that throws "Dynamic require is not supported".
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __meridianCreateRequire } from 'node:module'; const require = __meridianCreateRequire(import.meta.url);";

/**
 * Nothing is left external, not even `@aws-sdk/*`: the SDK in the Lambda runtime changes under
 * us, a pinned and minified copy cold-starts faster, and a self-contained bundle can be run as is
 * by the benchmark.
 */
export const LAMBDA_EXTERNAL_MODULES: string[] = [];

/**
 * Imports redirected to another file of the same package. rrule's ESM build (`module`) has no
 * default export, while Node — which ignores `module` — loads its CommonJS build, whose default
 * export is what core/time/recurrence imports (`import rrulePackage from 'rrule'`). Bundling the
 * CommonJS build gives the Lambda the module the code runs against under Node and vitest.
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = { rrule: 'rrule/dist/es5/rrule.js' };

/** Source maps are only read when Node is told to; the function's environment sets this. */
export const SOURCE_MAPS_NODE_OPTIONS = '--enable-source-maps';

/**
 * Bundling options for `NodejsFunction`.
 *
 * @example
 * new NodejsFunction(this, 'Fn', { entry, bundling: lambdaBundling() });
 */
export function lambdaBundling(): BundlingOptions {
  return {
    target: LAMBDA_NODE_TARGET,
    format: OutputFormat.ESM,
    mainFields: LAMBDA_MAIN_FIELDS,
    banner: ESM_REQUIRE_BANNER,
    minify: true,
    // Minifying renames classes; resolve_datetime picks chrono-node's parsers by class name.
    keepNames: true,
    sourceMap: true,
    externalModules: LAMBDA_EXTERNAL_MODULES,
    esbuildArgs: Object.fromEntries(
      Object.entries(LAMBDA_ALIASES).map(([from, to]) => [`--alias:${from}`, to]),
    ),
  };
}

/**
 * The same bundle through esbuild's API, as `NodejsFunction` builds it with esbuild's CLI
 * (`--bundle --platform=node --target --format --minify --keep-names --sourcemap --main-fields --banner:js --alias`).
 *
 * @example
 * await build(lambdaEsbuildOptions('lambdas/handlers/mcp-http.ts', '/tmp/out/index.mjs'));
 */
export function lambdaEsbuildOptions(entryPoint: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    target: LAMBDA_NODE_TARGET,
    format: 'esm',
    mainFields: LAMBDA_MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    keepNames: true,
    sourcemap: true,
    external: LAMBDA_EXTERNAL_MODULES,
    alias: { ...LAMBDA_ALIASES },
    logLevel: 'warning',
  };
}
