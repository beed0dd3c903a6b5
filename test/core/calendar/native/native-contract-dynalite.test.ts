import { afterAll, beforeAll } from 'vitest';
import { type DynaliteServer, startDynalite } from '../../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { describeNativeContract } from './native-contract.js';

let server: DynaliteServer;
beforeAll(async () => {
  server = await startDynalite();
});
afterAll(async () => {
  await server.close();
});

describeNativeContract('dynalite', () => server.endpoint);
