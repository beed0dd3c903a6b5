import type { ErrorCode } from '../core/errors.js';
import type { ComputationName } from '../mcp/computations.js';

/** What the main thread sends the computation thread. */
export interface ComputationRequest {
  id: number;
  name: ComputationName;
  args: unknown;
}

/** What the computation thread answers: the result, or the error as data (`code` for a DomainError). */
export type ComputationReply =
  | { id: number; result: unknown }
  | { id: number; error: { code?: ErrorCode; message: string; details?: Record<string, unknown> } };
