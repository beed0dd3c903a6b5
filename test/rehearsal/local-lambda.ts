import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOST_SCRIPT = fileURLToPath(new URL('./lambda-host.mjs', import.meta.url));

/** How one function of the template runs here: its code, handler, environment and limits. */
export interface FunctionSpec {
  logicalId: string;
  name: string;
  arn: string;
  /** The asset folder the template's Code points at. */
  codeDir: string;
  /** `index.handler`. */
  handler: string;
  runtime: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The whole environment of the process: the template's variables and what the runtime adds. */
  environment: Record<string, string>;
}

/** An error the function threw, as the Lambda service reports it (and Step Functions matches it). */
export class FunctionError extends Error {
  constructor(errorType: string, message: string) {
    super(message);
    this.name = errorType;
  }
}

type Reply = { id: number; result?: unknown; error?: { errorType: string; errorMessage: string } };

/**
 * A function of the template run as Lambda runs it: its own Node process (started on the first
 * invocation, a cold start; kept warm after), its bundle loaded from the asset folder, and exactly
 * `spec.environment` as its environment — nothing inherited from the test process. Invocations
 * are serialised, one at a time per instance, as on Lambda.
 */
export class LocalLambda {
  #child: Promise<ChildProcess> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 0;
  #pending = new Map<number, (reply: Reply) => void>();
  #output = '';
  readonly invocations: { event: unknown; ms: number; failed: boolean }[] = [];

  constructor(readonly spec: FunctionSpec) {}

  /** Invokes the function with `event` (JSON) and resolves to its result or rejects with a FunctionError. */
  invoke(event: unknown): Promise<unknown> {
    const run = this.#queue.then(() => this.#invokeNow(event));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** What the function wrote to stdout and stderr so far (its log lines). */
  get output(): string {
    return this.#output;
  }

  async close(): Promise<void> {
    const child = await this.#child?.catch(() => undefined);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async #invokeNow(event: unknown): Promise<unknown> {
    const child = await this.#start();
    const id = this.#nextId++;
    const started = performance.now();
    const reply = await new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new FunctionError(
              'Sandbox.Timedout',
              `${this.spec.name} timed out after ${this.spec.timeoutSeconds} s`,
            ),
          ),
        this.spec.timeoutSeconds * 1000,
      );
      this.#pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      child.send({ id, event: JSON.parse(JSON.stringify(event)) });
    });
    this.invocations.push({ event, ms: performance.now() - started, failed: reply.error !== undefined });
    if (reply.error) throw new FunctionError(reply.error.errorType, reply.error.errorMessage);
    return reply.result;
  }

  #start(): Promise<ChildProcess> {
    this.#child ??= new Promise((resolve, reject) => {
      const { codeDir, handler, timeoutSeconds, arn, environment } = this.spec;
      const child = fork(HOST_SCRIPT, [codeDir, handler, String(timeoutSeconds), arn], {
        env: environment,
        cwd: codeDir,
        execArgv: [],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
      });
      const keep = (chunk: Buffer) => {
        this.#output = (this.#output + chunk.toString()).slice(-200_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.on('message', (message: { ready?: true } & Reply) => {
        if (message.ready) return resolve(child);
        this.#pending.get(message.id)?.(message);
        this.#pending.delete(message.id);
      });
      child.once('exit', (code, signal) => {
        const failure = new FunctionError(
          'Runtime.ExitError',
          `${this.spec.name} exited (code ${code}, signal ${signal}). Its output:\n${this.#output.slice(-4000)}`,
        );
        reject(failure);
        for (const [id, settle] of this.#pending) {
          settle({ id, error: { errorType: failure.name, errorMessage: failure.message } });
        }
        this.#pending.clear();
      });
    });
    return this.#child;
  }
}
