import * as z from 'zod';
import { encodeCursor } from '../calendar/page-by-start.js';
import { DomainError } from '../errors.js';

/**
 * A rule drafted by create_rule_from_description, carried in its id rather than stored: the
 * draft is never saved, and create_rule accepts the id as a confirmation of exactly this query.
 */
const Proposal = z.object({ v: z.literal(1), query: z.string(), project_id: z.string().optional() });
export type Proposal = z.infer<typeof Proposal>;

export function encodeProposal(proposal: Omit<Proposal, 'v'>): string {
  return `prop_${encodeCursor({ v: 1, ...proposal })}`;
}

/** The proposal in an id, or INVALID_INPUT telling the agent to pass the query instead. */
export function decodeProposal(id: string): Proposal {
  try {
    if (!id.startsWith('prop_')) throw new Error('prefix');
    return Proposal.parse(JSON.parse(Buffer.from(id.slice(5), 'base64url').toString('utf8')));
  } catch {
    throw new DomainError(
      'INVALID_INPUT',
      'proposal_id is not one create_rule_from_description returned. Pass the proposal_id exactly as returned, or pass the query instead.',
      { field: 'proposal_id' },
    );
  }
}
