import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { calendarResource, LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
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

/**
 * {@link serveBehindTableLog} with one native calendar in `timeZone` and a key, `agent`, granted
 * read on it: the setup of a test that counts a calendar tool's round trips.
 *
 * @example
 * const slow = await serveNativeCalendarBehindTableLog('UTC');
 * await okTool(slow.agent, 'list_events', { calendar_id: slow.calendarId, … });
 */
export async function serveNativeCalendarBehindTableLog(timeZone: string) {
  const slow = await serveBehindTableLog();
  const { runtime, served } = slow;
  const calendarId = (
    await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Work', time_zone: timeZone })
  ).id;
  const key = await served.connect('agent');
  await runtime.access.setGrant(key.keyId, calendarResource(calendarId), 'read');
  return { ...slow, calendarId, agent: key.client, keyId: key.keyId };
}
