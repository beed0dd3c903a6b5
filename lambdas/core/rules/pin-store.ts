import * as z from 'zod';
import { compareAndSet } from '../compare-and-set.js';
import { DomainError } from '../errors.js';
import type { Clock, DocumentStore } from '../ports/index.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';

/** An event, or a whole series, classified into a project by hand. Pins beat rules. */
export const Pin = z.object({
  calendar_id: z.string(),
  scope: z.enum(['event', 'series']),
  /** The event id (scope `event`) or the series master's id (scope `series`). */
  target_id: z.string(),
  project_id: z.string(),
  pinned_at: z.string(),
});
export type Pin = z.infer<typeof Pin>;

const pinPk = (calendarId: string) => `${PK_PREFIX.pin}${calendarId}`;
const pinSk = (scope: Pin['scope'], targetId: string) =>
  `${scope === 'event' ? SK.pin.eventPrefix : SK.pin.seriesPrefix}${targetId}`;

/** The pins of one calendar, looked up by event: its own pin first, else its series' pin. */
export class CalendarPins {
  private readonly byKey: ReadonlyMap<string, Pin>;

  constructor(private readonly pins: readonly Pin[]) {
    this.byKey = new Map(pins.map((p) => [pinSk(p.scope, p.target_id), p]));
  }

  pinOf(event: { id: string; recurring_event_id?: string | undefined }): Pin | undefined {
    return (
      this.byKey.get(pinSk('event', event.id)) ??
      (event.recurring_event_id ? this.byKey.get(pinSk('series', event.recurring_event_id)) : undefined)
    );
  }

  all(): readonly Pin[] {
    return this.pins;
  }
}

/**
 * Pins in the document store, one partition per calendar (see docs/data-model.md), so the pins
 * of the calendars being classified are one query each. A second pin of the same target replaces
 * the first: the latest hand classification is the one meant.
 */
export class PinStore {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock }) {}

  /**
   * Pins `input`'s target, replacing the pin it has only after `mayReplace` accepted that pin
   * (it throws to refuse), and only if no other pin landed meanwhile: the check and the write
   * are one conditional round, retried when another writer won it.
   */
  async pin(input: Omit<Pin, 'pinned_at'>, mayReplace: (current: Pin) => Promise<void>): Promise<Pin> {
    const key = { pk: pinPk(input.calendar_id), sk: pinSk(input.scope, input.target_id) };
    return compareAndSet(
      async () => {
        const stored = await this.deps.store.get(key, { consistent: true });
        const current = stored ? Pin.parse(stored) : undefined;
        if (current && current.project_id !== input.project_id) await mayReplace(current);
        const pin = Pin.parse({ ...input, pinned_at: this.deps.clock.now().toISOString() });
        await this.deps.store.put(
          { ...key, ...pin },
          {
            condition: current
              ? {
                  op: 'and',
                  conditions: [
                    { op: 'eq', attribute: 'pinned_at', value: current.pinned_at },
                    { op: 'eq', attribute: 'project_id', value: current.project_id },
                  ],
                }
              : { op: 'not_exists' },
          },
        );
        return pin;
      },
      {
        maxAttempts: 5,
        exhausted: () =>
          new DomainError(
            'CONFLICT',
            'The event was classified by someone else at the same time: try again.',
          ),
      },
    );
  }

  /** The pin of one target, if it has one. */
  async find(calendarId: string, scope: Pin['scope'], targetId: string): Promise<Pin | undefined> {
    const stored = await this.deps.store.get(
      { pk: pinPk(calendarId), sk: pinSk(scope, targetId) },
      { consistent: true },
    );
    return stored ? Pin.parse(stored) : undefined;
  }

  async unpin(calendarId: string, scope: Pin['scope'], targetId: string): Promise<void> {
    await this.deps.store.delete({ pk: pinPk(calendarId), sk: pinSk(scope, targetId) });
  }

  async ofCalendar(calendarId: string): Promise<CalendarPins> {
    const items = await queryAll(this.deps.store, { partition: pinPk(calendarId), consistent: true });
    return new CalendarPins(items.map((item) => Pin.parse(item)));
  }
}
