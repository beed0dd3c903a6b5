import { deferredToolCatalogue } from '../tool-catalogue.js';
import type { ToolsetListing } from '../toolsets.js';

/**
 * The tools/list answer of every toolset, computed when the Lambda is bundled (lib/constructs/lambda-bundling.ts
 * replaces this identifier with the listing through esbuild's `define`). Undefined wherever the
 * code runs unbundled (tests, tsx): the listing is then computed from the tools themselves.
 */
declare const __MERIDIAN_TOOL_LISTING__: ToolsetListing | undefined;

/** The identifier lambda bundling defines; exported so the bundler and this module agree. */
export const TOOL_LISTING_DEFINE = '__MERIDIAN_TOOL_LISTING__';

const bundledListing =
  typeof __MERIDIAN_TOOL_LISTING__ === 'undefined' ? undefined : __MERIDIAN_TOOL_LISTING__;

/**
 * Every tool, imported on the first tools/call (in the Lambda bundle a separate chunk), with
 * tools/list answered from the bundled listing, filtered by toolset at request time. Serves the Lambda, whose cold start matters.
 */
export const deferredAllToolsCatalogue = deferredToolCatalogue(
  async () => (await import('./index.js')).TOOLSETS,
  bundledListing,
);
