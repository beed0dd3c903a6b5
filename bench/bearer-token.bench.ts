/**
 * What the OAuth bearer check costs a tools/call (issue 20: ≤ 5% over an API key): the same
 * `get_temporal_context` call as POST /mcp over HTTP (meridian serve's path, with the embedded
 * authorization server in front), once with an access token issued through the real sign-in and
 * once with an API key, interleaved in the same run. Both read one item for the principal; the
 * token adds an EdDSA signature check.
 */
import { authorizeOverHttp, redeemCode } from '../test/support/oauth-http-flow.js';
import { serveWithSignIn } from '../test/support/served-sign-in.js';
import { compare, reportRatio } from './harness.js';

export async function run(): Promise<void> {
  const served = await serveWithSignIn();
  try {
    await served.users.add('bench', 'bench password');
    const flow = await authorizeOverHttp(served.url, {
      person: { name: 'bench', password: 'bench password' },
      scope: 'toolset:time',
      resource: served.mcpUrl,
    });
    const { access_token } = await redeemCode(served.url, flow);
    const { token: apiKey } = await served.runtime.newKey('bench', { toolsets: ['time'] });
    const call = (bearer: string) => async () => {
      const response = await fetch(served.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_temporal_context', arguments: {} },
        }),
      });
      if (response.status !== 200) throw new Error(`tools/call answered ${response.status}`);
      await response.text();
    };
    reportRatio(
      'tools/call over HTTP, OAuth access token vs API key',
      await compare(
        { name: 'access token', fn: call(access_token) },
        { name: 'API key', fn: call(apiKey) },
        { rounds: 10, runs: 200, warmup: 20 },
      ),
      { kind: 'slowdown', value: 1.05 },
    );
    const verifier = served.oauth.tokenVerifier;
    reportRatio(
      'the bearer check alone (TokenVerifier.authenticate, dynalite), access token vs API key',
      await compare(
        { name: 'access token', fn: () => verifier.authenticate(access_token) },
        { name: 'API key', fn: () => verifier.authenticate(apiKey) },
        { rounds: 10, runs: 400, warmup: 40 },
      ),
      // Informative: the whole call above is what the target is about.
      { kind: 'slowdown', value: 1.5 },
    );
  } finally {
    await served.close();
  }
}
