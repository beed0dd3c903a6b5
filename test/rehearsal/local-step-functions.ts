import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { ensurePromiseWithResolvers } from '../../lambdas/adapters/workflow/promise-with-resolvers.js';
import { resourcesOfType } from './cloud-assembly.js';
import type { DeployedNames } from './intrinsics.js';

/** A state machine of the template: its ARN and its definition with the substitutions applied. */
export interface TemplateStateMachine {
  arn: string;
  type: string;
  definition: StateMachineDefinition;
}

/**
 * Every state machine of the template: the definition CDK uploaded as an asset (or inlined), with
 * each `${Name}` of DefinitionSubstitutions replaced by its resolved value, as Step Functions does
 * at deployment.
 */
export function templateStateMachines(names: DeployedNames): TemplateStateMachine[] {
  return resourcesOfType(names.assembly, 'AWS::StepFunctions::StateMachine').map(
    ({ stack, logicalId, properties }) => {
      const location = properties.DefinitionS3Location as { Key: string } | undefined;
      let text =
        location !== undefined
          ? readFileSync(stack.assetPath(String(names.resolve(stack, location.Key))), 'utf8')
          : properties.DefinitionString !== undefined
            ? String(names.resolve(stack, properties.DefinitionString))
            : JSON.stringify(names.resolve(stack, properties.Definition));
      const substitutions = names.resolve(stack, properties.DefinitionSubstitutions ?? {}) as Record<
        string,
        string
      >;
      for (const [name, value] of Object.entries(substitutions)) text = text.replaceAll(`\${${name}}`, value);
      const unresolved = /\$\{[A-Za-z0-9_]+\}/.exec(text);
      if (unresolved) throw new Error(`${logicalId}: ${unresolved[0]} has no DefinitionSubstitution`);
      return {
        arn: names.physical(stack, logicalId).ref,
        type: String(properties.StateMachineType ?? 'STANDARD'),
        definition: JSON.parse(text) as StateMachineDefinition,
      };
    },
  );
}

/** The error Step Functions records when a Lambda task fails: errorType, with Lambda's JSON as Cause. */
class TaskFailure extends Error {
  constructor(errorType: string, errorMessage: string) {
    super(JSON.stringify({ errorType, errorMessage, trace: [] }));
    this.name = errorType;
  }
}

export interface LocalStepFunctions {
  /** `http://127.0.0.1:PORT`. */
  endpoint: string;
  /** Every StartSyncExecution it answered. */
  executions: { stateMachineArn: string; status: string; error?: string }[];
  close(): Promise<void>;
}

/**
 * The Step Functions API as far as Meridian's functions call it (StartSyncExecution, the JSON 1.0
 * protocol), running each execution with aws-local-stepfunctions on the template's definition. A
 * Task whose Resource is a function ARN invokes that function of the rehearsal; any other Task
 * Resource is refused rather than left to the library, which would call real AWS.
 */
export async function startLocalStepFunctions(
  machines: TemplateStateMachine[],
  invoke: (functionArn: string, payload: unknown) => Promise<unknown>,
  isFunctionArn: (arn: string) => boolean,
): Promise<LocalStepFunctions> {
  ensurePromiseWithResolvers();
  const { StateMachine } = await import('aws-local-stepfunctions');
  const executions: LocalStepFunctions['executions'] = [];

  const run = async (request: { stateMachineArn: string; name?: string; input?: string }) => {
    const machine = machines.find((candidate) => candidate.arn === request.stateMachineArn);
    if (!machine)
      return { status: 400, body: { __type: 'StateMachineDoesNotExist', message: request.stateMachineArn } };
    if (machine.type !== 'EXPRESS')
      return {
        status: 400,
        body: { __type: 'StateMachineTypeNotSupported', message: 'StartSyncExecution needs EXPRESS' },
      };
    const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
    for (const [stateName, state] of Object.entries(machine.definition.States)) {
      if (state.Type !== 'Task') continue;
      const resource = String((state as { Resource: string }).Resource);
      if (!isFunctionArn(resource))
        throw new Error(`Task ${stateName} calls ${resource}: not a function of the template`);
      handlers[stateName] = async (input) => {
        try {
          return await invoke(resource, input);
        } catch (error) {
          const { name, message } = error as Error;
          throw new TaskFailure(name, message);
        }
      };
    }
    const startDate = Date.now() / 1000;
    const executionArn = `${machine.arn.replace(':stateMachine:', ':express:')}:${request.name ?? crypto.randomUUID()}:${crypto.randomUUID()}`;
    const base = {
      executionArn,
      stateMachineArn: machine.arn,
      name: request.name,
      startDate,
      input: request.input,
    };
    try {
      const output = await new StateMachine(machine.definition).run(JSON.parse(request.input ?? '{}'), {
        overrides: {
          taskResourceLocalHandlers: handlers as never,
          // Retries still happen, without their pauses (a rehearsal measures nothing by the clock).
          retryIntervalOverrides: Object.fromEntries(
            Object.keys(machine.definition.States).map((name) => [name, 0]),
          ),
        },
      }).result;
      executions.push({ stateMachineArn: machine.arn, status: 'SUCCEEDED' });
      return {
        status: 200,
        body: { ...base, stopDate: Date.now() / 1000, status: 'SUCCEEDED', output: JSON.stringify(output) },
      };
    } catch (error) {
      // The error that ended the run: a Fail state's Error and Cause, or an uncaught task error.
      const cause = ((error as { cause?: unknown }).cause ?? error) as Error;
      executions.push({ stateMachineArn: machine.arn, status: 'FAILED', error: cause.name });
      return {
        status: 200,
        body: {
          ...base,
          stopDate: Date.now() / 1000,
          status: 'FAILED',
          error: cause.name,
          cause: cause.message,
        },
      };
    }
  };

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '');
    let answer: { status: number; body: unknown };
    if (target !== 'AWSStepFunctions.StartSyncExecution') {
      answer = {
        status: 400,
        body: { __type: 'UnknownOperationException', message: `${target} is not rehearsed` },
      };
    } else {
      answer = await run(JSON.parse(Buffer.concat(chunks).toString('utf8'))).catch((error: Error) => ({
        status: 500,
        body: { __type: 'InternalFailure', message: error.message },
      }));
    }
    response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    executions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
