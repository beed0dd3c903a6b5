import { describe, expect, it, vi } from 'vitest';
import type { McpHttpDeps } from '../../lambdas/mcp/deps.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';

/** A dependency /health must never reach: using it fails the request loudly. */
const unreachable = (what: string) => async () => {
  throw new Error(`/health used ${what}`);
};

/**
 * A liveness probe answers from the process alone: were it to read the store or build the
 * object graph, it would wait behind every request doing the same, and report a busy server
 * as dead (issue 8: /health under load).
 */
describe('GET /health', () => {
  it('answers 200 with the version without the store, the token verifier, the tools or the graph', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const deps: McpHttpDeps = {
      version: '9.9.9-test',
      logger,
      tools: {
        listing: unreachable('the tool listing'),
        find: unreachable('a tool'),
        toolsetNames: unreachable('the toolsets'),
        toolsetOf: unreachable('a tool'),
      },
      toolDeps: unreachable('the object graph'),
      tokenVerifier: { authenticate: unreachable('the key store') },
    };

    const response = await routeHttpRequest(new Request('http://127.0.0.1:8787/health'), deps);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version: '9.9.9-test' });
    expect(logger.error).not.toHaveBeenCalled();
  });
});
