/**
 * What a cold start that answers one event really loads: the bundle run in a fresh `node`
 * process, as the cold-start bench runs it (bench/lambda-probe.ts), with a module hook that notes
 * every file the process loads. Unlike `inputsLoadedAfter`, which follows the imports of chunks
 * one names, this sees every dynamic import the call makes, so a chunk pulled in by an unexpected
 * path shows up too.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Metafile } from 'esbuild';
import { LAMBDA_ENV, PROBE, tableEnvironment } from '../../bench/lambda-probe.js';
import { LAMBDA_ENTRY_NAME } from '../../lib/constructs/lambda-bundling.js';

/** The bench's probe, with every module URL it loads written (one a line) to the file it is given. */
const LOAD_RECORDING_PROBE = `
import { registerHooks } from 'node:module';
import { writeFileSync as recordLoads } from 'node:fs';
const loadedUrls = [];
registerHooks({ load(url, context, nextLoad) { loadedUrls.push(url); return nextLoad(url, context); } });
process.on('exit', () => recordLoads(process.env.LOADED_URLS_FILE, loadedUrls.join('\\n')));
${PROBE}`;

export interface FirstCall {
  /** The source files (the bundle's inputs) of every chunk the process loaded. */
  inputs: string[];
  /** The probe's result line: `toolSucceeded` says whether a tools/call answered without isError. */
  result: { statusCode: number | null; toolSucceeded: boolean | null };
}

/**
 * Runs `event` through the bundle in `bundleDir` (built with `metafile`) in a fresh process whose
 * table is `table`, and answers what it loaded.
 */
export async function firstCallLoads(
  bundleDir: string,
  metafile: Metafile,
  table: { tableName: string; endpoint: string },
  event: APIGatewayProxyEvent,
  name: string,
): Promise<FirstCall> {
  const probeFile = join(bundleDir, `probe-${name}.mjs`);
  const eventFile = join(bundleDir, `event-${name}.json`);
  const loadedFile = join(bundleDir, `loaded-${name}.txt`);
  writeFileSync(probeFile, LOAD_RECORDING_PROBE);
  writeFileSync(eventFile, JSON.stringify(event));
  const env = {
    ...LAMBDA_ENV,
    ...tableEnvironment(table),
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    LOADED_URLS_FILE: loadedFile,
  };
  // Asynchronous: the table answering the child is served from this process.
  const stdout = await new Promise<string>((done, fail) => {
    const child = spawn(
      process.execPath,
      [probeFile, join(bundleDir, `${LAMBDA_ENTRY_NAME}.mjs`), eventFile],
      {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done(out) : fail(new Error(`the probe exited with ${code}\n${out}`)),
    );
  });
  const result = JSON.parse(stdout.split('COLD_START_RESULT ')[1]!.split('\n')[0]!);
  const files = new Set(
    readFileSync(loadedFile, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url)),
  );
  const inputs = Object.entries(metafile.outputs)
    .filter(([output]) => files.has(resolve(output)))
    .flatMap(([, output]) => Object.keys(output.inputs));
  return { inputs, result };
}
