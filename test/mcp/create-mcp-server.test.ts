import { Client, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import type { McpDeps, McpServerDeps } from '../../lambdas/mcp/deps.js';
import { deferredToolCatalogue, describeTool, toolCatalogue } from '../../lambdas/mcp/tool-catalogue.js';
import { defineTool, PURE_COMPUTATION } from '../../lambdas/mcp/tool-definition.js';

const SECRET = 'postgres://admin:hunter2@db.internal/meridian';

const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns its text.',
  input: z.object({ text: z.string() }),
  output: z.object({ text: z.string() }),
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: (_deps, { text }) => ({ text }),
});

const brokenTool = defineTool({
  name: 'broken',
  title: 'Broken',
  description: 'Fails the way a bug or an outage does.',
  input: z.object({}),
  output: z.object({}),
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: () => {
    throw new Error(`connect ECONNREFUSED ${SECRET}`);
  },
});

function logger() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

async function connect(deps: McpServerDeps, toolsets?: readonly string[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(deps, { principal: LOCAL_OWNER, toolsets }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('createMcpServer', () => {
  it('answers a tool that throws a non-domain error with -32603 and no internals, and logs it', async () => {
    const log = logger();
    const client = await connect({
      version: 'test',
      logger: log,
      tools: toolCatalogue({ test: [echoTool, brokenTool] }),
      toolDeps: async () => ({}) as McpDeps,
    });

    const call = client.callTool({ name: 'broken', arguments: {} });

    await expect(call).rejects.toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: expect.stringMatching(/Internal error$/),
    });
    await expect(call).rejects.not.toThrow(/hunter2|ECONNREFUSED/);
    expect(log.error).toHaveBeenCalledWith('tool failed', expect.objectContaining({ tool: 'broken' }));
    await client.close();
  });

  it('answers -32603 when the tools’ object graph cannot be built, and logs why', async () => {
    const log = logger();
    const client = await connect({
      version: 'test',
      logger: log,
      tools: toolCatalogue({ test: [echoTool] }),
      toolDeps: async () => {
        throw new Error(`MERIDIAN_TABLE_NAME is not set (${SECRET})`);
      },
    });

    const call = client.callTool({ name: 'echo', arguments: { text: 'hi' } });

    await expect(call).rejects.toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: expect.not.stringMatching(/hunter2/),
    });
    expect(log.error).toHaveBeenCalledTimes(1);
    // tools/list needs no object graph: it still answers.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    await client.close();
  });

  it('answers an unknown tool with -32602 naming it', async () => {
    const client = await connect({
      version: 'test',
      logger: logger(),
      tools: toolCatalogue({ test: [echoTool] }),
      toolDeps: async () => ({}) as McpDeps,
    });

    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool "nope"'),
    });
    await client.close();
  });
});

describe('createMcpServer and the slices of the object graph', () => {
  const calendarTool = defineTool({
    name: 'count_calendars',
    title: 'Count calendars',
    description: 'Counts the calendars the caller may read.',
    input: z.object({}),
    output: z.object({ count: z.number() }),
    annotations: PURE_COMPUTATION,
    needs: 'calendar',
    run: async (deps, _input, { principal }) => ({
      count: (await deps.calendars.listCalendars(principal)).length,
    }),
  });

  /** A loader that records which slices were asked for. */
  function recordingDeps() {
    const asked: string[] = [];
    const deps: McpServerDeps = {
      version: 'test',
      logger: logger(),
      tools: toolCatalogue({ test: [echoTool, calendarTool] }),
      toolDeps: async (slice) => {
        asked.push(slice);
        return {
          clock: { now: () => new Date(0) },
          defaultTimezone: undefined,
          calendars: { listCalendars: async () => [{ id: 'native/a' }, { id: 'native/b' }] },
        } as unknown as McpDeps;
      },
    };
    return { asked, deps };
  }

  it('asks the runtime only for the slice the called tool declares', async () => {
    const { asked, deps } = recordingDeps();
    const client = await connect(deps);

    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const counted = await client.callTool({ name: 'count_calendars', arguments: {} });

    expect(counted.structuredContent).toEqual({ count: 2 });
    expect(asked).toEqual(['time', 'calendar']);
    await client.close();
  });

  it('builds no slice for a call whose input is refused', async () => {
    const { asked, deps } = recordingDeps();
    const client = await connect(deps);

    const refused = await client.callTool({ name: 'echo', arguments: { text: 42 } });

    expect(refused.isError).toBe(true);
    expect(asked).toEqual([]);
    await client.close();
  });
});

describe('createMcpServer with a toolset selection', () => {
  const deps = (): McpServerDeps => ({
    version: 'test',
    logger: logger(),
    tools: toolCatalogue({ words: [echoTool], faults: [brokenTool] }),
    toolDeps: async () => ({}) as McpDeps,
  });

  it('lists every toolset when the connection chose none', async () => {
    const client = await connect(deps());

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'broken']);
    await client.close();
  });

  it('lists and calls only the tools of the chosen toolsets', async () => {
    const client = await connect(deps(), ['words']);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent).toEqual({
      text: 'hi',
    });
    await client.close();
  });

  it('refuses a tool outside the selection with -32602 naming its toolset and how to enable it', async () => {
    const client = await connect(deps(), ['words']);

    await expect(client.callTool({ name: 'broken', arguments: {} })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringMatching(/"broken" belongs to toolset "faults".*\?toolsets=words,faults/),
    });
    await client.close();
  });
});

describe('deferredToolCatalogue', () => {
  it('answers tools/list from the given listing without loading a tool', async () => {
    const load = vi.fn(async () => [echoTool]);
    const catalogue = deferredToolCatalogue({ test: load }, async () => ({ test: [describeTool(echoTool)] }));

    expect((await catalogue.listing()).test?.map((tool) => tool.name)).toEqual(['echo']);
    expect(load).not.toHaveBeenCalled();
  });

  it('finds a called tool and its toolset by its own loader, once: no listing, no toolset, no other tool', async () => {
    const words = vi.fn(async () => [echoTool]);
    const faults = vi.fn(async () => [brokenTool]);
    const listing = vi.fn(async () => ({
      words: [describeTool(echoTool)],
      faults: [describeTool(brokenTool)],
    }));
    const echoAlone = vi.fn(async () => echoTool);
    const brokenAlone = vi.fn(async () => brokenTool);
    const catalogue = deferredToolCatalogue({ words, faults }, listing, {
      words: { echo: echoAlone },
      faults: { broken: brokenAlone },
    });

    const [echo, again, missing] = await Promise.all([
      catalogue.find('echo'),
      catalogue.find('echo'),
      catalogue.find('missing'),
    ]);

    expect(echo).toBe(echoTool);
    expect(again).toBe(echoTool);
    expect(missing).toBeUndefined();
    expect(await catalogue.toolsetOf('broken')).toBe('faults');
    expect(await catalogue.toolsetOf('missing')).toBeUndefined();
    expect(await catalogue.toolsetNames()).toEqual(['words', 'faults']);
    expect(echoAlone).toHaveBeenCalledTimes(1);
    for (const unused of [brokenAlone, words, faults, listing]) expect(unused).not.toHaveBeenCalled();
  });

  it('loads every toolset once, on the first lookup, and lists them when no listing is given', async () => {
    const words = vi.fn(async () => [echoTool]);
    const faults = vi.fn(async () => [brokenTool]);
    const catalogue = deferredToolCatalogue({ words, faults });

    const [echo, missing] = await Promise.all([catalogue.find('echo'), catalogue.find('missing')]);

    expect(echo).toBe(echoTool);
    expect(missing).toBeUndefined();
    expect(await catalogue.listing()).toEqual({
      words: [describeTool(echoTool)],
      faults: [describeTool(brokenTool)],
    });
    expect(words).toHaveBeenCalledTimes(1);
    expect(faults).toHaveBeenCalledTimes(1);
  });
});
