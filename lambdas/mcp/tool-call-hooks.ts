import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Principal } from '../core/access/rights.js';
import { isDomainError } from '../core/errors.js';
import type { Logger } from '../core/ports/index.js';
import type { ToolAnnotations } from './tool-definition.js';
import { domainErrorResult } from './tool-result.js';

/** One tools/call as a hook sees it: after authorisation, before the tool validates its input. */
export interface ToolCall {
  tool: string;
  principal: Principal;
  /** As the client sent them, not yet validated. */
  arguments: unknown;
  /** The tool's hints: `readOnlyHint: false` marks a call that may change state (the audit log's). */
  annotations?: ToolAnnotations;
  /** The request it came in (HTTP: `x-request-id`, else one made for it). */
  requestId?: string;
  /** The client as it identified itself (HTTP: its user agent; `stdio`; `cli`). */
  client?: string;
}

/** How a call ended: the result the client gets (`isError` for a refusal), or a server fault. */
export type ToolCallOutcome = { result: CallToolResult } | { fault: unknown };

/**
 * Runs around every authorised tools/call, on HTTP and stdio alike: the place for rate limits
 * (refuse before the tool runs) and an audit trail (record how each call ended). None is
 * installed yet; a later issue fills both in.
 *
 * @example
 * const perKeyLimit: ToolCallHook = {
 *   beforeCall: async ({ principal }) => {
 *     // RATE_LIMITED: a code the rate-limit issue adds.
 *     if (await overLimit(principal)) throw new DomainError('RATE_LIMITED', 'Wait a minute, then retry.');
 *   },
 * };
 */
export interface ToolCallHook {
  /**
   * Before the tool. Throwing a DomainError refuses the call: the client gets an `isError`
   * result with its code and message, and the tool does not run.
   */
  beforeCall?(call: ToolCall): Promise<void> | void;
  /**
   * After the tool, with its outcome (a refusal by `beforeCall` included). A failure here is
   * logged and does not change the result: the tool has already acted, and an error would make
   * the client retry a write that succeeded.
   */
  afterCall?(call: ToolCall, outcome: ToolCallOutcome): Promise<void> | void;
}

/**
 * Runs every hook's `beforeCall`; the first DomainError becomes the call's `isError` result.
 * Anything else is a fault of the hook (its store is down, say): logged, -32603, and the tool
 * does not run — a rate limit that cannot be checked must not let calls through.
 */
export async function refusalByHooks(
  hooks: readonly ToolCallHook[],
  call: ToolCall,
  logger: Logger,
): Promise<CallToolResult | undefined> {
  for (const hook of hooks) {
    try {
      await hook.beforeCall?.(call);
    } catch (error) {
      if (isDomainError(error)) return domainErrorResult(error);
      logger.error('a tool-call hook failed before the call', { tool: call.tool, error });
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
    }
  }
  return undefined;
}

/** Runs every hook's `afterCall`; a failure is logged and the others still run. */
export async function recordOutcome(
  hooks: readonly ToolCallHook[],
  call: ToolCall,
  outcome: ToolCallOutcome,
  logger: Logger,
): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook.afterCall?.(call, outcome);
    } catch (error) {
      logger.error('a tool-call hook failed after the call', { tool: call.tool, error });
    }
  }
}
