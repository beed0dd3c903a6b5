/**
 * Stack traces of a bundled function in terms of its TypeScript sources, with each bundle file's
 * source map read only when a stack that passes through that file is first formatted.
 *
 * Imported for its effect, first, by every Lambda entry (`import './lazy-source-maps.js'`), in
 * place of Node's `--enable-source-maps`. That flag reads and parses the map of every module as
 * it loads and scans each module's text for its line lengths: measured on the MCP function, 46–71
 * ms of a ~275 ms cold start (about a quarter, half of it garbage collection of the maps), paid on
 * every cold start whether an error is ever formatted or not. Node has no lazy mode, and the
 * library that once did this (source-map-support) has not been released since 2021; Node's public
 * `SourceMap` class does the decoding, so what is written here is only when to read a map.
 *
 * Installed only where it has work to do: when this module runs from a bundle (its own file has a
 * map beside it) and Node's own source maps are off. A stack with no frame in a mapped file is
 * left to whatever formatted stacks before (Node's default, or a test runner's).
 */
import { createRequire, SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// node:fs through its CommonJS exports: Node builds an ES module's view of a builtin by reading
// every export, and node:fs's `promises` getter loads the promise API, about 2.5 ms of every cold
// start for a module that only checks for a file (see ADR 0028's addendum on node:http).
const { existsSync, readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/** Each bundle file's map once read; null when it has none (or it cannot be read). */
const maps = new Map<string, SourceMap | null>();

function mapOf(fileUrl: string): SourceMap | null {
  let map = maps.get(fileUrl);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(fileUrl)}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(fileUrl, map);
  }
  return map;
}

/**
 * One frame with its bundle position replaced by the source's, or undefined when its file has no
 * map. V8's own text of the frame is kept for the rest (`async`, `new`, `Type.method`): the names
 * in a bundle are the sources' own (lambda-bundling.ts keeps them).
 */
function mappedFrame(site: NodeJS.CallSite): string | undefined {
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file?.startsWith('file:') || line === null || column === null) return undefined;
  const entry = mapOf(file)?.findEntry(line - 1, column - 1);
  if (!entry || !('originalSource' in entry)) return undefined;
  // Sources are relative to the map, as Node's --enable-source-maps resolves them.
  const source = fileURLToPath(new URL(entry.originalSource, file));
  return site
    .toString()
    .replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
}

/** What formatted stacks before: Node's default, or a test runner's own source-mapping. */
const previous = Error.prepareStackTrace;

function formatStack(error: Error, sites: NodeJS.CallSite[]): string {
  const frames = sites.map(mappedFrame);
  if (previous && frames.every((frame) => frame === undefined)) return previous(error, sites);
  const header = error instanceof Error ? Error.prototype.toString.call(error) : String(error);
  return [header, ...sites.map((site, i) => `    at ${frames[i] ?? site.toString()}`)].join('\n');
}

function runsFromBundle(): boolean {
  try {
    return existsSync(`${fileURLToPath(import.meta.url)}.map`);
  } catch {
    return false;
  }
}

if (!process.sourceMapsEnabled && runsFromBundle()) {
  Error.prepareStackTrace = formatStack;
}
