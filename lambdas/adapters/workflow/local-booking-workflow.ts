import type { StateMachine, StateMachineDefinition } from 'aws-local-stepfunctions';
import {
  BOOKING_TASKS,
  localFunctionArns,
  readBookingDefinition,
  substitutePlaceholders,
  taskStatesOf,
} from '../../booking/booking-definition.js';
import { BookingInput, BookingResult } from '../../core/booking/booking-schemas.js';
import { decodeFailure, failureToError } from '../../core/booking/step-errors.js';
import type { BookingStep, BookingSteps, BookingWorkflow } from '../../core/ports/index.js';
import { ensurePromiseWithResolvers } from './promise-with-resolvers.js';

type JsonValue = Parameters<StateMachine['run']>[0];
type LocalHandler = (input: JsonValue) => Promise<JsonValue>;

export interface LocalBookingWorkflowOptions {
  steps: BookingSteps;
  /**
   * The definition to run, as JSON text with its Resources filled in (e.g. the one a synthesized
   * CDK template deploys). Default: booking.asl.json with local ARNs.
   */
  definition?: string;
  /** Overrides every retrier's pause (milliseconds); tests pass 0. Default: the definition's own. */
  retryDelayMs?: number;
}

/**
 * The booking workflow of the embedded runtime: booking.asl.json run in this process by
 * aws-local-stepfunctions, each Task state handled by the very step function its Lambda runs on
 * AWS. Refuses, when constructed, a definition with a Task state that has no local handler (the
 * library would call the real AWS Lambda named in its Resource) or a handler for no state.
 *
 * @example
 * const workflow = new LocalBookingWorkflow({ steps: createBookingSteps(deps) });
 * const booking = await workflow.book(input);
 */
export class LocalBookingWorkflow implements BookingWorkflow {
  readonly #definition: StateMachineDefinition;
  readonly #handlers: Record<string, LocalHandler>;
  readonly #retryIntervalOverrides: Record<string, number> | undefined;
  #machine: Promise<StateMachine> | undefined;

  constructor(options: LocalBookingWorkflowOptions) {
    const text = options.definition ?? substitutePlaceholders(readBookingDefinition(), localFunctionArns());
    this.#definition = JSON.parse(text) as StateMachineDefinition;
    this.#handlers = Object.fromEntries(
      BOOKING_TASKS.map((task) => [task.state, asLambda(options.steps[task.step])]),
    );
    assertEveryTaskHandled(this.#definition, this.#handlers);
    this.#retryIntervalOverrides =
      options.retryDelayMs === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(this.#definition.States)
              .filter(([, state]) => 'Retry' in state)
              .map(([name]) => [name, options.retryDelayMs as number]),
          );
  }

  async book(input: BookingInput): Promise<BookingResult> {
    const machine = await this.#stateMachine();
    let output: unknown;
    try {
      output = await machine.run(BookingInput.parse(input) as JsonValue, {
        overrides: {
          taskResourceLocalHandlers: this.#handlers,
          ...(this.#retryIntervalOverrides ? { retryIntervalOverrides: this.#retryIntervalOverrides } : {}),
        },
      }).result;
    } catch (error) {
      throw executionFailure(error);
    }
    return BookingResult.parse(output);
  }

  #stateMachine(): Promise<StateMachine> {
    this.#machine ??= (async () => {
      ensurePromiseWithResolvers();
      const { StateMachine } = await import('aws-local-stepfunctions');
      return new StateMachine(this.#definition);
    })();
    return this.#machine;
  }
}

/**
 * Throws unless every Task state has a handler and every handler a Task state.
 *
 * @example
 * assertEveryTaskHandled(definition, { Lock: lock }); // throws: "Verify" has no local handler
 */
export function assertEveryTaskHandled(
  definition: StateMachineDefinition,
  handlers: Record<string, unknown>,
): void {
  const tasks = taskStatesOf(definition as Parameters<typeof taskStatesOf>[0]);
  const unhandled = tasks.filter((task) => typeof handlers[task.name] !== 'function');
  if (unhandled.length > 0) {
    throw new Error(
      `Refusing to run the booking workflow locally: Task state(s) ${unhandled
        .map((task) => `"${task.name}" (${task.resource})`)
        .join(', ')} have no local handler and would call AWS.`,
    );
  }
  const names = new Set(tasks.map((task) => task.name));
  const orphans = Object.keys(handlers).filter((name) => !names.has(name));
  if (orphans.length > 0) {
    throw new Error(
      `Local handler(s) for ${orphans.join(', ')} match no Task state of the booking workflow.`,
    );
  }
}

/** A step as a Lambda sees it: JSON in, JSON out, nothing shared by reference. */
function asLambda(step: BookingStep): LocalHandler {
  return async (input) =>
    JSON.parse(JSON.stringify((await step(structuredClone(input))) ?? null)) as JsonValue;
}

/**
 * The library throws `ExecutionError` whose cause is the error that ended the run: for the Fail
 * state, an error named by its Error field whose message is its Cause; for a step that failed
 * without being caught (Compensate), the step's own error.
 */
function executionFailure(error: unknown): Error {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof Error && error.name === 'ExecutionError' && cause instanceof Error) {
    return failureToError(decodeFailure(cause.name, cause.message));
  }
  return new Error(`The local booking workflow did not finish: ${(error as Error).message ?? error}`, {
    cause: error,
  });
}
