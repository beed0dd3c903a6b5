import type { Attendee } from '../../core/calendar/event.js';
import { type GraphEvent, ownerResponse } from './outlook-mapping.js';

/**
 * The mailbox owner's answer on Outlook. Graph keeps it in the event's `responseStatus`, which
 * PATCH does not set: it is recorded with `POST …/events/{id}/accept|decline|tentativelyAccept`
 * (on an occurrence's id for one occurrence). There is no action back to "not answered".
 */

const ACTIONS: Partial<Record<Attendee['response_status'], string>> = {
  accepted: 'accept',
  declined: 'decline',
  tentative: 'tentativelyAccept',
};

/**
 * The action that records the answer the owner's entry of `attendees` asks for on `written`, or
 * undefined when there is no such entry, the answer is already recorded, or it is `needsAction`.
 *
 * @example
 * ownerAnswerAction(event, [{ email: 'alice@contoso.com', response_status: 'declined' }], 'alice@contoso.com'); // 'decline'
 */
export function ownerAnswerAction(
  written: GraphEvent,
  attendees: readonly Attendee[] | undefined,
  owner: string | undefined,
): string | undefined {
  if (!owner || !attendees) return undefined;
  const wanted = attendees.find((a) => a.email.toLowerCase() === owner.toLowerCase())?.response_status;
  if (!wanted || wanted === ownerResponse(written)) return undefined;
  return ACTIONS[wanted];
}
