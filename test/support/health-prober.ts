import { spawn } from 'node:child_process';

/**
 * The prober's own process: GET /health, wait 20 ms, again — until its stdin closes; then it
 * prints every latency as JSON. Plain JavaScript, so that nothing but Node starts.
 */
const PROBER = `
const url = process.argv[1];
const latencies = [];
let stopped = false;
process.stdin.on('end', () => { stopped = true; });
process.stdin.resume();
(async () => {
  // The first fetch of a process loads and compiles its HTTP client: not the server's time.
  await (await fetch(url)).text();
  console.log('ready');
  while (!stopped || latencies.length === 0) {
    const started = performance.now();
    const response = await fetch(url);
    await response.text();
    if (response.status !== 200) throw new Error('/health answered ' + response.status);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log(JSON.stringify(latencies));
})();
`;

/**
 * Probes GET /health from a process of its own while `during` runs, and answers every latency
 * (ms) it saw. Apart from the test process on purpose: that process also runs the MCP clients
 * that load the server, and their work would delay the probe's own answers — up to hundreds of
 * milliseconds on a loaded machine — which the server would then be blamed for.
 *
 * @example
 * const { latencies } = await probeHealthDuring(url, () => Promise.all(calls));
 */
export async function probeHealthDuring<T>(
  serverUrl: string,
  during: () => Promise<T>,
): Promise<{ latencies: number[]; result: T }> {
  const child = spawn(process.execPath, ['-e', PROBER, new URL('/health', serverUrl).href], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the /health prober exited with ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await ready;
  try {
    const result = await during();
    child.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`the /health prober exited with ${code}: ${output}`);
    return { latencies: JSON.parse(output.slice('ready\n'.length)) as number[], result };
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
