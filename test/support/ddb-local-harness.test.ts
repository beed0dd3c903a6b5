import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JAVA_MISSING_MESSAGE, startDynamoDbLocal } from './dynamodb-local.js';
import { JAVA, needs } from './system-parts.js';

// Named without "dynamodb-local" on purpose: these tests never need the run's shared instance.
describe('startDynamoDbLocal', () => {
  const saved = { PATH: process.env.PATH, JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('fails with the install hint when java is not on PATH', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'meridian-no-java-'));
    process.env.PATH = empty;
    try {
      await expect(startDynamoDbLocal()).rejects.toThrow(JAVA_MISSING_MESSAGE);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    expect(JAVA_MISSING_MESSAGE).toContain('openjdk-17-jre-headless');
  });

  it('fails fast with the JVM output when the process exits before it is ready', needs(JAVA), async () => {
    process.env.JAVA_TOOL_OPTIONS = '-XX:+NoSuchOption';
    const started = performance.now();

    const error = await startDynamoDbLocal({ readyTimeoutMs: 30_000 }).catch((thrown: unknown) => thrown);

    expect((error as Error).message).toMatch(/^DynamoDB Local exited early \(code 1/);
    expect((error as Error).message).toContain("Unrecognized VM option 'NoSuchOption'");
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
