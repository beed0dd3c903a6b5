import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';

type Handler = Parameters<Server['_wrapHandler']>[1];

/** An issue as zod reports it: what a caller needs to fix the field. */
interface ZodIssueText {
  code: string;
  path: (string | number)[];
  message?: string;
}

/** Most issues named in one answer: a deeply wrong request gets the first few, which is enough to fix it. */
const MAX_ISSUES = 5;

const isIssue = (value: unknown): value is ZodIssueText =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ZodIssueText).code === 'string' &&
  Array.isArray((value as ZodIssueText).path);

/**
 * The issues of the SDK's own params check, when `error` is one: the SDK (2.4) rethrows a spec
 * method's failed schema check as a plain `Error` whose message is the ZodError's issues as JSON,
 * which its dispatcher then answers -32603 Internal error. Anything else — a handler's own error,
 * a ProtocolError, a ZodError instance — is not one.
 */
function schemaCheckIssues(error: unknown): ZodIssueText[] | undefined {
  if (!(error instanceof Error) || Object.getPrototypeOf(error) !== Error.prototype) return undefined;
  if (!error.message.startsWith('[')) return undefined;
  try {
    const issues = JSON.parse(error.message) as unknown;
    return Array.isArray(issues) && issues.length > 0 && issues.every(isIssue) ? issues : undefined;
  } catch {
    return undefined;
  }
}

/** `cursor: Invalid input: expected string, received number`: the field under `params`, and what is wrong. */
function describeIssue({ path, message = 'invalid' }: ZodIssueText): string {
  const field = (path[0] === 'params' ? path.slice(1) : path).join('.');
  return field ? `${field}: ${message}` : message;
}

/**
 * The SDK's low-level Server, answering -32602 Invalid params, naming the fields, where a spec
 * method's params fail the SDK's own schema (`tools/list` with a numeric cursor, `resources/read`
 * without a uri, `initialize` with a numeric version). SDK 2.4 answers those -32603 Internal
 * error, telling the caller the server broke when its request was wrong
 * (modelcontextprotocol/typescript-sdk#2284; the fix proposed in #2492 is not released). Written
 * here because the SDK offers no other hook between its check and its answer; remove it once the
 * SDK answers -32602 itself (test/mcp/spec-method-params.test.ts then still passes).
 */
export class ParamsRefusingServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        const issues = schemaCheckIssues(error);
        if (!issues) throw error;
        const named = issues.slice(0, MAX_ISSUES).map(describeIssue).join('; ');
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${named}.`);
      }
    };
  }
}
