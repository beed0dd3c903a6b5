import {
  type SFNClient,
  StartSyncExecutionCommand,
  type StartSyncExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { BookingInput, BookingResult } from '../../core/booking/booking-schemas.js';
import { decodeFailure, failureToError } from '../../core/booking/step-errors.js';
import type { BookingWorkflow } from '../../core/ports/index.js';

/** The one call the adapter makes; an SFNClient, or a stand-in in tests. */
export type StartSyncExecutionClient =
  | Pick<SFNClient, 'send'>
  | {
      send(command: StartSyncExecutionCommand): Promise<StartSyncExecutionCommandOutput>;
    };

export interface SfnBookingWorkflowOptions {
  client: StartSyncExecutionClient;
  /** MERIDIAN_BOOKING_STATE_MACHINE_ARN: the Express state machine deployed from booking.asl.json. */
  stateMachineArn: string;
}

/**
 * The booking workflow on AWS: one synchronous Express execution per booking. A failed execution
 * ends in the definition's Fail state, whose error is the booking's code and whose cause is its JSON
 * payload; both map back to the DomainError the embedded runtime would throw.
 *
 * @example
 * const workflow = new SfnBookingWorkflow({ client: new SFNClient({}), stateMachineArn });
 */
export class SfnBookingWorkflow implements BookingWorkflow {
  constructor(private readonly options: SfnBookingWorkflowOptions) {}

  async book(input: BookingInput): Promise<BookingResult> {
    const validated = BookingInput.parse(input);
    const output = (await this.options.client.send(
      new StartSyncExecutionCommand({
        stateMachineArn: this.options.stateMachineArn,
        // Names the execution in logs and traces; Express executions need not have unique names.
        name: `booking-${validated.booking_id}`.slice(0, 80),
        input: JSON.stringify(validated),
      }),
    )) as StartSyncExecutionCommandOutput;
    if (output.status === 'SUCCEEDED') return BookingResult.parse(JSON.parse(output.output ?? 'null'));
    if (output.status === 'FAILED')
      throw failureToError(decodeFailure(output.error ?? 'Unknown', output.cause));
    throw new Error(
      `The booking execution ended ${output.status ?? 'without a status'} (${output.executionArn ?? 'no ARN'}).`,
    );
  }
}
