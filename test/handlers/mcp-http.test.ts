import { describeMcpHttpTransport } from '../mcp/http-transport-suite.js';
import { lambdaHandlerTarget } from './lambda-target.js';

describeMcpHttpTransport('Lambda handler behind API Gateway (REST proxy event)', () =>
  lambdaHandlerTarget(() => import('../../lambdas/handlers/mcp-http.js')),
);
