import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { serveRuntime } from './served-runtime.js';
import { startTableRequestLog } from './table-request-log.js';
import { startTestRuntime } from './test-runtime.js';

/**
 * A served runtime on a fresh dynalite whose every answer is held back `answerDelayMs` and
 * logged: for tests that count a tool's table round trips from outside the server
 * (`tableLog.rounds()`), where requests sent one after another fall in separate rounds.
 *
 * @example
 * const slow = await serveBehindTableLog();
 * // … call a tool twice, then:
 * slow.tableLog.rounds();
 * await slow.close();
 */
export async function serveBehindTableLog(answerDelayMs = 20) {
  const dynalite = await startDynalite();
  const tableLog = await startTableRequestLog(dynalite.endpoint, { answerDelayMs });
  const runtime = await startTestRuntime({ endpoint: tableLog.endpoint });
  const served = await serveRuntime(runtime);
  return {
    runtime,
    served,
    tableLog,
    close: async () => {
      await served.close();
      await tableLog.close();
      await dynalite.close();
    },
  };
}
