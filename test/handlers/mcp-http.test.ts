import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { lambdaFetch } from '../support/lambda-fetch.js';

describeMcpHttpTransport('Lambda handler behind API Gateway (REST proxy event)', async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  process.env.MERIDIAN_TIMEZONE = 'America/New_York';
  const { handler } = await import('../../lambdas/handlers/mcp-http.js');
  return {
    baseUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
    fetch: lambdaFetch(handler as never),
    close: async () => undefined,
  };
});
