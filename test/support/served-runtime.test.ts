import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okTool } from './mcp-client.js';
import { type ServedRuntime, serveRuntime } from './served-runtime.js';
import { startTestRuntime } from './test-runtime.js';

/** The helper most tool tests stand on: if it connected wrongly or leaked, they would not say so. */
describe('serveRuntime', () => {
  let served: ServedRuntime;

  beforeAll(async () => {
    served = await serveRuntime(await startTestRuntime());
  });

  afterAll(() => served?.close());

  it('connects the real Client with a new key of its own per call', async () => {
    const first = await served.connect('first');
    const second = await served.connect('second');

    expect(first.keyId).not.toBe(second.keyId);
    expect(served.mcpUrl).toBe(`${served.url}/mcp`);
    expect(
      await okTool(first.client, 'convert_timezone', {
        datetime: '2026-01-01T00:00:00Z',
        target_timezone: 'Asia/Tokyo',
      }),
    ).toMatchObject({
      local: '2026-01-01T09:00:00+09:00',
    });
  });

  it('asks for the toolsets it is given, with a key made before', async () => {
    const { token } = await served.connect('any');

    const timeOnly = await served.connectToken(token, { toolsets: ['time'] });

    const names = (await timeOnly.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('convert_timezone');
    expect(names).not.toContain('list_calendars');
  });

  it('closes the clients it opened and the server', async () => {
    const own = await serveRuntime(await startTestRuntime());
    const { client } = await own.connect('agent');

    await own.close();

    // A closed Client drops its transport; the server being gone would fail a request either way.
    expect(client.transport).toBeUndefined();
    await expect(fetch(own.mcpUrl, { method: 'POST' })).rejects.toThrow();
  });
});
