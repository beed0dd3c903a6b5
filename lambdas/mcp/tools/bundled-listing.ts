import type { ToolsetListing } from '../toolsets.js';

/**
 * The tools/list answer of every toolset as JSON text, computed when the Lambda is bundled
 * (lib/constructs/lambda-bundling.ts replaces this identifier with it through esbuild's
 * `define`). Undefined wherever the code runs unbundled (tests, tsx): the listing is then
 * computed from the tools themselves.
 *
 * A module of its own, imported on the first tools/list: the listing is some 70 KB, which a cold
 * start whose first request is a tools/call need not read (the toolset a tool belongs to comes
 * from TOOL_LOADERS). Text, not an object: esbuild hoists an object `define` into the chunk every
 * other chunk imports, so the cold start would parse it anyway; and JSON.parse reads it faster
 * than V8 parses the same object literal.
 */
declare const __MERIDIAN_TOOL_LISTING__: string | undefined;

/** The identifier lambda bundling defines; exported so the bundler and this module agree. */
export const TOOL_LISTING_DEFINE = '__MERIDIAN_TOOL_LISTING__';

export const bundledListing: ToolsetListing | undefined =
  typeof __MERIDIAN_TOOL_LISTING__ === 'undefined'
    ? undefined
    : (JSON.parse(__MERIDIAN_TOOL_LISTING__) as ToolsetListing);
