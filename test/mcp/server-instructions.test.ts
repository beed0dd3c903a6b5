import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { TOOLSET_INSTRUCTIONS } from '../../lambdas/mcp/server-instructions.js';
import { TOOLSET_NAMES, TOOLSETS } from '../../lambdas/mcp/tools/index.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const toolNamesOf = (toolset: string) =>
  (TOOLSETS as Record<string, readonly { name: string }[]>)[toolset]!.map((tool) => tool.name);

/** Every tool name the text mentions, of any toolset. */
const toolsNamedIn = (text: string) =>
  TOOLSET_NAMES.flatMap(toolNamesOf).filter((name) => new RegExp(`\\b${name}\\b`).test(text));

describe('the server instructions', () => {
  let runtime: TestRuntime;
  let token: string;

  /** The instructions a client reads at initialize, over Streamable HTTP with the given query. */
  async function instructionsFor(query: string): Promise<string> {
    const client = await connectHttpClient(
      `http://localhost/mcp${query}`,
      (input, init) => routeHttpRequest(new Request(input, init), runtime),
      { authorization: `Bearer ${token}` },
    );
    const instructions = client.getInstructions() ?? '';
    await client.close();
    return instructions;
  }

  beforeAll(async () => {
    runtime = await startTestRuntime();
    token = (await runtime.newKey('instructions')).token;
  });

  afterAll(async () => {
    await runtime.close();
  });

  it('name no time tool when the connection enabled only calendars', async () => {
    const instructions = await instructionsFor('?toolsets=calendar');

    expect(instructions).toContain('list_calendars');
    expect(toolsNamedIn(instructions).filter((name) => toolNamesOf('time').includes(name))).toEqual([]);
    expect(instructions).toContain('RFC 3339');
  });

  it.each(TOOLSET_NAMES)('name only tools of "%s" when it is the one toolset enabled', async (toolset) => {
    const instructions = await instructionsFor(`?toolsets=${toolset}`);

    const named = toolsNamedIn(instructions);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !toolNamesOf(toolset).includes(name))).toEqual([]);
  });

  it('carry every toolset’s sentence when the connection chose none, in listing order', async () => {
    const instructions = await instructionsFor('');

    const positions = TOOLSET_NAMES.map((toolset) => instructions.indexOf(TOOLSET_INSTRUCTIONS[toolset]!));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('leave out exactly the toolsets a selection leaves out', async () => {
    const instructions = await instructionsFor('?toolsets=time,availability');

    expect(instructions).toContain(TOOLSET_INSTRUCTIONS.time);
    expect(instructions).toContain(TOOLSET_INSTRUCTIONS.availability);
    expect(instructions).not.toContain(TOOLSET_INSTRUCTIONS.calendar);
  });
});

describe('TOOLSET_INSTRUCTIONS', () => {
  it('has a sentence for every toolset and for nothing else', () => {
    expect(Object.keys(TOOLSET_INSTRUCTIONS)).toEqual([...TOOLSET_NAMES]);
  });
});
