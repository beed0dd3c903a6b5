import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BookingStepName } from '../core/ports/index.js';

/**
 * booking.asl.json and what binds it to code: which task state runs which step, through which
 * `${…}` placeholder (CDK's definitionSubstitutions on AWS) and which exported Lambda handler.
 * The CDK construct, the embedded runtime and the tests all read this one table.
 */

/** The definition file itself; CDK loads it with `DefinitionBody.fromFile`. */
export const BOOKING_DEFINITION_PATH = fileURLToPath(new URL('./booking.asl.json', import.meta.url));

export interface BookingTask {
  /** Task state name in booking.asl.json (local handlers are keyed by it). */
  state: string;
  step: BookingStepName;
  /** `${placeholder}` in the state's Resource. */
  placeholder: string;
  /** Export of lambdas/handlers/booking-steps.ts. */
  handler: string;
}

export const BOOKING_TASKS: readonly BookingTask[] = [
  { state: 'Lock', step: 'lock', placeholder: 'LockFunctionArn', handler: 'lockHandler' },
  { state: 'Verify', step: 'verify', placeholder: 'VerifyFunctionArn', handler: 'verifyHandler' },
  { state: 'Write', step: 'write', placeholder: 'WriteFunctionArn', handler: 'writeHandler' },
  { state: 'Release', step: 'release', placeholder: 'ReleaseFunctionArn', handler: 'releaseHandler' },
  {
    state: 'Compensate',
    step: 'compensate',
    placeholder: 'CompensateFunctionArn',
    handler: 'compensateHandler',
  },
];

/** The definition's text, placeholders unreplaced. */
export function readBookingDefinition(): string {
  return readFileSync(BOOKING_DEFINITION_PATH, 'utf8');
}

/**
 * Replaces `${name}` placeholders as CloudFormation's DefinitionSubstitutions does. Throws on a
 * placeholder without a value or a value without a placeholder, so the file and its bindings
 * cannot drift apart silently.
 *
 * @example
 * substitutePlaceholders('{"Resource":"${LockFunctionArn}"}', { LockFunctionArn: 'arn:…' });
 */
export function substitutePlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  const used = new Set<string>();
  const result = text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`No value for placeholder \${${name}} in the booking definition`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0)
    throw new Error(`The booking definition has no placeholder for ${unused.join(', ')}`);
  return result;
}

/** ARNs for the embedded runtime: well-formed (the local engine validates them), never called. */
export function localFunctionArns(): Record<string, string> {
  return Object.fromEntries(
    BOOKING_TASKS.map((task) => [
      task.placeholder,
      `arn:aws:lambda:us-east-1:000000000000:function:meridian-local-booking-${task.step}`,
    ]),
  );
}

interface StatesNode {
  States?: Record<string, StateNode>;
}
interface StateNode {
  Type?: string;
  Resource?: string;
  Branches?: StatesNode[];
  Iterator?: StatesNode;
  ItemProcessor?: StatesNode;
}

/** Every Task state of a definition, nested Parallel branches and Map processors included. */
export function taskStatesOf(definition: StatesNode): { name: string; resource: string }[] {
  return Object.entries(definition.States ?? {}).flatMap(([name, state]) => [
    ...(state.Type === 'Task' ? [{ name, resource: state.Resource ?? '' }] : []),
    ...(state.Branches ?? []).flatMap(taskStatesOf),
    ...(state.Iterator ? taskStatesOf(state.Iterator) : []),
    ...(state.ItemProcessor ? taskStatesOf(state.ItemProcessor) : []),
  ]);
}
