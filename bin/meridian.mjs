#!/usr/bin/env node
// Runs the TypeScript CLI straight from source (tsx), so `npm ci` is the only build step.

// First, before anything that may not load on an older Node: the oldest Node Meridian supports
// (package.json `engines`), said in one line rather than as a stack trace from deep inside.
const OLDEST_NODE_MAJOR = 22;
if (Number(process.versions.node.split('.')[0]) < OLDEST_NODE_MAJOR) {
  process.stderr.write(
    `meridian needs Node ${OLDEST_NODE_MAJOR} or newer, but this is Node ${process.versions.node}: install a current Node (https://nodejs.org) and run it again.\n`,
  );
  process.exit(1);
}

// Node keeps the compiled code of every module it loads (in the OS temp folder) and reuses it
// on the next start, so a `meridian` command after the first starts sooner.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();

const { register } = await import('tsx/esm/api');
register();
await import('./meridian.ts');
