import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../../lambdas/core/ports/index.js';
import type { TestRuntime } from '../../../support/test-runtime.js';
import {
  connectedRecordUnderNativeId,
  nativeEventUnderAlias,
  startShadowRuntime,
} from '../../shadow/shadow-fixture.js';

/**
 * get_event asked by a native calendar id reads the event by the native id the calendar id
 * carries, beside the calendar's record (one round trip): never an answer from the wrong calendar.
 */
describe('CalendarService.getEvent on a native calendar id', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startShadowRuntime({ clock: fixedClock('2026-06-01T12:00:00Z') });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it("reads the event of the calendar its record names, never the id's guess", async () => {
    const { aliasId, event: created } = await nativeEventUnderAlias(runtime, 'n1', {
      start: '2026-06-11T10:00:00+00:00',
      end: '2026-06-11T11:00:00+00:00',
    });

    const view = await runtime.calendars.getEvent(LOCAL_OWNER, aliasId, created.id);

    expect(view).toMatchObject({ id: created.id, summary: 'Held' });
  });

  it('reads a record under a native-looking id as the connected calendar it says it is', async () => {
    const calendarId = await connectedRecordUnderNativeId(runtime);

    // The CalDAV connection is not configured here: reaching its provider is the proof that the
    // record, not the id, chose how the event is read.
    await expect(runtime.calendars.getEvent(LOCAL_OWNER, calendarId, 'e1')).rejects.toThrow(
      'No connection "c1"',
    );
  });

  it('reports a calendar Meridian does not know, not the event', async () => {
    await expect(runtime.calendars.getEvent(LOCAL_OWNER, 'native/nope', 'e1')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('native/nope'),
    });
  });
});
