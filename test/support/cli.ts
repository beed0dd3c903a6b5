import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs `meridian …` as a user would (the bin shim, a fresh process) and returns its output. */
export async function meridian(args: string[], env: Record<string, string> = {}) {
  const { stdout, stderr } = await run(process.execPath, ['bin/meridian.mjs', ...args], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { stdout, stderr };
}

/** Starts `meridian serve` on a free port and resolves once it prints its URL. */
export async function startServe(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['bin/meridian.mjs', 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        // A server that already exited (crashed) has nothing left to stop.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `meridian …` like {@link meridian}, but resolves with the exit code instead of throwing on a non-zero one. */
export async function meridianExit(args: string[], env: Record<string, string> = {}) {
  try {
    return { code: 0, ...(await meridian(args, env)) };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Runs `meridian …` with `input` on stdin (a password); resolves with its output and exit code. */
export function meridianWithInput(args: string[], input: string, env: Record<string, string> = {}) {
  return new Promise<{ stdout: string; stderr: string; code: number | null }>((resolvePromise) => {
    const child = spawn(process.execPath, ['bin/meridian.mjs', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolvePromise({ stdout, stderr, code }));
    child.stdin?.end(input);
  });
}
